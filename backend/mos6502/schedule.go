package mos6502

import "github.com/lowent/lowentc/ir"

// Scheduling. Legalization emits a word operation as its limbs one after
// the other (all four bytes of a^b, then all four of the AND, ...), so
// every byte goes through its slot: `sta` then `lda` again. schedule
// moves each cheap, pure instruction whose uses are all later in the same
// block to just before the first of them, operands first, so that a byte computed
// for one consumer flows to it in A (block's forwarding) and its slot
// disappears. Only instructions that leave the carry alone move (XOR,
// AND, OR, NOT, copies, table lookups), so a carry chain that kept its
// carry in the flag still does with such work between its steps.

// sinkable reports whether in may move down to its first user. A table
// lookup moves only to its one user (it reads several bytes, whose slots
// would be held longer); a plain XOR, AND, OR or copy read by several
// instructions moves to the first of them, which then finds it in A (a
// XOR feeding an add: `lda / eor / sta` then `adc` with no `lda`).
func (g *fgen) sinkable(in *ir.Instr) bool {
	if g.lin.skip(in) || len(in.Results) != 1 || g.lv.uses[in.Results[0]] < 1 {
		return false
	}
	if g.lin.root(in) != nil {
		return g.lv.uses[in.Results[0]] == 1
	}
	switch in.Op {
	case ir.OpXor, ir.OpAnd, ir.OpOr, ir.OpNot, ir.OpCopy, ir.OpZext, ir.OpTrunc:
		return true
	}
	return false
}

// reads returns the values in's code reads (a linear root reads its
// leaves, a word rotate's first funnel shift all the rotated bytes).
func (g *fgen) reads(in *ir.Instr) []*ir.Value {
	if vs, ok := g.lin.reads(in); ok {
		return vs
	}
	return in.Args
}

// schedule reorders b and the blocks nested in it.
func (g *fgen) schedule(b *ir.Block) {
	for _, in := range b.Instrs {
		for _, blk := range in.Blocks {
			g.schedule(blk)
		}
	}
	// Single uses read directly by an instruction of b (not from a nested
	// block, which the use count would also include).
	direct := map[*ir.Value]int{}
	for _, in := range b.Instrs {
		for _, v := range g.reads(in) {
			direct[v]++
		}
	}
	sink := map[*ir.Instr]bool{}
	for _, in := range b.Instrs {
		if in.Op != ir.OpYield && in.Op != ir.OpReturn && g.sinkable(in) && direct[in.Results[0]] == g.lv.uses[in.Results[0]] {
			sink[in] = true
		}
	}
	if len(sink) == 0 {
		return
	}
	out := make([]*ir.Instr, 0, len(b.Instrs))
	done := map[*ir.Instr]bool{}
	var emit func(in *ir.Instr)
	emit = func(in *ir.Instr) {
		for _, v := range g.reads(in) {
			if d := v.Def; d != nil && sink[d] && !done[d] {
				emit(d)
			}
		}
		done[in] = true
		out = append(out, in)
	}
	for _, in := range b.Instrs {
		if !sink[in] {
			emit(in)
		}
	}
	if len(out) != len(b.Instrs) {
		g.bug("scheduling lost instructions (%d of %d)", len(out), len(b.Instrs))
	}
	b.Instrs = out
}

// hoistStores moves each store of a byte read by nothing else up to just
// after the instruction that computes it, with the pure instructions that
// compute its address and lie between, when nothing between reads or
// writes a byte of its array that may be the same one (the bytes b|k of
// one element are different bytes for different k; any array parameter
// may be the same memory as another, mayShare) and no call or nested
// construct lies between. The byte then goes from A to memory (`adc /
// sta w+k,x`) instead of through a slot: the message schedule's new word.
func (g *fgen) hoistStores(b *ir.Block) {
	for _, in := range b.Instrs {
		for _, blk := range in.Blocks {
			g.hoistStores(blk)
		}
	}
	for i := 0; i < len(b.Instrs); i++ {
		if j, moved := g.hoistStore(b.Instrs, i); moved != nil {
			rest := make([]*ir.Instr, 0, len(b.Instrs))
			rest = append(rest, b.Instrs[:j+1]...)
			rest = append(rest, moved...)
			inMoved := map[*ir.Instr]bool{}
			for _, m := range moved {
				inMoved[m] = true
			}
			for _, in := range b.Instrs[j+1:] {
				if !inMoved[in] {
					rest = append(rest, in)
				}
			}
			if len(rest) != len(b.Instrs) {
				g.bug("hoisting lost instructions (%d of %d)", len(rest), len(b.Instrs))
			}
			b.Instrs = rest
		}
	}
}

// hoistStore returns, for the store instrs[i], the position j of the
// instruction computing its byte and the instructions to move after it
// (the store last), or nil when it stays.
func (g *fgen) hoistStore(instrs []*ir.Instr, i int) (int, []*ir.Instr) {
	st := instrs[i]
	if st.Op != ir.OpStore || g.lin.skip(st) {
		return 0, nil
	}
	n := len(st.Args) - 1
	v := st.Args[n]
	if v.Def == nil || g.lv.uses[v] != 1 || v.Def.Results[0] != v || !producesInA(v.Def) ||
		g.lin.skip(v.Def) || g.lin.group(v.Def) != nil {
		return 0, nil
	}
	if _, ok := g.lin.addr(st); ok || !g.simpleShape(st.Arr, st.Args[:n]) {
		return 0, nil
	}
	j := i - 1
	for j >= 0 && instrs[j] != v.Def {
		j--
	}
	if j < 0 || j == i-1 {
		return 0, nil
	}
	// The pure instructions between that compute the address.
	need := map[*ir.Value]bool{}
	for _, a := range st.Args[:n] {
		need[a] = true
	}
	var moved []*ir.Instr
	for k := i - 1; k > j; k-- {
		in := instrs[k]
		if len(in.Results) == 1 && need[in.Results[0]] {
			switch in.Op {
			case ir.OpOr, ir.OpShl, ir.OpAnd, ir.OpAdd, ir.OpCopy, ir.OpZext, ir.OpTrunc:
			default:
				return 0, nil
			}
			if g.lin.root(in) != nil || g.lin.skip(in) || g.lin.group(in) != nil {
				return 0, nil
			}
			for _, a := range in.Args {
				need[a] = true
			}
			moved = append([]*ir.Instr{in}, moved...)
			continue
		}
		if len(in.Blocks) > 0 || in.Op == ir.OpCall || in.Op == ir.OpYield || in.Op == ir.OpReturn || in.Op == ir.OpCheck {
			return 0, nil // a trap must not see the store made early
		}
		if in.Arr != nil && mayShare(in.Arr, st.Arr) {
			switch in.Op {
			case ir.OpLoad, ir.OpStore:
				if !g.distinctAddr(in, st) {
					return 0, nil
				}
			default:
				return 0, nil
			}
		}
	}
	// What the moved instructions read is computed before j.
	for k := j + 1; k < i; k++ {
		in := instrs[k]
		for _, r := range in.Results {
			if need[r] && !contains(moved, in) {
				return 0, nil
			}
		}
	}
	return j, append(moved, st)
}

// mayShare reports whether arrays a and b may be the same memory: one
// array, or two array parameters, which an export's caller may pass as
// the very same buffer (docs/language.md, "Exported functions"; the
// in-place calls of TestInPlaceLoops6502). Their accesses then address a
// byte by its offset from the one start, so distinctAddr holds for them
// as for one array.
func mayShare(a, b *ir.Array) bool {
	return a == b || a.Kind == ir.ArrParam && b.Kind == ir.ArrParam
}

func contains(ins []*ir.Instr, in *ir.Instr) bool {
	for _, x := range ins {
		if x == in {
			return true
		}
	}
	return false
}

// distinctAddr reports whether the loads or stores a and b of one array
// address different bytes: constant indices that differ, or b|k1 and b|k2
// (splitLow) of the same b with k1 != k2; the other index limbs equal
// constants.
func (g *fgen) distinctAddr(a, b *ir.Instr) bool {
	ia, ib := memIndex(a), memIndex(b)
	if len(ia) != len(ib) || len(ia) == 0 {
		return false
	}
	for k := 1; k < len(ia); k++ {
		ca, oka := g.constOf(ia[k])
		cb, okb := g.constOf(ib[k])
		if !oka || !okb || ca != cb {
			return false
		}
	}
	ca, oka := g.constOf(ia[0])
	cb, okb := g.constOf(ib[0])
	if oka && okb {
		return ca != cb
	}
	// b itself is b|0.
	ba, ka := splitLow(g, ia[0])
	bb, kb := splitLow(g, ib[0])
	return ba == bb && ka != kb
}
