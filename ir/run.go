package ir

import (
	"fmt"

	"github.com/lowent/lowentc/sem"
)

// Run calls the function export of m (normally an exported one) with the
// VM's conventions: a word or bool argument in Word, an array or slice
// flattened row-major in Elems; `mut` arrays are updated in place. At W < 64
// the values are split into limbs and joined again here. A failed check
// returns a *Trap naming its source position.
func Run(m *Module, export string, args []sem.Value) (results []sem.Value, err error) {
	f := m.Func(export)
	if f == nil {
		return nil, fmt.Errorf("no function %s in module %s", export, m.Name)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			results, err = nil, fmt.Errorf("internal error running %s: %v", export, r)
		}
	}()
	for _, g := range m.Funcs {
		g.Renumber()
	}
	if n := localLimbs(f, map[*Function]int64{}); n > maxLimbs {
		return nil, fmt.Errorf("%s: ir: a call of %s needs %s limbs of local arrays; the interpreter's limit is %s limbs (2 GiB)",
			f.Pos, f.Name, sem.Thousands(n), sem.Thousands(maxLimbs))
	}
	it := &interp{m: m, w: m.W}
	scalars, arrays, err := bindArgs(m, f, args)
	if err != nil {
		return nil, err
	}
	// Array results come back through hidden trailing parameters.
	hidden := f.Params[len(f.Params)-countArrayResults(f):]
	for _, p := range hidden {
		arrays = append(arrays, make([]uint64, p.Arr.Len))
	}
	out, err := it.call(f, scalars, arrays)
	if err != nil {
		return nil, err
	}
	// Copy back what a `mut` parameter may have changed.
	pi, ai := 0, 0
	for i, sp := range f.Sig.Params {
		if !sp.Array {
			pi += m.Limbs(sp.Type)
			continue
		}
		if sp.Mut {
			fromLimbs(arrays[ai], f.Params[pi].Arr.Per, m.W, args[i].Elems)
		}
		pi++
		ai++
	}
	results = make([]sem.Value, len(f.Sig.Results))
	k, h := 0, 0
	for i, r := range f.Sig.Results {
		if r.Array {
			p := hidden[h].Arr
			elems := make([]uint64, r.Len)
			fromLimbs(arrays[ai+h], p.Per, m.W, elems)
			results[i] = sem.Value{Elems: elems, IsArray: true}
			h++
			continue
		}
		n := m.Limbs(r.Type)
		if k+n > len(out) {
			return nil, fmt.Errorf("BUG: %s returned %d values", export, len(out))
		}
		results[i] = sem.Value{Word: joinLimbs(out[k:k+n], m.W)}
		k += n
	}
	return results, nil
}

func countArrayResults(f *Function) int {
	n := 0
	for _, r := range f.Sig.Results {
		if r.Array {
			n++
		}
	}
	return n
}

// bindArgs converts sem.Values to the function's parameter values and
// array storage (split into limbs when the module is legalized).
func bindArgs(m *Module, f *Function, args []sem.Value) ([]uint64, [][]uint64, error) {
	if len(args) != len(f.Sig.Params) {
		return nil, nil, fmt.Errorf("%s takes %d arguments, got %d", f.Name, len(f.Sig.Params), len(args))
	}
	var scalars []uint64
	var arrays [][]uint64
	pi := 0
	for i, sp := range f.Sig.Params {
		a := args[i]
		if !sp.Array {
			if a.IsArray {
				return nil, nil, fmt.Errorf("argument %s: want a %s, got an array", sp.Name, sp.Type)
			}
			if a.Word&^sp.Type.Mask() != 0 {
				return nil, nil, fmt.Errorf("argument %s: %#x does not fit %s", sp.Name, a.Word, sp.Type)
			}
			n := m.Limbs(sp.Type)
			limbs := make([]uint64, n)
			if n == 1 {
				limbs[0] = a.Word
			} else {
				splitLimbs(a.Word, m.W, limbs)
			}
			scalars = append(scalars, limbs...)
			pi += n
			continue
		}
		if !sp.Slice && len(a.Elems) != sp.Len {
			return nil, nil, fmt.Errorf("argument %s: want %d elements, got %d", sp.Name, sp.Len, len(a.Elems))
		}
		for _, e := range a.Elems {
			if e&^sp.Type.Mask() != 0 {
				return nil, nil, fmt.Errorf("argument %s: element %#x does not fit %s", sp.Name, e, sp.Type)
			}
		}
		if pi >= len(f.Params) || f.Params[pi].Arr == nil {
			return nil, nil, fmt.Errorf("BUG: parameters of %s do not match its signature", f.Name)
		}
		arrays = append(arrays, toLimbs(a.Elems, f.Params[pi].Arr.Per, m.W))
		pi++
	}
	return scalars, arrays, nil
}

// toLimbs copies elems, splitting each into per limbs of width w.
func toLimbs(elems []uint64, per, w int) []uint64 {
	if per <= 1 {
		return append([]uint64{}, elems...)
	}
	out := make([]uint64, len(elems)*per)
	for i, e := range elems {
		splitLimbs(e, w, out[i*per:i*per+per])
	}
	return out
}

// fromLimbs writes limbs back into elems (the inverse of toLimbs).
func fromLimbs(limbs []uint64, per, w int, elems []uint64) {
	if per <= 1 {
		copy(elems, limbs)
		return
	}
	for i := range elems {
		elems[i] = joinLimbs(limbs[i*per:i*per+per], w)
	}
}

// maxLimbs is the most limbs of local arrays the interpreter holds for one
// call (its own and those of the deepest chain of calls below it), 8 bytes
// each: 2^28, 2 GiB; at W=8 one [256][65536]u64 array is 2^27 limbs.
const maxLimbs = 1 << 28

// localLimbs is the limbs of f's local arrays plus the most of any callee.
func localLimbs(f *Function, memo map[*Function]int64) int64 {
	if n, ok := memo[f]; ok {
		return n
	}
	memo[f] = 0 // no recursion: the verifier forbids it
	var own, below int64
	for _, a := range f.Locals {
		own += int64(a.Len)
	}
	walkInstrs(f.Body, func(in *Instr) {
		if in.Op == OpCall && in.Callee != nil {
			below = max(below, localLimbs(in.Callee, memo))
		}
	})
	memo[f] = own + below
	return own + below
}
