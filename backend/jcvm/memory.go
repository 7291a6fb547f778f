package jcvm

import (
	"fmt"
	"sort"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

// The card's memory. Every Java Card array holds at most maxArrayLen
// elements. A local array of the program is a static work array the class
// allocates once in transient RAM (CLEAR_ON_DESELECT), and a card has little
// of that: the class may take maxTransient bytes for its work arrays, beside
// the applet's 4 KB argument area.

// maxTransient is the most bytes of transient work arrays a class may
// allocate: with the applet's argument area, 8 KB of CLEAR_ON_DESELECT RAM,
// an assumption about a JCOP-class card (docs/jcvm.md). The standard
// library takes at most 2,032 (gcm, --no-int --storage arrays).
const maxTransient = 4096

// cellsOf is how many Java array elements one word of type t takes: a byte
// for u8 and bool, else shorts (u32 two, u64 four), or one int for a u32 in
// an int[] (intArr).
func cellsOf(t ir.Type, intArr bool) int64 {
	switch {
	case intArr:
		return 1
	case t == ir.U32:
		return 2
	case t == ir.U64:
		return 4
	}
	return 1
}

// javaBytes is the bytes of one cell for words of type t.
func javaBytes(t ir.Type, intArr bool) int64 {
	switch {
	case t == ir.U8 || t == ir.Bool:
		return 1
	case intArr:
		return 4
	}
	return 2
}

// checkArrays refuses, at its declaration, an array of the program that no
// Java Card array can hold, and a local array larger than the class's
// transient RAM. The class as compiled is checked again by checkTransient.
func checkArrays(in *backend.Input, opts backend.Options) error {
	intArrs := opts.Storage == "arrays" && width(opts) == 32
	for _, a := range in.Arrays {
		local := a.What == "local array"
		intArr := local && intArrs && a.Elem == ir.U32
		n := a.Len
		cells := n * cellsOf(a.Elem, intArr)
		kind := map[int64]string{1: "bytes", 2: "shorts", 4: "ints"}[javaBytes(a.Elem, intArr)]
		if cells > maxArrayLen {
			return &sem.Diag{Pos: a.Pos, Msg: fmt.Sprintf("jcvm: %s %s of %s elements takes %s %s; a Java Card array holds at most %s",
				a.What, a.Name, sem.Thousands(n), sem.Thousands(cells), kind, sem.Thousands(maxArrayLen))}
		}
		if b := cells * javaBytes(a.Elem, intArr); local && !intArr && b > maxTransient {
			return &sem.Diag{Pos: a.Pos, Msg: fmt.Sprintf("jcvm: local array %s takes %s bytes of transient RAM; the class's work arrays may take at most %s",
				a.Name, sem.Thousands(b), sem.Thousands(maxTransient))}
		}
	}
	return nil
}

// checkTransient refuses a class whose transient work arrays (local arrays,
// spill arrays, the carry array) take more than maxTransient bytes, naming
// the largest.
func checkTransient(cls *Class) error {
	fs := transientFields(cls)
	total := 0
	for _, f := range fs {
		total += f.bytes
	}
	if total <= maxTransient {
		return nil
	}
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].bytes > fs[j].bytes })
	return fmt.Errorf("jcvm: the class's transient work arrays take %s bytes (the largest: %s, %s bytes); the limit is %s",
		sem.Thousands(int64(total)), fs[0].name, sem.Thousands(int64(fs[0].bytes)), sem.Thousands(maxTransient))
}

// transientField is a static work array in transient RAM and its bytes.
type transientField struct {
	name  string
	bytes int
}

// transientFields are cls's transient work arrays (local arrays, spill
// arrays, the carry array), in field order.
func transientFields(cls *Class) []transientField {
	var fs []transientField
	for _, f := range cls.Fields {
		if f.Data != nil || f.Elem == EInt {
			continue // persistent: a constant table or an int[]
		}
		n := f.Len
		if f.Wide {
			n *= 2
		}
		if f.Elem == EShort {
			n *= 2
		}
		fs = append(fs, transientField{f.Name, n})
	}
	return fs
}
