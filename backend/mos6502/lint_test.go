package mos6502

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestLintRejects checks the lint on lines TMP would refuse.
func TestLintRejects(t *testing.T) {
	for _, bad := range []string{
		"         lda $1234,x ; a comment that makes this line too long",
		"averyveryverylonglabel",
		"         .fill 10",
		"         .repeat 3",
		"         sta $02,y",
		"         lax $02",
		"         lda t+1*2",
	} {
		if len(Lint(bad)) == 0 {
			t.Errorf("lint accepts %q", bad)
		}
	}
	if errs := Lint("l1\n         lda (t+2),y\n         sta $02,x\n         ldx $02,y\n"); len(errs) != 0 {
		t.Errorf("lint rejects good lines: %v", errs)
	}
}

// TestStdlibSource emits every stdlib module, lints it and assembles it
// with 64tass exactly as the issue asks (-C -T -a --nostart).
func TestStdlibSource(t *testing.T) {
	for _, mod := range stdlibModules(t) {
		prog, err := stdlibProgram(mod, nil)
		if err != nil {
			t.Errorf("%s: %v", mod, err)
			continue
		}
		out := []byte(prog.src)
		if errs := Lint(string(out)); len(errs) > 0 {
			t.Errorf("%s: %d lint errors, first: %s", mod, len(errs), errs[0])
		}
		dir := t.TempDir()
		src := filepath.Join(dir, mod+".asm")
		if err := os.WriteFile(src, out, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("64tass", "-C", "-T", "-a", "--nostart", "-o", filepath.Join(dir, "x.bin"), src)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: 64tass: %v\n%s", mod, err, firstLines(string(b), 10))
		}
	}
}
