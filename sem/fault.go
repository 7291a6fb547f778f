package sem

import "fmt"

// Fault is a broken contract: the arguments of a call of an exported
// function do not satisfy its requires (or, at a target's ABI, buffers that
// overlap without being the same buffer). It is the caller's error, not a
// trap of the program. Every target reports it with the same one line,
//
//	FILE:LINE:COL: fault: ENTRY: requires COND does not hold
//
// where the position is the condition's and COND its text as written.
type Fault struct {
	Pos   Pos
	Entry string // the exported function
	Cond  string // the condition as written in the source
}

func (f *Fault) Error() string {
	return fmt.Sprintf("%s: fault: %s: requires %s does not hold", f.Pos, f.Entry, f.Cond)
}

// Faulted says the error is a broken contract (tools that cannot import
// this package recognise faults by this method, as traps by Trapped).
func (f *Fault) Faulted() {}

// Export is what a fault says about an exported function, taken from its
// source: its name and position, its parameters' names and positions, and
// each requires clause's position and text. The lowering fills one for
// every function, so that the IR and the backends report faults without
// the syntax tree.
type Export struct {
	Name     string
	Pos      Pos
	Params   []Param
	Requires []SrcText // in source order
}

// Param is a parameter of an export: its name and where it is declared.
type Param struct {
	Name string
	Pos  Pos
}

// RequiresFault is the fault of requires clause k (0-based, in source
// order) of fn failing: the one place every target's report is made.
func RequiresFault(fn *Export, k int) *Fault {
	f := &Fault{Entry: fn.Name}
	if k >= 0 && k < len(fn.Requires) {
		f.Pos, f.Cond = fn.Requires[k].Pos, fn.Requires[k].Text
	} else {
		f.Pos, f.Cond = fn.Pos, fmt.Sprintf("clause %d", k+1)
	}
	return f
}

// OverlapFault is the fault of a call that passes the buffer an export
// writes, parameter written, and that of parameter other in memory that
// overlaps without being the same buffer: what every export implicitly
// requires (docs/language.md, "Exported functions"). The indexes are into
// fn.Params; from len(fn.Params) on they name the array results.
func OverlapFault(fn *Export, written, other int) *Fault {
	name := func(i int) (string, Pos) {
		if i >= 0 && i < len(fn.Params) {
			return fn.Params[i].Name, fn.Params[i].Pos
		}
		return fmt.Sprintf("result %d", i-len(fn.Params)+1), fn.Pos
	}
	a, pos := name(written)
	b, _ := name(other)
	return &Fault{Pos: pos, Entry: fn.Name, Cond: a + " and " + b + " the same buffer or disjoint"}
}

// SrcText is a piece of source: where it starts and its text as written
// (on one line: runs of white space and comments are one space).
type SrcText struct {
	Pos  Pos
	Text string
}
