// Package vm is the reference interpreter of checked Lowent programs. Its
// answers define the language: every backend must reproduce them exactly.
//
// Each function is compiled once per program into a tree of Go closures
// (compile.go, stmt.go, expr.go, array.go, builtin.go). Words are plain
// uint64 values masked to their width after every operation; arrays, slices
// and chunk views are []uint64 sharing their storage (nested arrays flattened
// row-major); locals live in per-call frames indexed by lang.Symbol.Slot.
// A run-time check that fails panics with a *Trap, which Run recovers.
package vm

import (
	"errors"
	"fmt"
	"io"

	"github.com/lowent/lowentc/lang"
)

// Options configure a run.
type Options struct {
	Trace io.Writer // where trace(...) prints; nil discards
	// Features is the hardware `have FEATURE` reports as present: the VM
	// computes every builtin itself, so this only picks the branches of
	// `if have ...`, letting tests run both.
	Features lang.FeatureSet
}

// Stats are measurements of a run.
type Stats struct{ Steps uint64 } // evaluated statements and calls

// Trap is a run-time check that failed: Error() is "FILE:LINE:COL: trap: MSG".
type Trap struct {
	Pos lang.Pos
	Msg string
}

func (t *Trap) Error() string { return t.Pos.String() + ": trap: " + t.Msg }

// Trapped says the error is a failed run-time check (as ir.Trap's does).
func (t *Trap) Trapped() {}

// Run calls fn of the checked program p with args (one lang.Value per
// parameter: words and bools in Word; arrays and slices as flattened Elems,
// row-major for nested arrays). A mut argument's Elems are updated in place.
// Run returns one Value per result. Before the call it checks that every
// argument fits its parameter's type (word widths, fixed-array element
// counts) and that fn's requires hold: a violation is a *lang.Fault, not a
// trap.
// A run-time check failing inside the call returns a *Trap.
func Run(p *lang.Program, fn *lang.FuncDecl, args []lang.Value, opt Options) (results []lang.Value, st Stats, err error) {
	if p == nil || fn == nil {
		return nil, Stats{}, errors.New("vm: nil program or function")
	}
	if !contains(p, fn) {
		return nil, Stats{}, fmt.Errorf("vm: function %s is not part of the program", fn.QualName())
	}
	fc := programCode(p).get(fn)
	if fc.memErr != nil {
		return nil, Stats{}, fc.memErr
	}
	m := newMachine(fc.pc, opt)
	fr := fc.newFrame(m)
	if err := bindArgs(fc, fr, args); err != nil {
		return nil, Stats{}, err
	}
	if err := boundaryRequires(fc, fr); err != nil {
		return nil, Stats{}, err
	}
	defer func() {
		st.Steps = m.steps
		if r := recover(); r != nil {
			t, ok := r.(*Trap)
			if !ok {
				panic(r)
			}
			results, err = nil, t
		}
	}()
	if !fc.body(fr) && len(fc.resArray) > 0 {
		panic(fmt.Sprintf("BUG: vm: %s ended without return", fn.QualName()))
	}
	results = make([]lang.Value, len(fc.resArray))
	for j, isArr := range fc.resArray {
		if isArr {
			results[j] = lang.Value{Elems: fr.resA[j], IsArray: true}
		} else {
			results[j] = lang.Value{Word: fr.res[j]}
		}
	}
	return results, Stats{Steps: m.steps}, nil
}

// bindArgs checks the arguments against fn's parameter types and binds them
// into the frame. Array arguments are bound by reference, so writes through a
// mut parameter land in the caller's Elems.
func bindArgs(fc *fnCode, fr *frame, args []lang.Value) error {
	fn := fc.decl
	if len(args) != len(fn.Params) {
		return fmt.Errorf("vm: %s takes %d arguments, got %d", fn.QualName(), len(fn.Params), len(args))
	}
	for i, prm := range fn.Params {
		v := args[i]
		slot := prm.Sym.Slot
		switch t := prm.Type.(type) {
		case *lang.WordType, *lang.BoolType:
			if v.IsArray {
				return fmt.Errorf("vm: argument %s: want a %s, got an array", prm.Name, t)
			}
			if mask := maskOf(t); v.Word&^mask != 0 {
				return fmt.Errorf("vm: argument %s: %#x does not fit %s", prm.Name, v.Word, t)
			}
			fr.w[slot] = v.Word
		case *lang.ArrayType, *lang.SliceType:
			if at, ok := t.(*lang.ArrayType); ok && len(v.Elems) != flatLen(at) {
				return fmt.Errorf("vm: argument %s: %d elements, want %d for %s", prm.Name, len(v.Elems), flatLen(at), t)
			}
			leaf := leafType(t)
			mask := maskOf(leaf)
			for k, e := range v.Elems {
				if e&^mask != 0 {
					return fmt.Errorf("vm: argument %s: element %d (%#x) does not fit %s", prm.Name, k, e, leaf)
				}
			}
			fr.a[slot] = v.Elems
		default:
			panic(fmt.Sprintf("BUG: vm: parameter %s has type %v", prm.Name, prm.Type))
		}
	}
	return nil
}

// boundaryRequires evaluates an exported function's requires on the bound
// arguments. A failure is the caller's fault (a *lang.Fault), not a trap.
func boundaryRequires(fc *fnCode, fr *frame) (err error) {
	defer func() {
		if r := recover(); r != nil {
			t, ok := r.(*Trap)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("vm: evaluating the requires of %s: %v", fc.decl.QualName(), t)
		}
	}()
	for k, req := range fc.requires {
		if req(fr) == 0 {
			return lang.RequiresFault(fc.decl, k)
		}
	}
	return nil
}

// trap stops the run with a *Trap. It is a separate function so that the
// closures that call it stay small.
//
//go:noinline
func trap(pos lang.Pos, format string, args ...any) {
	panic(&Trap{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// checkerBug is appended to a trap message when the checker claimed the check
// could not fail.
const checkerBug = " (checker bug: this check was marked proven)"

func bugNote(checked bool) string {
	if checked {
		return ""
	}
	return checkerBug
}
