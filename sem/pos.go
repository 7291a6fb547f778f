package sem

import "fmt"

// Pos is a source position: file name, 1-based line and column.
type Pos struct {
	File string
	Line int
	Col  int
}

// String is FILE:LINE:COL, or just FILE for a position naming a whole file
// (one that could not be read).
func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}
