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
// The table terms index through X or Y. A term whose byte a register
// still holds (from the root before) goes first and loads nothing; the
// terms whose bytes the next root in rest also reads go last, into the
// two registers, so that it finds them there: a run of roots over the
// same bytes (the four bytes of SHA-256's Σ1) loads about two index
// bytes a root instead of four.
func (g *fgen) linearRoot(in *ir.Instr, r *linRoot, rest []*ir.Instr) {
	next := g.nextRootReads(rest)
	held := func(v *ir.Value) byte {
		switch {
		case g.xv == v && g.a.xw == g.xs:
			return 'x'
		case g.yv == v && g.a.yw == g.ys:
			return 'y'
		}
		return 0
	}
	var first, plain, loads, late []linTerm
	for _, t := range r.terms {
		switch {
		case t.table < 0:
			plain = append(plain, t)
		case held(t.in) != 0:
			first = append(first, t)
		case next[t.in]:
			late = append(late, t)
		default:
			loads = append(loads, t)
		}
	}
	terms := append(append(append(first, plain...), loads...), late...)
	op := "lda"
	var lastLoad byte
	for i, t := range terms {
		if t.table < 0 {
			g.a.op("%s %s", op, g.opnd(t.in))
			op = "eor"
			continue
		}
		reg := held(t.in)
		if reg == 0 {
			reg = g.indexReg(t.in, terms[i+1:], next, lastLoad)
			lastLoad = reg
			g.a.op("ld%c %s", reg, g.opnd(t.in))
			if reg == 'x' {
				g.xv, g.xs = t.in, g.a.xw
			} else {
				g.yv, g.ys = t.in, g.a.yw
				g.y = -1
			}
		}
		g.a.op("%s %s,%c", op, g.g.tableLabel(t.table), reg)
		op = "eor"
	}
	if op == "lda" {
		g.a.op("lda #$00")
	}
	g.clobberA()
	g.setA(in.Results[0])
}

// indexReg picks the register to load v into for a table lookup: not
// one whose byte a later term of this root (after) still reads, rather
// one whose byte the next root does not read, else the one the previous
// load of this root did not take. X when nothing else decides.
func (g *fgen) indexReg(v *ir.Value, after []linTerm, next map[*ir.Value]bool, lastLoad byte) byte {
	busy := func(held *ir.Value, stamp, count int) int {
		if held == nil || stamp != count {
			return 0
		}
		for _, t := range after {
			if t.table >= 0 && t.in == held {
				return 2
			}
		}
		if next[held] {
			return 1
		}
		return 0
	}
	bx, by := busy(g.xv, g.xs, g.a.xw), busy(g.yv, g.ys, g.a.yw)
	switch {
	case bx < by:
		return 'x'
	case by < bx:
		return 'y'
	case lastLoad == 'x':
		return 'y'
	}
	return 'x'
}

// nextRootReads returns the bytes the first linear root in rest looks up
// in tables, when no call or control flow comes before it.
func (g *fgen) nextRootReads(rest []*ir.Instr) map[*ir.Value]bool {
	for _, in := range rest {
		if len(in.Blocks) > 0 || in.Op == ir.OpCall || in.Op == ir.OpReturn {
			return nil
		}
		if r := g.lin.root(in); r != nil {
			m := map[*ir.Value]bool{}
			for _, t := range r.terms {
				if t.table >= 0 {
					m[t.in] = true
				}
			}
			return m
		}
	}
	return nil
}
