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
