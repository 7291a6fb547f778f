package mos6502

import (
	"github.com/lowent/lowentc/ir"
)

// The linear-map pass. A byte computed from other bytes by XORs, shifts,
// rotates and funnel shifts by constants is a GF(2)-linear function of its
// leaf inputs: out = XOR over leaves l of M_l·l, with M_l an 8×8 bit matrix.
// Each M_l·l is one lookup in a 256-byte table indexed by l, so the byte
// costs one `ldx l / eor table,x` per leaf whatever the rotation amounts
// were. SHA-256's Σ and σ functions become four lookups per output byte;
// the pass knows nothing about SHA-256: it sees only the legalized IR.

// maxLeaves bounds a linear expression: one multi-byte input group.
const maxLeaves = 8

// maxTables bounds the table memory (256 bytes each).
const maxTables = 48

// matrix is an 8×8 bit matrix over GF(2): column j is the image of bit j.
type matrix [8]byte

var identity = matrix{1, 2, 4, 8, 16, 32, 64, 128}

func (m matrix) apply(x byte) byte {
	var y byte
	for j := 0; j < 8; j++ {
		if x>>j&1 != 0 {
			y ^= m[j]
		}
	}
	return y
}

// then composes m with a byte map f (a shift): the columns pass through f.
func (m matrix) then(f func(byte) byte) matrix {
	var r matrix
	for j := range m {
		r[j] = f(m[j])
	}
	return r
}

type linExpr struct {
	leaves []*ir.Value
	mats   []matrix
	shifts int // shift-type ops in the expression tree (its direct cost)
	xors   int
}

func (e *linExpr) add(l *ir.Value, m matrix) {
	for i, x := range e.leaves {
		if x == l {
			for j := range m {
				e.mats[i][j] ^= m[j]
			}
			return
		}
	}
	e.leaves = append(e.leaves, l)
	e.mats = append(e.mats, m)
}

// planLinear finds, block by block, the bytes worth computing by table
// lookups, and the linear intermediate values that then need no code.
func planLinear(g *fgen) *linearPlan {
	p := &linearPlan{roots: map[*ir.Instr]*linRoot{}, skips: map[*ir.Instr]bool{}, groups: map[*ir.Instr]*rotGroup{}}
	ir.Walk(g.f.Body, func(b *ir.Block) { planBlock(g, p, b) }, nil)
	if !g.g.lay.size {
		planAddrs(g, p)
	}
	return p
}

// linearOp reports whether in is a candidate for the pass: a byte XOR,
// funnel shift, shift or rotate of non-constant bytes (by a constant).
func linearOp(g *fgen, in *ir.Instr) bool {
	if len(in.Results) != 1 || in.Results[0].Type != ir.U8 {
		return false
	}
	a := in.Args
	switch in.Op {
	case ir.OpXor, ir.OpFshl, ir.OpFshr:
		for _, x := range a {
			if _, ok := g.constOf(x); ok {
				return false
			}
		}
		return true
	case ir.OpShl, ir.OpShr, ir.OpRotl, ir.OpRotr:
		_, ok := g.constOf(a[1])
		_, c0 := g.constOf(a[0])
		return ok && !c0
	}
	return false
}

func planBlock(g *fgen, p *linearPlan, b *ir.Block) {
	cand := map[*ir.Instr]bool{}
	for _, in := range b.Instrs {
		if linearOp(g, in) {
			cand[in] = true
		}
	}
	// materialized reports whether v is read by something other than a
	// candidate of b: it is then computed and stored whatever the plan,
	// and a linear expression reads it as a leaf rather than recomputing
	// it from its own leaves.
	var linUses map[*ir.Value]int
	countUses := func() {
		linUses = map[*ir.Value]int{}
		for _, in := range b.Instrs {
			if cand[in] {
				for _, x := range in.Args {
					linUses[x]++
				}
			}
		}
	}
	countUses()
	materialized := func(v *ir.Value) bool { return g.lv.uses[v] > linUses[v] }
	exprs := map[*ir.Value]*linExpr{}
	// leafOf returns v's expression: its own if linear, else v as a leaf.
	leafOf := func(v *ir.Value) *linExpr {
		if e, ok := exprs[v]; ok && !materialized(v) {
			return e
		}
		return &linExpr{leaves: []*ir.Value{v}, mats: []matrix{identity}}
	}
	combine := func(parts []*linExpr, fs []func(byte) byte) *linExpr {
		e := &linExpr{}
		for i, part := range parts {
			for k, l := range part.leaves {
				e.add(l, part.mats[k].then(fs[i]))
			}
			e.shifts += part.shifts
			e.xors += part.xors
		}
		return e
	}
	id := func(x byte) byte { return x }
	funnel := func(in *ir.Instr) *linExpr {
		n := uint(fshLeft(in))
		hi := func(x byte) byte { return x << n }
		lo := func(x byte) byte { return x >> (8 - n) }
		e := combine([]*linExpr{leafOf(in.Args[0]), leafOf(in.Args[1])}, []func(byte) byte{hi, lo})
		e.shifts++
		return e
	}
	lookupCost := func(e *linExpr) int {
		cost := 3
		for i := range e.leaves {
			if e.mats[i] == identity {
				cost += 3
			} else if e.mats[i] != (matrix{}) {
				cost += 7
			}
		}
		return cost
	}
	// Word rotates whose bytes are stored anyway go as carry chains or
	// nibble lookups (rotate.go) when that is cheaper than the lookups of
	// their bytes: they leave the pass, and their operands are then
	// read by a non-candidate.
	groups := findRotGroups(g, b, cand)
	if len(groups) > 0 {
		inBlock := map[*ir.Instr]bool{}
		for _, in := range b.Instrs {
			inBlock[in] = true
		}
		// The operands' expressions, for the lookup cost of each byte.
		for _, in := range b.Instrs {
			if cand[in] && in.Op == ir.OpXor {
				e := combine([]*linExpr{leafOf(in.Args[0]), leafOf(in.Args[1])}, []func(byte) byte{id, id})
				e.xors++
				if len(e.leaves) <= maxLeaves {
					exprs[in.Results[0]] = e
				}
			}
		}
		chosen := false
		for _, grp := range groups {
			stored := true
			table, chain := 0, grp.chainCost()
			for _, m := range grp.members {
				if !materialized(m.Results[0]) {
					stored = false
				}
				table += lookupCost(funnel(m))
			}
			fuse := make([]bool, len(grp.in))
			for k, v := range grp.in {
				if grp.fusible(g, k, inBlock) {
					fuse[k] = true
					chain += 3
				} else if e, ok := exprs[v]; ok && !materialized(v) {
					chain += lookupCost(e)
				}
			}
			if !stored || chain >= table {
				continue
			}
			for _, m := range grp.members {
				delete(cand, m)
				if m != grp.leader {
					p.skips[m] = true
				}
			}
			for k, v := range grp.in {
				if fuse[k] {
					grp.fused[k] = v.Def
					delete(cand, v.Def)
					p.skips[v.Def] = true
				}
			}
			p.groups[grp.leader] = grp
			chosen = true
		}
		if chosen {
			countUses()
		}
		exprs = map[*ir.Value]*linExpr{}
	}
	for _, in := range b.Instrs {
		if !cand[in] {
			continue
		}
		var e *linExpr
		a := in.Args
		switch in.Op {
		case ir.OpXor:
			e = combine([]*linExpr{leafOf(a[0]), leafOf(a[1])}, []func(byte) byte{id, id})
			e.xors++
		case ir.OpFshl, ir.OpFshr:
			e = funnel(in)
		case ir.OpShl, ir.OpShr, ir.OpRotl, ir.OpRotr:
			k, _ := g.constOf(a[1])
			n := uint(k)
			var f func(byte) byte
			switch in.Op {
			case ir.OpShl:
				f = func(x byte) byte { return byte(uint(x) << n) }
			case ir.OpShr:
				f = func(x byte) byte { return byte(uint(x) >> n) }
			case ir.OpRotl:
				f = func(x byte) byte { return x<<(n&7) | x>>((8-n)&7) }
			default:
				f = func(x byte) byte { return x>>(n&7) | x<<((8-n)&7) }
			}
			e = combine([]*linExpr{leafOf(a[0])}, []func(byte) byte{f})
			e.shifts++
		}
		if e != nil && len(e.leaves) <= maxLeaves {
			exprs[in.Results[0]] = e
		}
	}
	if len(exprs) == 0 {
		return
	}
	// Roots: linear values some non-linear instruction (or another block) reads.
	absorbed := map[*ir.Value]int{} // uses by linear instructions of this block
	for _, in := range b.Instrs {
		if len(in.Results) == 1 && exprs[in.Results[0]] != nil {
			for _, x := range in.Args {
				absorbed[x]++
			}
		}
	}
	needed := map[*ir.Value]bool{}
	var need func(v *ir.Value)
	need = func(v *ir.Value) {
		if exprs[v] == nil || needed[v] {
			return
		}
		needed[v] = true
		for _, x := range v.Def.Args {
			need(x)
		}
	}
	for _, in := range b.Instrs {
		if len(in.Results) != 1 || exprs[in.Results[0]] == nil {
			continue
		}
		v := in.Results[0]
		if g.lv.uses[v] == absorbed[v] {
			continue // only linear consumers: not a root
		}
		e := exprs[v]
		cost := lookupCost(e)
		direct := 20*e.shifts + 6*e.xors + 3
		if cost >= direct || len(g.g.tables) >= maxTables {
			need(v)
			continue
		}
		r := &linRoot{}
		for i, l := range e.leaves {
			m := e.mats[i]
			switch m {
			case matrix{}:
			case identity:
				r.terms = append(r.terms, linTerm{in: l, table: -1})
			default:
				t := make([]byte, 256)
				for x := range t {
					t[x] = m.apply(byte(x))
				}
				r.terms = append(r.terms, linTerm{in: l, table: g.g.addTable(t)})
			}
		}
		// Identity terms first: `lda` of a plain byte, then lookups.
		for i := range r.terms {
			if r.terms[i].table < 0 {
				r.terms[0], r.terms[i] = r.terms[i], r.terms[0]
				break
			}
		}
		p.roots[in] = r
	}
	for _, in := range b.Instrs {
		if len(in.Results) == 1 && exprs[in.Results[0]] != nil && p.roots[in] == nil && !needed[in.Results[0]] {
			p.skips[in] = true
		}
	}
}
