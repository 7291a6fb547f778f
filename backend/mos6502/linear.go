package mos6502

import "github.com/lowent/lowentc/ir"

// linRoot is a byte computed as the XOR of table lookups on single input
// bytes (and plain input bytes): a GF(2)-linear function of its inputs.
type linRoot struct {
	terms []linTerm
}

// linTerm is one input byte and the table (or -1: the identity) it goes through.
type linTerm struct {
	in    *ir.Value
	table int
}

// linearPlan is the result of the linear-map analysis of one function.
type linearPlan struct {
	roots  map[*ir.Instr]*linRoot
	skips  map[*ir.Instr]bool
	groups map[*ir.Instr]*rotGroup // word rotates (rotate.go), by their leader
	addrs  map[*ir.Instr]addrBase  // accesses addressed as base + constant (addr.go)
}

// addr returns the base of in's address when it is planned as one.
func (p *linearPlan) addr(in *ir.Instr) (addrBase, bool) {
	if p == nil {
		return addrBase{}, false
	}
	ab, ok := p.addrs[in]
	return ab, ok
}

func (p *linearPlan) root(in *ir.Instr) *linRoot {
	if p == nil {
		return nil
	}
	return p.roots[in]
}

func (p *linearPlan) skip(in *ir.Instr) bool { return p != nil && p.skips[in] }

// group returns the word rotate whose code goes at in, or nil.
func (p *linearPlan) group(in *ir.Instr) *rotGroup {
	if p == nil {
		return nil
	}
	return p.groups[in]
}

// reads returns the values in's code reads, or nil when the plan does not
// change in's code.
func (p *linearPlan) reads(in *ir.Instr) ([]*ir.Value, bool) {
	if p.skip(in) {
		return nil, true
	}
	if r := p.root(in); r != nil {
		vs := make([]*ir.Value, len(r.terms))
		for i, t := range r.terms {
			vs[i] = t.in
		}
		return vs, true
	}
	if grp := p.group(in); grp != nil {
		return grp.reads(), true
	}
	if ab, ok := p.addr(in); ok {
		return ab.reads(in), true
	}
	return nil, false
}

// linearRoot emits a root: the first term into A, the others XORed in.
func (g *fgen) linearRoot(in *ir.Instr, r *linRoot) {
	first := true
	for _, t := range r.terms {
		op := "eor"
		if first {
			op = "lda"
		}
		if t.table < 0 {
			g.a.op("%s %s", op, g.opnd(t.in))
		} else {
			g.a.op("ldx %s", g.opnd(t.in))
			g.a.op("%s %s,x", op, g.g.tableLabel(t.table))
		}
		first = false
	}
	if first {
		g.a.op("lda #$00")
	}
	g.clobberA()
	g.setA(in.Results[0])
}
