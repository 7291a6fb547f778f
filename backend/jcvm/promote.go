package jcvm

import (
	"fmt"
	"sort"

	"github.com/lowent/lowentc/ir"
)

// Promotion of a parameter array to locals across a loop. A Keccak
// permutation run in place on its state parameter reads and writes the
// 25 lanes at constant indexes in each of its 24 rounds; kept in the
// parameter, every access is an array access (at W=32 a u32 limb is two
// shorts: two saload and the shifts that join them), where the same
// rounds on a local copy keep the lanes in locals (sroa). promoteParams
// gives such a loop the copy itself: the elements it touches are loaded
// before the loop, carried through it as loop-carried values and stored
// after it. That is the same program as long as nothing else in the loop
// can see the parameter's memory, so a loop qualifies only when
//
//   - it reads or writes one parameter array of a fixed size, only by load
//     and store at constant indexes (always in bounds, so they may move
//     before the loop), directly in its body (not inside an if or an inner
//     loop, where a store would need the value merged);
//   - the other arrays it touches are local arrays and constant tables
//     (another parameter may be the same memory: language.md, exported
//     functions);
//   - it makes no call and has no run-time check: a check failing halfway
//     would otherwise leave the parameter without the rounds done so far.
//
// Only the default layout promotes: the calibration's layouts stay as the
// notebook's variants were measured.

// promoteParams promotes the qualifying loops of every function of mod.
func promoteParams(mod *ir.Module) error {
	for _, f := range mod.Funcs {
		params := map[*ir.Array]bool{}
		for _, p := range f.Params {
			if p.Arr != nil {
				params[p.Arr] = true
			}
		}
		if len(params) == 0 {
			continue
		}
		pr := &paramPromoter{mod: mod, f: f, params: params}
		pr.block(f.Body)
	}
	if err := mod.Verify(); err != nil {
		return fmt.Errorf("BUG: jcvm: promoting parameter arrays: %v", err)
	}
	return nil
}

type paramPromoter struct {
	mod    *ir.Module
	f      *ir.Function
	params map[*ir.Array]bool
}

func (pr *paramPromoter) block(b *ir.Block) {
	var out []*ir.Instr
	for _, in := range b.Instrs {
		if in.Op == ir.OpFor {
			if a := pr.promotable(in); a != nil {
				pre, post := pr.promote(in, a)
				out = append(out, pre...)
				out = append(out, in)
				out = append(out, post...)
				continue
			}
		}
		for _, blk := range in.Blocks {
			pr.block(blk)
		}
		out = append(out, in)
	}
	b.Instrs = out
}

// promotable returns the parameter array loop in may work on in locals,
// or nil.
func (pr *paramPromoter) promotable(loop *ir.Instr) *ir.Array {
	body := loop.Blocks[0]
	var p *ir.Array
	ok := true
	ir.WalkInstrs(body, func(in *ir.Instr) {
		switch in.Op {
		case ir.OpCall, ir.OpCheck:
			ok = false
		}
		if len(in.Arrs) > 0 {
			ok = false
		}
		if in.Arr == nil || !pr.params[in.Arr] {
			return
		}
		if in.Arr.IsSlice() {
			// A slice's constant index may be in bounds only where the
			// loop runs (its trips bound by the length): never read it
			// before.
			ok = false
		}
		if p != nil && in.Arr != p {
			ok = false // two parameters: they may share memory
		}
		p = in.Arr
	})
	if !ok || p == nil {
		return nil
	}
	// Every access of p: a load or store at a constant index, at the top
	// level of the body.
	top := 0
	for _, in := range body.Instrs {
		if in.Arr != p {
			continue
		}
		if in.Op != ir.OpLoad && in.Op != ir.OpStore || pr.index(in) < 0 {
			return nil
		}
		top++
	}
	all := 0
	ir.WalkInstrs(body, func(in *ir.Instr) {
		if in.Arr == p {
			all++
		}
	})
	if all != top {
		return nil
	}
	return p
}

// index is the constant element index of a load or store, or -1.
func (pr *paramPromoter) index(in *ir.Instr) int {
	n := pr.mod.Limbs(ir.IndexType)
	if len(in.Args) < n {
		return -1
	}
	var x uint64
	for i, v := range in.Args[:n] {
		c, ok := ir.ConstOf(v)
		if !ok {
			return -1
		}
		x |= c << (uint(i) * uint(pr.mod.W))
	}
	if in.Arr.Len >= 0 && x >= uint64(in.Arr.Len) {
		return -1
	}
	return int(x)
}

// promote rewrites loop to carry the elements of a it accesses, and
// returns the loads to put before it and the stores to put after it.
func (pr *paramPromoter) promote(loop *ir.Instr, a *ir.Array) (pre, post []*ir.Instr) {
	body := loop.Blocks[0]
	var idxTypes []ir.Type
	seen := map[int]bool{}
	stored := map[int]bool{}
	var cells []int
	for _, in := range body.Instrs {
		if in.Arr != a {
			continue
		}
		k := pr.index(in)
		if in.Op == ir.OpStore {
			stored[k] = true
		}
		if idxTypes == nil {
			for _, v := range in.Args[:pr.mod.Limbs(ir.IndexType)] {
				idxTypes = append(idxTypes, v.Type)
			}
		}
		if !seen[k] {
			seen[k] = true
			cells = append(cells, k)
		}
	}
	sort.Ints(cells)
	constIdx := func(b *ir.Builder, k int) []*ir.Value {
		var idx []*ir.Value
		for i, t := range idxTypes {
			idx = append(idx, b.Const(t, uint64(k)>>(uint(i)*uint(pr.mod.W))))
		}
		return idx
	}
	before := ir.NewBuilder(pr.f).At(&ir.Block{})
	before.Pos = loop.Pos
	cur := map[int]*ir.Value{}
	for _, k := range cells {
		v := before.Load(a, constIdx(before, k)...)
		loop.Args = append(loop.Args, v)
		prm := pr.f.NewValue(a.Elem)
		body.Params = append(body.Params, prm)
		cur[k] = prm
	}
	pre = before.Blk.Instrs
	// The body: a load is the element's current value, a store changes it.
	sub := map[*ir.Value]*ir.Value{}
	var kept []*ir.Instr
	for _, in := range body.Instrs {
		if in.Arr == a {
			k := pr.index(in)
			if in.Op == ir.OpLoad {
				sub[in.Results[0]] = cur[k]
			} else {
				cur[k] = resolve(sub, in.Args[len(in.Args)-1])
			}
			continue
		}
		kept = append(kept, in)
	}
	body.Instrs = kept
	ir.WalkInstrs(body, func(in *ir.Instr) {
		for i, v := range in.Args {
			in.Args[i] = resolve(sub, v)
		}
	})
	y := body.Term()
	after := ir.NewBuilder(pr.f).At(&ir.Block{})
	after.Pos = loop.Pos
	for _, k := range cells {
		y.Args = append(y.Args, cur[k])
		r := pr.f.NewValue(a.Elem)
		r.Def = loop
		loop.Results = append(loop.Results, r)
		if stored[k] {
			after.Store(a, r, constIdx(after, k)...)
		}
	}
	return pre, after.Blk.Instrs
}

// resolve follows the substitutions of promote.
func resolve(sub map[*ir.Value]*ir.Value, v *ir.Value) *ir.Value {
	for {
		w, ok := sub[v]
		if !ok {
			return v
		}
		v = w
	}
}
