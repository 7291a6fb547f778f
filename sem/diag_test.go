package sem

import (
	"strings"
	"testing"
	"time"
)

// TestRenderLongLine: a diagnostic on a very long line shows a window of
// the line around the column, with the caret under the same character,
// not the whole line (a 4 MiB file may be one line).
func TestRenderLongLine(t *testing.T) {
	line := strings.Repeat("a + ", 100000) + "BAD + " + strings.Repeat("b + ", 100000)
	col := strings.Index(line, "BAD") + 1
	ds := Diags{{Pos: Pos{File: "t.lw", Line: 2, Col: col}, Msg: "here"}}
	out := ds.Render(Sources{"t.lw": []byte("module m\n" + line + "\n")})
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 || len(out) > 600 {
		t.Fatalf("%d lines, %d bytes:\n%.600s", len(lines), len(out), out)
	}
	caret := strings.Index(lines[2], "^")
	if !strings.HasPrefix(lines[1][caret:], "BAD") {
		t.Errorf("the caret is not under BAD:\n%s\n%s", lines[1], lines[2])
	}
	if !strings.HasPrefix(lines[1], "    ...") || !strings.HasSuffix(lines[1], "...") {
		t.Errorf("the window does not say it is cut: %s", lines[1])
	}

	// Short lines are shown whole.
	ds = Diags{{Pos: Pos{File: "t.lw", Line: 1, Col: 8}, Msg: "here"}}
	if got := ds.Render(Sources{"t.lw": []byte("module m\n")}); got != "t.lw:1:8: here\n    module m\n           ^\n" {
		t.Errorf("%q", got)
	}
}

func TestAbbrev(t *testing.T) {
	if got := Abbrev("12345", 5); got != "12345" {
		t.Error(got)
	}
	if got := Abbrev(strings.Repeat("9", 1000), 4); got != "9999... (1000 characters)" {
		t.Error(got)
	}
}

// TestRenderManyDiagnostics: rendering is linear in the source, however
// many diagnostics point into it (each file is split into lines once; it
// was split again for every diagnostic, 16,000 errors of one file took 20 s).
func TestRenderManyDiagnostics(t *testing.T) {
	const n = 20000
	var src strings.Builder
	var ds Diags
	for i := 1; i <= n; i++ {
		src.WriteString("const C: u8 = 300 // a line of some length, as real ones are\n")
		ds = append(ds, &Diag{Pos: Pos{File: "t.lw", Line: i, Col: 15}, Msg: "constant 300 overflows u8"})
	}
	start := time.Now()
	out := ds.Render(Sources{"t.lw": []byte(src.String())})
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("rendering %d diagnostics took %v", n, d)
	}
	if got := strings.Count(out, "\n"); got != 3*n {
		t.Errorf("%d lines, want %d", got, 3*n)
	}
}
