package jcvm

import "sort"

// Passing values to a split method in memory: a piece of a long statement
// list may share more values with the code around it than a method's 255
// parameter cells hold. Then the values the piece reads least travel in the
// piece's spill array (<method>_spill, which spill extends later): the
// caller stores them there before the call and the piece reads and writes
// them there, as if it had spilled them itself.

// maxSplitParams is the most parameter cells a piece takes; the rest of
// the 255 cells are left for its own locals.
const maxSplitParams = cellBudget - 16

// viaMemory is how the shared values of one piece travel in memory.
type viaMemory struct {
	arr  *Arr
	slot map[*Var]int // by the variable of the split method
}

// passInMemory chooses which of a piece's shared values travel in memory,
// given the piece's statements (its own, without the rest of the chain),
// and allocates its spill array; nil when the parameters suffice.
func (s *splitter) passInMemory(child *Method, shared []*Var, piece []Stmt) *viaMemory {
	cells := 0
	for _, v := range shared {
		cells += v.Kind.Cells()
	}
	if cells <= maxSplitParams {
		return nil
	}
	// Array references, offsets and lengths stay parameters: the arrays
	// name them directly.
	fixed := map[*Var]bool{}
	for _, v := range shared {
		if v.Kind == KRef {
			fixed[v] = true
			if v.Arr.Off != nil {
				fixed[v.Arr.Off] = true
			}
			if v.Arr.LenV != nil {
				fixed[v.Arr.LenV] = true
			}
		}
	}
	refs := refCountsList(piece)
	var cands []*Var
	for _, v := range shared {
		if !fixed[v] {
			cands = append(cands, v)
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return refs[cands[i]] < refs[cands[j]] })
	vm := &viaMemory{
		arr:  &Arr{Name: child.Name + "_spill", Elem: EShort, Field: len(s.cls.Fields)},
		slot: map[*Var]int{},
	}
	for _, v := range cands {
		if cells <= maxSplitParams {
			break
		}
		vm.slot[v] = vm.arr.Len
		vm.arr.Len += v.Kind.Cells()
		cells -= v.Kind.Cells()
	}
	if len(vm.slot) == 0 {
		return nil // only array references: nothing can move
	}
	s.cls.Fields = append(s.cls.Fields, vm.arr)
	return vm
}

// callArgs returns the statements that store the values travelling in
// memory and the arguments of a call of piece next, whose shared values
// are args (variables of the split method, named in the caller by name).
func callArgs(vm *viaMemory, args []*Var, name func(*Var) *Var) ([]Stmt, []Expr) {
	var pre []Stmt
	var out []Expr
	for _, v := range args {
		x := &EVar{V: name(v)}
		slot, ok := 0, false
		if vm != nil {
			slot, ok = vm.slot[v]
		}
		switch {
		case !ok:
			out = append(out, x)
		case v.Kind == KInt:
			pre = append(pre,
				&SStore{A: vm.arr, I: sconst(int32(slot)), X: conv(bin(OUshr, KInt, x, iconst(16)), KShort)},
				&SStore{A: vm.arr, I: sconst(int32(slot + 1)), X: conv(x, KShort)})
		default:
			pre = append(pre, &SStore{A: vm.arr, I: sconst(int32(slot)), X: x})
		}
	}
	return pre, out
}

// readFromMemory rewrites a piece's body so that its values travelling in
// memory live there (r names them in the piece).
func readFromMemory(vm *viaMemory, shared []*Var, r *renamer, body []Stmt) []Stmt {
	if vm == nil {
		return body
	}
	for _, v := range shared {
		if slot, ok := vm.slot[v]; ok {
			body = spillVar(body, r.v(v), vm.arr, slot, nil)
		}
	}
	return body
}

func hasSlot(vm *viaMemory, v *Var) bool {
	_, ok := vm.slot[v]
	return ok
}
