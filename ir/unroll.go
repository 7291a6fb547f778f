// Pass unroll fully unrolls counted loops whose bounds are constants when
// the unrolled code stays within the budget (Options.Unroll instructions,
// or the function's Options.UnrollFunc entry:
// trips × body size). Inner loops are considered first, so a nest unrolls
// completely when it fits. Each copy of the body sees the index as a
// constant and the previous copy's yielded values as its loop-carried
// values; a loop with no trips becomes its initial values.
//
// Requires: nothing (fold first, so bounds are constants). Preserves: the
// meaning; later passes (sroa, fold) profit from the constant indexes.
package ir

func unroll(m *Module, o *Options) error {
	for _, f := range m.Funcs {
		u := &unroller{m: m, f: f, budget: o.unrollOf(f), sub: subst{}}
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
}

func (u *unroller) block(b *Block) {
	var out []*Instr
	for _, in := range b.Instrs {
		u.sub.apply(in)
		for _, blk := range in.Blocks {
			u.block(blk)
		}
		if in.Op == OpFor {
			if trips, lo, ok := u.trips(in); ok {
				out = u.expand(in, lo, trips, out)
				continue
			}
		}
		out = append(out, in)
	}
	b.Instrs = out
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
