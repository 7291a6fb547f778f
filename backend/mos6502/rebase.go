package mos6502

import "github.com/lowent/lowentc/ir"

// Index bases shared by unrolled copies. The unrolled copies of a loop
// body index an array at (t0 + k) << s (w[t] of SHA-256's round k) or
// (g + (t0 + k)) << s (K[16g + t]), where copy 0 indexes it at t0 << s or
// (g + t0) << s. Both are addressed as arr + (k << s) indexed by copy 0's
// index (`lda K+4k+j,x`), and the adds and shifts that computed the
// copies' indices go when nothing else reads them. Sound because the
// indices are exact: each indexes an array at a label with the upper
// bytes of its u32 index zero, so t0 << s and (t0 + k) << s are below 256
// and k << s is their difference (k below 2^(8-s), as a byte).

// shlKey names x << s.
type shlKey struct {
	x *ir.Value
	s byte
}

type rebaseTo struct {
	base *ir.Value
	off  int
}

// planRebase fills g.rebase and g.dead (--opt balanced and size's byte
// generator: the layouts that address arr[b|k] as arr+k indexed by b).
func (g *fgen) planRebase(f *ir.Function) {
	g.rebase, g.dead, g.wrap = nil, nil, nil
	if !g.g.lay.reusePtrs() {
		return
	}
	block := map[*ir.Instr]*ir.Block{}
	exact := map[*ir.Value]bool{}
	var accesses []*ir.Instr
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		for _, in := range b.Instrs {
			block[in] = b
			for _, blk := range in.Blocks {
				walk(blk)
			}
			idx := memIndex(in)
			if len(idx) == 0 || g.arrs[in.Arr].label == "" || !g.simpleShape(in.Arr, idx) {
				continue
			}
			if _, ok := g.lin.addr(in); ok {
				continue
			}
			zero := true
			for _, v := range idx[1:] {
				if c, ok := g.constOf(v); !ok || c != 0 {
					zero = false
				}
			}
			if !zero {
				continue
			}
			b, _ := splitLow(g, idx[0])
			exact[b] = true
			accesses = append(accesses, in)
		}
	}
	walk(f.Body)
	// add returns x and y when v is x + y with no carry in and its carry
	// not read.
	add := func(v *ir.Value) (*ir.Value, *ir.Value, bool) {
		d := v.Def
		if d == nil || d.Results[0] != v {
			return nil, nil, false
		}
		switch d.Op {
		case ir.OpAdd:
			return d.Args[0], d.Args[1], true
		case ir.OpAddC:
			if c, ok := g.constOf(d.Args[2]); ok && c == 0 && g.lv.uses[d.Results[1]] == 0 {
				return d.Args[0], d.Args[1], true
			}
		}
		return nil, nil, false
	}
	// The shifts by s of each value, and the sums of each pair, by operands.
	shls := map[shlKey]*ir.Value{}
	anyShl := map[shlKey]*ir.Value{}
	sums := map[[2]*ir.Value]*ir.Value{}
	shlOf := func(v *ir.Value) (*ir.Value, byte, bool) {
		d := v.Def
		if d == nil || d.Op != ir.OpShl || len(d.Args) != 2 {
			return nil, 0, false
		}
		s, ok := g.constOf(d.Args[1])
		return d.Args[0], s, ok && s > 0 && s < 8
	}
	ir.WalkInstrs(f.Body, func(in *ir.Instr) {
		if len(in.Results) == 0 {
			return
		}
		v := in.Results[0]
		if x, s, ok := shlOf(v); ok {
			if _, dup := shls[shlKey{x, s}]; !dup && exact[v] {
				shls[shlKey{x, s}] = v
			}
			if _, dup := anyShl[shlKey{x, s}]; !dup {
				anyShl[shlKey{x, s}] = v
			}
		}
		if x, y, ok := add(v); ok {
			if _, dup := sums[[2]*ir.Value{x, y}]; !dup {
				sums[[2]*ir.Value{x, y}] = v
			}
		}
	})
	// splitConst returns x and c when v is x + c, c a constant.
	splitConst := func(v *ir.Value) (*ir.Value, int, bool) {
		x, y, ok := add(v)
		if !ok {
			return nil, 0, false
		}
		if c, k := g.constOf(y); k {
			return x, int(c), true
		}
		if c, k := g.constOf(x); k {
			return y, int(c), true
		}
		return nil, 0, false
	}
	g.rebase = map[*ir.Value]rebaseTo{}
	for b := range exact {
		a, s, ok := shlOf(b)
		if !ok {
			continue
		}
		try := func(p *ir.Value, c int) bool {
			base := shls[shlKey{p, s}]
			if p == nil || base == nil || base == b || c <= 0 || c >= 1<<(8-s) ||
				block[base.Def] != block[b.Def] || g.lv.pos[base.Def] >= g.lv.pos[b.Def] {
				return false
			}
			g.rebase[b] = rebaseTo{base, c << s}
			return true
		}
		// (t0 + k) << s from t0 << s.
		if p, c, ok := splitConst(a); ok && try(p, c) {
			continue
		}
		// (y + (x + k)) << s from (y + x) << s.
		if x1, x2, ok := add(a); ok {
			for _, pr := range [][2]*ir.Value{{x1, x2}, {x2, x1}} {
				y, q := pr[0], pr[1]
				x, c, ok := splitConst(q)
				if !ok {
					continue
				}
				if try(sums[[2]*ir.Value{y, x}], c) || try(sums[[2]*ir.Value{x, y}], c) {
					break
				}
			}
		}
	}
	g.planWrap(f, block, anyShl, shlOf, splitConst)
	if len(g.rebase) == 0 && len(g.wrap) == 0 {
		return
	}
	// A base rebased in turn: to its own base.
	for b, r := range g.rebase {
		for n := 0; n < 64; n++ {
			r2, ok := g.rebase[r.base]
			if !ok {
				break
			}
			r = rebaseTo{r2.base, r.off + r2.off}
		}
		g.rebase[b] = r
	}
	// The instructions nothing reads any more: the rebased accesses read
	// their base instead of their index.
	uses := map[*ir.Value]int{}
	for v, n := range g.lv.uses {
		uses[v] = n
	}
	for _, in := range accesses {
		idx := memIndex(in)
		if b, _ := splitLow(g, idx[0]); g.rebase[b].base != nil {
			uses[idx[0]]--
			uses[g.rebase[b].base]++
		}
	}
	for in, w := range g.wrap {
		for _, a := range g.reads(in) {
			uses[a]--
		}
		uses[w.t]++
	}
	g.dead = map[*ir.Instr]bool{}
	for changed := true; changed; {
		changed = false
		ir.WalkInstrs(f.Body, func(in *ir.Instr) {
			if g.dead[in] || len(in.Results) == 0 || len(in.Blocks) > 0 || g.lin.skip(in) || g.lin.group(in) != nil || g.wrap[in].t != nil {
				return
			}
			switch in.Op {
			case ir.OpOr, ir.OpShl, ir.OpAdd, ir.OpAddC, ir.OpAnd, ir.OpCopy, ir.OpZext, ir.OpTrunc:
			default:
				if g.lin.root(in) == nil {
					return
				}
			}
			for _, r := range in.Results {
				if uses[r] > 0 {
					return
				}
			}
			g.dead[in] = true
			changed = true
			for _, a := range g.reads(in) {
				uses[a]--
			}
		})
	}
}

// Indices that wrap. An index ((t + c) & m) << s, m + 1 a power of two
// with (m + 1) << s at most 256 (the window's slot of SHA-256's W[t+c]),
// is ((t << s) + (c << s)) & (m << s) modulo 256: from t << s, computed
// for another access, it is `clc / lda t<<s / adc #c<<s / and #m<<s`
// (9 cycles, instead of the add, the AND and the shift table's lookup),
// and the add and AND go when nothing else reads them.
type wrapIdx struct {
	t         *ir.Value // t << s
	add, mask byte
}

// planWrap fills g.wrap, moving each t << s it uses before the first
// index computed from it.
func (g *fgen) planWrap(f *ir.Function, block map[*ir.Instr]*ir.Block, anyShl map[shlKey]*ir.Value,
	shlOf func(*ir.Value) (*ir.Value, byte, bool), splitConst func(*ir.Value) (*ir.Value, int, bool)) {
	g.wrap = map[*ir.Instr]wrapIdx{}
	moves := map[*ir.Instr]*ir.Instr{} // t << s's instruction -> the first wrapped index before which it goes
	ir.WalkInstrs(f.Body, func(in *ir.Instr) {
		if len(in.Results) != 1 || g.lin.skip(in) || g.lin.group(in) != nil {
			return
		}
		b := in.Results[0]
		m1, s, ok := shlOf(b)
		if !ok || m1.Def == nil || m1.Def.Op != ir.OpAnd || g.lv.uses[m1] != 1 {
			return
		}
		a1, mv := m1.Def.Args[0], m1.Def.Args[1]
		m, ok := g.constOf(mv)
		if !ok {
			a1, mv = mv, a1
			if m, ok = g.constOf(mv); !ok {
				return
			}
		}
		if m == 0 || m&(m+1) != 0 || (int(m)+1)<<s > 256 {
			return
		}
		t, c, ok := splitConst(a1)
		if !ok {
			return
		}
		tv := anyShl[shlKey{t, s}]
		if tv == nil || tv == b || block[tv.Def] != block[in] || g.lin.skip(tv.Def) || g.lin.group(tv.Def) != nil {
			return
		}
		if g.lv.pos[tv.Def] > g.lv.pos[in] {
			// t << s goes before in: t must be there already.
			if t.Def != nil && block[t.Def] == block[in] && g.lv.pos[t.Def] > g.lv.pos[in] {
				return
			}
			if first := moves[tv.Def]; first == nil || g.lv.pos[in] < g.lv.pos[first] {
				moves[tv.Def] = in
			}
		}
		g.wrap[in] = wrapIdx{t: tv, add: byte(c << s), mask: m << s}
	})
	for tin, first := range moves {
		blk := block[tin]
		out := make([]*ir.Instr, 0, len(blk.Instrs))
		for _, in := range blk.Instrs {
			if in == tin {
				continue
			}
			if in == first {
				out = append(out, tin)
			}
			out = append(out, in)
		}
		blk.Instrs = out
	}
}

// wrapped emits the index in computes from t << s (planWrap).
func (g *fgen) wrapped(in *ir.Instr, w wrapIdx) {
	g.a.op("clc")
	g.loadA(w.t)
	g.a.op("adc #$%02x", w.add)
	g.a.op("and #$%02x", w.mask)
	g.cHolds = nil
	g.clobberA()
	g.setA(in.Results[0])
}

// planDeadStores adds to g.dead each store to a local array, at a
// constant index, that a later store of the same block writes again
// before anything may read it (no load of the array, call or nested
// construct between): `var w: [16]u32` zeroed, then every word loaded.
func (g *fgen) planDeadStores(f *ir.Function) {
	local := map[*ir.Array]bool{}
	for _, a := range f.Locals {
		local[a] = true
	}
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		for i, in := range b.Instrs {
			for _, blk := range in.Blocks {
				walk(blk)
			}
			if in.Op != ir.OpStore || !local[in.Arr] || g.dead[in] {
				continue
			}
			idx := memIndex(in)
			if !g.constIndex(idx) {
				continue
			}
		scan:
			for _, later := range b.Instrs[i+1:] {
				switch {
				case len(later.Blocks) > 0 || later.Op == ir.OpCall || later.Op == ir.OpYield || later.Op == ir.OpReturn:
					break scan
				case later.Arr != in.Arr || g.dead[later]:
				case later.Op != ir.OpStore:
					break scan
				case g.constIndex(memIndex(later)) && sameIndex(g, idx, memIndex(later)):
					if g.dead == nil {
						g.dead = map[*ir.Instr]bool{}
					}
					g.dead[in] = true
					break scan
				}
			}
		}
	}
	walk(f.Body)
}

// constIndex reports whether every limb of idx is a known constant.
func (g *fgen) constIndex(idx []*ir.Value) bool {
	for _, v := range idx {
		if _, ok := g.constOf(v); !ok {
			return false
		}
	}
	return len(idx) > 0
}

// sameIndex reports whether the constant indices a and b are equal.
func sameIndex(g *fgen, a, b []*ir.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, _ := g.constOf(a[i])
		y, _ := g.constOf(b[i])
		if x != y {
			return false
		}
	}
	return true
}
