package sem

import (
	"fmt"
	"sort"
	"strings"
)

// Diag is one diagnostic: a position, a message and optional notes (each with
// its own position, e.g. the steps of a call path).
type Diag struct {
	Pos   Pos
	Msg   string
	Notes []Note
}

// Note is a secondary message attached to a diagnostic.
type Note struct {
	Pos Pos
	Msg string
}

func (d *Diag) Error() string { return d.Pos.String() + ": " + d.Msg }

// Diags is a list of diagnostics; as an error it reads as the first one.
type Diags []*Diag

func (ds Diags) Error() string {
	if len(ds) == 0 {
		return "no errors"
	}
	if len(ds) == 1 {
		return ds[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", ds[0].Error(), len(ds)-1)
}

// Err returns ds as an error, or nil when it is empty.
func (ds Diags) Err() error {
	if len(ds) == 0 {
		return nil
	}
	return ds
}

// Sort orders diagnostics by file, line and column, keeping the order of equal positions.
func (ds Diags) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i].Pos, ds[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// Sources maps a file name to its text, for rendering source lines.
type Sources map[string][]byte

// Render writes every diagnostic as `file:line:col: message`, then the source
// line and a caret under the column, then its notes.
func (ds Diags) Render(src Sources) string {
	var b strings.Builder
	lines := map[string][]string{} // each file split once, however many diagnostics
	for _, d := range ds {
		b.WriteString(d.Pos.String() + ": " + d.Msg + "\n")
		writeCaret(&b, src, lines, d.Pos)
		for _, n := range d.Notes {
			b.WriteString(n.Pos.String() + ": note: " + n.Msg + "\n")
		}
	}
	return b.String()
}

func writeCaret(b *strings.Builder, src Sources, split map[string][]string, p Pos) {
	text, ok := src[p.File]
	if !ok || p.Line < 1 {
		return
	}
	lines, ok := split[p.File]
	if !ok {
		lines = strings.Split(string(text), "\n")
		split[p.File] = lines
	}
	if p.Line > len(lines) {
		return
	}
	line := strings.TrimRight(lines[p.Line-1], "\r")
	col := p.Col
	if col < 1 {
		col = 1
	}
	if col > len(line)+1 {
		col = len(line) + 1
	}
	// A long line is shown as a window around the column, so that one
	// diagnostic stays a few lines of text.
	if len(line) > excerptWidth {
		start := max(0, min(col-1-excerptWidth/2, len(line)-excerptWidth))
		end := start + excerptWidth
		head, tail := "", ""
		if start > 0 {
			head = "..."
		}
		if end < len(line) {
			tail = "..."
		}
		line = head + line[start:end] + tail
		col = col - start + len(head)
	}
	b.WriteString("    " + strings.ReplaceAll(line, "\t", " ") + "\n")
	b.WriteString("    " + strings.Repeat(" ", col-1) + "^\n")
}

// excerptWidth is the most characters of a source line a diagnostic shows.
const excerptWidth = 160

// Abbrev shortens a piece of source quoted in a message to at most n
// characters (and the count of the rest).
func Abbrev(text string, n int) string {
	if len(text) <= n {
		return text
	}
	return fmt.Sprintf("%s... (%d characters)", text[:n], len(text))
}

// Errorf makes a diagnostic.
func Errorf(p Pos, format string, args ...any) *Diag {
	return &Diag{Pos: p, Msg: fmt.Sprintf(format, args...)}
}
