package randprog

import (
	"fmt"
	"strings"
)

// storeStmt writes a word into bytes with store_le/be16/32/64.
func (g *gen) storeStmt() bool {
	bits := pick(g, []int{16, 32, 64})
	bytes := bits / 8
	dsts := g.visible(func(v *vr) bool {
		return v.mut && v.kind != vConst && v.t.flatWords() && v.t.bits == 8 && ((v.t.k == kSlice && g.risky()) || v.t.n >= bytes)
	})
	if len(dsts) == 0 {
		return false
	}
	s := pick(g, dsts)
	off := g.offset(s, bytes, g.cfg.MaxExpr-1)
	var val ex
	g.withHidden(s, func() { val = g.wordE(bits, g.cfg.MaxExpr, true) })
	g.use(off, val)
	g.line("store_%s%d(%s, %s, %s)", pick(g, []string{"le", "be"}), bits, s.name, off.s, val.s)
	return true
}

// aesStmt runs an AES round on words of the function and binds or assigns
// the two result words.
func (g *gen) aesStmt() bool {
	if g.cfg.Parallel && g.chance(0.3) && g.parallelStmt() {
		return true
	}
	if g.cfg.MulW && g.chance(0.5) {
		return g.mulwStmt()
	}
	if g.chance(0.35) {
		return g.shaStmt()
	}
	d := g.cfg.MaxExpr - 1
	args := make([]ex, 4)
	texts := make([]string, 4)
	for i := range args {
		args[i] = g.wordE(64, d, true)
		texts[i] = args[i].s
	}
	g.use(args...)
	call := fmt.Sprintf("%s(%s)", pick(g, []string{"aes_enc", "aes_enclast"}), strings.Join(texts, ", "))
	if g.chance(0.3) {
		if x := g.assignable(tU64, nil); x != nil {
			if y := g.assignable(tU64, map[*vr]bool{x: true}); y != nil {
				g.line("%s, %s = %s", x.name, y.name, call)
				return true
			}
		}
	}
	if g.chance(0.2) {
		// Into two elements of a writable u64 array.
		ws := g.visible(func(v *vr) bool {
			return v.mut && v.kind != vConst && v.t.k == kArray && v.t.elem.k == kWord && v.t.bits == 64 && v.t.n >= 2
		})
		if len(ws) > 0 {
			a := pick(g, ws)
			i := g.r.IntN(a.t.n - 1)
			g.line("%s[%d], %s[%d] = %s", a.name, i, a.name, i+1, call)
			return true
		}
	}
	kw := pick(g, []string{"let", "var"})
	x := &vr{name: g.fresh("v"), t: tU64, kind: vLocal, mut: kw == "var"}
	y := &vr{name: g.fresh("v"), t: tU64, kind: vLocal, mut: kw == "var"}
	g.line("%s (%s, %s) = %s", kw, x.name, y.name, call)
	g.declare(x)
	g.declare(y)
	return true
}

// parallelStmt assigns two or three word variables at once, `x, y = E1,
// E2`; every value is read before any variable is written. Sometimes the
// values are the targets themselves, rotated (a swap).
func (g *gen) parallelStmt() bool {
	n := 2 + g.r.IntN(2)
	rotate := g.chance(0.3)
	one := pick(g, []*ty{tU8, tU16, tU32, tU64})
	taken := map[*vr]bool{}
	var tgts []*vr
	for range n {
		t := one
		if !rotate {
			t = pick(g, []*ty{tU8, tU16, tU32, tU64})
		}
		if x := g.assignable(t, taken); x != nil {
			taken[x] = true
			tgts = append(tgts, x)
		}
	}
	if len(tgts) < 2 {
		return false
	}
	names := make([]string, len(tgts))
	vals := make([]string, len(tgts))
	for i, x := range tgts {
		names[i] = x.name
		if rotate {
			vals[i] = tgts[(i+1)%len(tgts)].name
			continue
		}
		v := g.wordE(x.t.bits, g.cfg.MaxExpr-1, true)
		g.use(v)
		vals[i] = v.s
	}
	g.line("%s = %s", strings.Join(names, ", "), strings.Join(vals, ", "))
	return true
}

// mulwStmt binds or assigns the two halves of mulw on u32 or u64 words.
func (g *gen) mulwStmt() bool {
	bits := pick(g, []int{32, 64})
	t := tU32
	if bits == 64 {
		t = tU64
	}
	d := g.cfg.MaxExpr - 1
	a := g.wordE(bits, d, false)
	b := g.wordE(bits, d, true)
	g.use(a, b)
	call := fmt.Sprintf("mulw(%s, %s)", a.s, b.s)
	if g.chance(0.3) {
		if x := g.assignable(t, nil); x != nil {
			if y := g.assignable(t, map[*vr]bool{x: true}); y != nil {
				g.line("%s, %s = %s", x.name, y.name, call)
				return true
			}
		}
	}
	kw := pick(g, []string{"let", "var"})
	x := &vr{name: g.fresh("v"), t: t, kind: vLocal, mut: kw == "var"}
	y := &vr{name: g.fresh("v"), t: t, kind: vLocal, mut: kw == "var"}
	g.line("%s (%s, %s) = %s", kw, x.name, y.name, call)
	g.declare(x)
	g.declare(y)
	return true
}

// shaStmt binds the four lanes of a SHA-256 builtin on u32 words.
func (g *gen) shaStmt() bool {
	name := pick(g, []string{"sha256_rnds2", "sha256_msg1", "sha256_msg2"})
	n := 8
	if name == "sha256_rnds2" {
		n = 10
	}
	d := g.cfg.MaxExpr - 1
	args := make([]ex, n)
	texts := make([]string, n)
	for i := range args {
		args[i] = g.wordE(32, d, true)
		texts[i] = args[i].s
	}
	g.use(args...)
	kw := pick(g, []string{"let", "var"})
	vs := make([]*vr, 4)
	names := make([]string, 4)
	for i := range vs {
		vs[i] = &vr{name: g.fresh("v"), t: tU32, kind: vLocal, mut: kw == "var"}
		names[i] = vs[i].name
	}
	g.line("%s (%s) = %s(%s)", kw, strings.Join(names, ", "), name, strings.Join(texts, ", "))
	for _, v := range vs {
		g.declare(v)
	}
	return true
}

// uncheckedSetStmt writes an element with unchecked_set at an index that is
// in bounds: unsafe.
func (g *gen) uncheckedSetStmt() bool {
	if !g.allowed(effUnsafe) {
		return false
	}
	ws := g.visible(func(v *vr) bool { return v.mut && v.kind != vConst && v.t.flatWords() })
	if len(ws) == 0 {
		return false
	}
	s := pick(g, ws)
	idx, ok := g.safeIndex(s, g.cfg.MaxExpr-1)
	if !ok {
		return false
	}
	val := g.wordE(s.t.bits, g.cfg.MaxExpr-1, true)
	g.use(idx, val)
	g.note(effUnsafe)
	g.line("unchecked_set(%s, %s, %s)", s.name, idx.s, val.s)
	return true
}

// absorbStmt emits `absorb EFFECTS because "..." { ... }`. The body starts
// with a statement that certainly has each listed effect (an absorb that
// lists an effect its body does not have is an error).
func (g *gen) absorbStmt() bool {
	var sites []func()
	var names []string
	var stops effSet
	if site, ok := g.trapSite(); ok && g.chance(0.7) {
		sites = append(sites, site)
		names = append(names, "trap")
		stops |= effTrap
	}
	if site, ok := g.unsafeSite(); ok && (len(names) == 0 || g.chance(0.3)) {
		sites = append(sites, site)
		names = append(names, "unsafe")
		stops |= effUnsafe
	}
	if len(sites) == 0 {
		return false
	}
	reason := pick(g, []string{
		"the divisor is checked by the caller",
		"generated: the index is in bounds by construction",
		"tested by randprog",
		`a \"quoted\" reason with a back\\slash`,
	})
	g.line("absorb %s because \"%s\" {", strings.Join(names, ", "), reason)
	g.fn.absorbs = append(g.fn.absorbs, &absorbCtx{stops: stops})
	g.block(g.blockLen()-1, func() {
		for _, s := range sites {
			s()
		}
	})
	g.fn.absorbs = g.fn.absorbs[:len(g.fn.absorbs)-1]
	g.line("}")
	return true
}

// trapSite returns an emitter of a statement that certainly has the trap
// effect: a division by a word parameter or by an element of a non-constant
// array, whose values the checker cannot know.
func (g *gen) trapSite() (func(), bool) {
	var divs []ex
	for _, v := range g.visible(func(v *vr) bool { return v.kind == vParam && v.t.k == kWord }) {
		divs = append(divs, varEx(v))
	}
	// Elements of array parameters (locals often hold zeros, and would
	// make the division fail on every run).
	for _, v := range g.visible(func(v *vr) bool {
		return v.kind == vParam && v.t.k == kArray && v.t.elem.k == kWord
	}) {
		divs = append(divs, ex{s: fmt.Sprintf("%s[%d]", v.name, g.r.IntN(v.t.n)), deps: []*vr{v}, t: v.t.elem})
	}
	if len(divs) == 0 {
		return nil, false
	}
	dv := pick(g, divs)
	return func() {
		x := g.wordE(dv.t.bits, 1, false)
		g.use(x)
		g.note(effTrap)
		g.line("let %s = %s", g.fresh("q"), g.bin(pick(g, []string{"/", "%"}), x, dv).s)
	}, true
}

// unsafeSite returns an emitter of a statement that certainly has the
// unsafe effect: an in-bounds unchecked_get.
func (g *gen) unsafeSite() (func(), bool) {
	srcs := g.visible(func(v *vr) bool { return v.t.k == kArray && v.t.elem.k == kWord })
	if len(srcs) == 0 {
		return nil, false
	}
	s := pick(g, srcs)
	return func() {
		idx := g.provenIndex(s.t.n, 1)
		g.use(idx)
		g.note(effUnsafe)
		g.line("let %s = unchecked_get(%s, %s)", g.fresh("u"), s.name, idx.s)
	}, true
}
