// Pass unroll fully unrolls counted loops whose bounds are constants when
// the unrolled code stays within the budget (Options.Unroll instructions,
// or the function's Options.UnrollFunc entry:
// trips × body size). Inner loops are considered first, so a nest unrolls
// completely when it fits. Each copy of the body sees the index as a
// constant and the previous copy's yielded values as its loop-carried
// values; a loop with no trips becomes its initial values.
//
// With Options.UnrollFactor F, a loop left rolled that carries values and
// runs a multiple of F (more than F) trips becomes a loop of trips/F
// trips over F copies of the body, copy j seeing the index lo + F*u + j;
// before that, two loops in a row with the same body over consecutive
// ranges, the second starting from the first's results, are joined.
//
// With Options.LaneLoops (and KeepHave), a loop of eight trips from 0
// that carries no values and sits in the branch taken by `have ifma`
// stays rolled: it is a lane loop, which a backend whose variant has IFMA
// runs as one step on eight 64-bit lanes (backend/llvm/lanes52.go). Only
// a configuration with such a variant asks for it (amd64 under --hw auto
// or a list naming ifma); its other variants never emit that branch.
//
// Requires: nothing (fold first, so bounds are constants). Preserves: the
// meaning; later passes (sroa, fold) profit from the constant indexes.
package ir

import "github.com/lowent/lowentc/sem"

func unroll(m *Module, o *Options) error {
	for _, f := range m.Funcs {
		u := &unroller{m: m, f: f, budget: o.unrollOf(f), sub: subst{}, keepHave: o.KeepHave && o.LaneLoops}
		if o.UnrollFactor > 1 && o.UnrollFactor&(o.UnrollFactor-1) == 0 {
			u.factor = o.UnrollFactor
			u.uses = map[*Value]int{}
			walkInstrs(f.Body, func(in *Instr) {
				for _, a := range in.Args {
					u.uses[a]++
				}
			})
		}
		u.block(f.Body)
	}
	return nil
}

// unrollOf is f's unroll budget: Options.UnrollFunc's, else Unroll.
func (o *Options) unrollOf(f *Function) int {
	if b, ok := o.UnrollFunc[f.QualName]; ok {
		return b
	}
	return o.Unroll
}

type unroller struct {
	m      *Module
	f      *Function
	budget int
	sub    subst
	factor int            // Options.UnrollFactor when it applies, else 0
	uses   map[*Value]int // uses of each value (joining loops needs them)
	// keepHave is Options.KeepHave and LaneLoops; lanes is set inside
	// the branch a `have ifma` takes (lane loops stay rolled there).
	keepHave, lanes bool
}

func (u *unroller) block(b *Block) {
	var out []*Instr
	for _, in := range b.Instrs {
		u.sub.apply(in)
		for i, blk := range in.Blocks {
			if i == 0 && u.keepHave && !u.lanes && isHaveIFMA(in) {
				u.lanes = true
				u.block(blk)
				u.lanes = false
				continue
			}
			u.block(blk)
		}
		if in.Op == OpFor {
			if trips, lo, ok := u.trips(in); ok && !(u.lanes && trips == 8 && lo == 0 && len(in.Results) == 0) {
				out = u.expand(in, lo, trips, out)
				continue
			}
			// The loop before, past the constants of in's bounds.
			j := len(out) - 1
			for j >= 0 && out[j].Op == OpConst {
				j--
			}
			if u.factor > 0 && j >= 0 && u.join(out[j], in) {
				// The constants go before the joined loop, which uses
				// in's upper bound now.
				a := out[j]
				out = append(append(out[:j:j], out[j+1:]...), a)
				continue
			}
		}
		out = append(out, in)
	}
	if u.factor > 0 {
		// Once every loop that can be joined is.
		var res []*Instr
		for _, in := range out {
			if in.Op == OpFor {
				if p, bounds := u.partial(in); p != nil {
					res = append(res, bounds...)
					in = p
				}
			}
			res = append(res, in)
		}
		out = res
	}
	b.Instrs = out
}

// join makes a, a loop left rolled, also run b's trips when b (the next
// instruction) has the same body over the range right after a's, starts
// from a's results and is the only user of them; it reports whether it
// did (b is then dropped and a's results are b's, a's old ones unused).
// Loops that carry no values (SHA-256's two schedule loops of eight,
// which work on an array) join the same way.
func (u *unroller) join(a, b *Instr) bool {
	if a.Op != OpFor || a.Type != b.Type || len(a.Results) != len(b.Results) {
		return false
	}
	if len(a.Results) == 0 && (len(a.Blocks[0].Params) != 1 || len(b.Blocks[0].Params) != 1) {
		return false
	}
	if u.m.Limbs(a.Type) != 1 || u.m.Limbs(b.Type) != 1 {
		return false
	}
	hiA, ok1 := ConstOf(a.Args[1])
	loB, ok2 := ConstOf(b.Args[0])
	if !ok1 || !ok2 || hiA != loB {
		return false
	}
	for i, r := range a.Results {
		if b.Args[2+i] != r || u.uses[r] != 1 {
			return false
		}
	}
	if !sameBlock(a.Blocks[0], b.Blocks[0], map[*Value]*Value{}) {
		return false
	}
	a.Args[1] = b.Args[1]
	for i, r := range b.Results {
		r.Def = a
		a.Results[i] = r
	}
	return true
}

// sameBlock reports whether x and y compute the same thing: the same
// instructions in the same order, on the same outside values, with the
// values each defines in the same places (eq maps x's to y's). Positions
// are not compared; run-time checks (whose messages name a position) and
// calls make blocks differ.
func sameBlock(x, y *Block, eq map[*Value]*Value) bool {
	if len(x.Params) != len(y.Params) || len(x.Instrs) != len(y.Instrs) {
		return false
	}
	for i, p := range x.Params {
		if p.Type != y.Params[i].Type {
			return false
		}
		eq[p] = y.Params[i]
	}
	for i, a := range x.Instrs {
		b := y.Instrs[i]
		if a.Op != b.Op || a.Aux != b.Aux || a.Type != b.Type || a.Arr != b.Arr || a.Op == OpCheck || a.Op == OpCall ||
			len(a.Args) != len(b.Args) || len(a.Results) != len(b.Results) || len(a.Blocks) != len(b.Blocks) || len(a.Arrs) != 0 || len(b.Arrs) != 0 {
			return false
		}
		for j, v := range a.Args {
			w := b.Args[j]
			if m, ok := eq[v]; ok {
				if m != w {
					return false
				}
			} else if v != w {
				cv, ok1 := ConstOf(v)
				cw, ok2 := ConstOf(w)
				if !ok1 || !ok2 || cv != cw || v.Type != w.Type {
					return false
				}
			}
		}
		for j, r := range a.Results {
			if r.Type != b.Results[j].Type {
				return false
			}
			eq[r] = b.Results[j]
		}
		for j, blk := range a.Blocks {
			if !sameBlock(blk, b.Blocks[j], eq) {
				return false
			}
		}
	}
	return true
}

// partial returns in unrolled by u.factor (see the package comment) and
// the constants of its bounds, to place before it; nil when it does not
// apply.
func (u *unroller) partial(in *Instr) (*Instr, []*Instr) {
	f := uint64(u.factor)
	body := in.Blocks[0]
	k := len(in.Results)
	if k == 0 || u.m.Limbs(in.Type) != 1 || len(body.Params) != 1+k {
		return nil, nil
	}
	lo, ok1 := ConstOf(in.Args[0])
	hi, ok2 := ConstOf(in.Args[1])
	if !ok1 || !ok2 || hi <= lo || (hi-lo)%f != 0 || hi-lo <= f {
		return nil, nil
	}
	t := in.Type
	loop := &Instr{Op: OpFor, Type: t, Pos: in.Pos, Results: in.Results}
	nb := &Block{Params: []*Value{u.f.NewValue(t)}}
	cur := make([]*Value, k)
	for i, p := range body.Params[1:] {
		cur[i] = u.f.NewValue(p.Type)
		nb.Params = append(nb.Params, cur[i])
	}
	var out []*Instr
	konst := func(c uint64) *Value {
		ci := u.f.newInstr(OpConst, []Type{t})
		ci.Aux, ci.Pos = c&t.Mask(), in.Pos
		out = append(out, ci)
		return ci.Results[0]
	}
	shift := 0
	for 1<<shift < f {
		shift++
	}
	base := u.f.newInstr(OpShl, []Type{t})
	base.Args, base.Pos = []*Value{nb.Params[0], konst(uint64(shift))}, in.Pos
	out = append(out, base)
	for j := uint64(0); j < f; j++ {
		idx := u.f.newInstr(OpAdd, []Type{t})
		idx.Args, idx.Pos = []*Value{base.Results[0], konst(lo + j)}, in.Pos
		out = append(out, idx)
		c := newCloner(u.f)
		c.vals[body.Params[0]] = idx.Results[0]
		for i, p := range body.Params[1:] {
			c.vals[p] = cur[i]
		}
		out = c.instrs(body.Instrs[:len(body.Instrs)-1], out)
		next := make([]*Value, k)
		for i, y := range body.Term().Args {
			next[i] = c.val(y)
		}
		cur = next
	}
	y := u.f.newInstr(OpYield, nil)
	y.Args, y.Pos = cur, body.Term().Pos
	nb.Instrs = append(out, y)
	out = nil
	from, to := konst(0), konst((hi-lo)/f)
	loop.Args = append([]*Value{from, to}, in.Args[2:]...)
	loop.Blocks = []*Block{nb}
	for _, r := range loop.Results {
		r.Def = loop
	}
	return loop, out
}

// trips returns the trip count and first index of a loop that fits the budget.
func (u *unroller) trips(in *Instr) (trips, lo uint64, ok bool) {
	n := u.m.Limbs(in.Type)
	lo, ok1 := constGroup(in.Args[:n], u.m.W)
	hi, ok2 := constGroup(in.Args[n:2*n], u.m.W)
	if !ok1 || !ok2 {
		return 0, 0, false
	}
	if hi <= lo {
		return 0, lo, true
	}
	trips = hi - lo
	size := uint64(countInstrs(in.Blocks[0]))
	if trips > uint64(u.budget) || trips*size > uint64(u.budget) {
		return 0, 0, false
	}
	return trips, lo, true
}

// constGroup joins a limb group of constants.
func constGroup(vs []*Value, w int) (uint64, bool) {
	var x uint64
	for i, v := range vs {
		c, ok := ConstOf(v)
		if !ok {
			return 0, false
		}
		x |= c << uint(i*w)
	}
	return x, true
}

func (u *unroller) expand(in *Instr, lo, trips uint64, out []*Instr) []*Instr {
	body := in.Blocks[0]
	k := len(in.Results)
	n := len(body.Params) - k
	cur := append([]*Value(nil), in.Args[2*n:]...)
	for t := uint64(0); t < trips; t++ {
		c := newCloner(u.f)
		idx := make([]uint64, n)
		if n == 1 {
			idx[0] = lo + t
		} else {
			splitLimbs(lo+t, u.m.W, idx)
		}
		for i, p := range body.Params[:n] {
			ci := u.f.newInstr(OpConst, []Type{p.Type})
			ci.Aux, ci.Pos = idx[i], in.Pos
			out = append(out, ci)
			c.vals[p] = ci.Results[0]
		}
		for i, p := range body.Params[n:] {
			c.vals[p] = cur[i]
		}
		instrs := body.Instrs
		out = c.instrs(instrs[:len(instrs)-1], out)
		for i, y := range instrs[len(instrs)-1].Args {
			cur[i] = c.val(y)
		}
	}
	for i, r := range in.Results {
		u.sub[r] = cur[i]
	}
	return out
}

// isHaveIFMA reports whether in is `if have ifma`.
func isHaveIFMA(in *Instr) bool {
	if in.Op != OpIf {
		return false
	}
	d := in.Args[0].Def
	return d != nil && d.Op == OpHave && sem.Feature(d.Aux) == sem.FeatIFMA
}
