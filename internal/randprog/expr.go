package randprog

import (
	"fmt"
)

// ex is a generated expression: its text and what the generator knows of it.
type ex struct {
	s       string
	untyped bool   // an untyped constant: its context gives it a type
	konst   bool   // the checker may evaluate it at compile time
	eff     effSet // effects evaluating it may have
	cost    int    // estimated statement executions of the calls in it
	deps    []*vr  // the variables it reads
	t       *ty    // its type, for the reuse cache
	prec    int    // precedence level of its outermost operator (see prec.go)
}

// join builds an expression from its parts: constant when they all are,
// with the union of their effects and reads.
func join(s string, parts ...ex) ex {
	e := ex{s: s, konst: true}
	for _, p := range parts {
		e.konst = e.konst && p.konst
		e.eff |= p.eff
		e.cost += p.cost
		e.deps = append(e.deps, p.deps...)
	}
	return e
}

// use accounts for an expression the current statement evaluates.
func (g *gen) use(es ...ex) {
	for _, e := range es {
		g.note(e.eff)
		g.fn.cost += e.cost * g.fn.iter
	}
}

// varEx reads a variable.
func varEx(v *vr) ex {
	return ex{s: v.name, konst: v.konst, deps: []*vr{v}, t: v.t}
}

// remember offers e to the reuse cache.
func (g *gen) remember(e ex, t *ty) {
	if e.untyped || len(e.s) > 120 {
		return
	}
	e.t = t
	if len(g.fn.cache) >= 24 {
		g.fn.cache = g.fn.cache[1:]
	}
	g.fn.cache = append(g.fn.cache, e)
}

// fromCache returns an earlier expression of type t that is still valid
// here: every variable it reads still denotes the same variable.
func (g *gen) fromCache(t *ty) (ex, bool) {
	var ok []ex
outer:
	for _, e := range g.fn.cache {
		if !e.t.same(t) {
			continue
		}
		for _, d := range e.deps {
			if d.kind != vConst && (g.lookup(d.name) != d || g.fn.hidden[d.rootOf()]) {
				continue outer
			}
		}
		ok = append(ok, e)
	}
	if len(ok) == 0 {
		return ex{}, false
	}
	return pick(g, ok), true
}

// ---------------------------------------------------------------- words

// wordE returns an expression of type uBITS, nested at most d deep. With
// untypedOK it may be an untyped constant.
func (g *gen) wordE(bits, d int, untypedOK bool) ex {
	if d <= 0 || g.chance(0.2) {
		return g.wordLeaf(bits, untypedOK)
	}
	if g.chance(0.12) {
		if e, ok := g.fromCache(word(bits)); ok {
			return e
		}
	}
	var e ex
	ok := false
	for tries := 0; !ok && tries < 4; tries++ {
		switch n := g.r.IntN(26); {
		case n < 2:
			e, ok = g.unaryE(bits, d), true
		case n < 10:
			e, ok = g.arithE(bits, d), true
		case n < 13:
			e, ok = g.shiftE(bits, d), true
		case n < 16:
			e, ok = g.castE(bits, d), true
		case n < 17:
			e, ok = g.selectE(word(bits), d), true
		case n < 18:
			e, ok = g.loadE(bits, d)
		case n < 19:
			e, ok = g.clmulE(bits, d)
		case n < 20:
			e, ok = g.callE(word(bits), d)
		case n < 21:
			if g.chance(0.4) {
				e, ok = g.uncheckedGetE(bits, d)
			}
		case n < 24:
			e, ok = g.readElem(bits, d)
		case n < 25:
			e, ok = g.lenE(bits)
		case n < 26 && untypedOK:
			e, ok = g.untypedExpr(bits, d), true
		}
	}
	if !ok {
		return g.wordLeaf(bits, untypedOK)
	}
	e.t = word(bits)
	if g.chance(0.3) {
		g.remember(e, word(bits))
	}
	return e
}

// wordLeaf returns a literal, a variable or an array element of type uBITS.
//
// Variables that hold run-time values come first: an expression over
// constants only tests the constant folder, not the arithmetic of the
// engines on the arguments.
func (g *gen) wordLeaf(bits int, untypedOK bool) ex {
	same := func(v *vr) bool { return v.t.k == kWord && v.t.bits == bits }
	live := func(v *vr) bool { return v.t.k == kWord && !v.konst }
	n := g.r.IntN(20)
	switch {
	case untypedOK && n < 3:
		return g.untypedLit(bits)
	case n < 4:
		if vs := g.visible(func(v *vr) bool { return same(v) && v.kind == vConst }); len(vs) > 0 {
			return varEx(pick(g, vs))
		}
	case n < 15:
		if vs := g.visible(func(v *vr) bool { return same(v) && live(v) }); len(vs) > 0 {
			return varEx(pick(g, vs))
		}
		fallthrough
	case n < 17:
		if vs := g.visible(live); len(vs) > 0 {
			return g.asWord(varEx(pick(g, vs)), bits)
		}
	case n < 19:
		if e, ok := g.readElem(bits, 0); ok {
			return e
		}
	}
	if vs := g.visible(same); len(vs) > 0 {
		return varEx(pick(g, vs))
	}
	if e, ok := g.readElem(bits, 0); ok {
		return e
	}
	return g.typedLit(bits)
}

// untypedLit is an untyped literal that fits uBITS.
func (g *gen) untypedLit(bits int) ex {
	return ex{s: g.fmtLit(g.edgeValue(bits)), untyped: true, konst: true}
}

// typedLit is a literal given a type by a cast.
func (g *gen) typedLit(bits int) ex {
	return g.asWord(g.litEx(g.edgeValue(bits)), bits)
}

// nonConstWord returns an expression of type uBITS the checker cannot
// evaluate at compile time.
func (g *gen) nonConstWord(bits, d int) ex {
	for tries := 0; tries < 4; tries++ {
		e := g.wordE(bits, d, false)
		if !e.konst {
			return e
		}
	}
	// Every function starts with a var (prologue) that is never shadowed.
	vs := g.visible(func(v *vr) bool { return v.t.k == kWord && !v.konst })
	if len(vs) == 0 {
		panic("BUG: randprog: no non-constant word in scope")
	}
	v := pick(g, vs)
	if v.t.bits == bits {
		return varEx(v)
	}
	return g.asWord(varEx(v), bits)
}

// unaryE is -x or ~x.
func (g *gen) unaryE(bits, d int) ex {
	x := g.wordE(bits, d-1, false)
	return g.un(pick(g, []string{"-", "~"}), x)
}

var arithOps = []string{"+", "+", "-", "-", "*", "*", "&", "|", "^", "^", "/", "%"}

// arithE is a binary arithmetic operation; one operand may be an untyped
// constant, which takes the other's type.
func (g *gen) arithE(bits, d int) ex {
	op := pick(g, arithOps)
	if op == "/" || op == "%" {
		l := g.wordE(bits, d-1, true)
		r := g.divisor(bits, d-1, !l.untyped)
		return g.bin(op, l, r)
	}
	l := g.wordE(bits, d-1, false)
	r := g.wordE(bits, d-1, true)
	if g.chance(0.5) {
		l, r = r, l
	}
	return g.bin(op, l, r)
}

// divisor returns the right operand of / or %: a non-zero constant, or a
// value the checker cannot prove non-zero (a run-time check: trap).
func (g *gen) divisor(bits, d int, untypedOK bool) ex {
	if g.chance(0.4) {
		if untypedOK && g.chance(0.6) {
			v := g.edgeValue(bits)
			if v == 0 {
				v = 1 + uint64(g.r.IntN(7))
			}
			return ex{s: g.fmtLit(v), untyped: true, konst: true}
		}
		cs := g.visible(func(v *vr) bool { return v.t.k == kWord && v.t.bits == bits && v.hasVal && v.val != 0 })
		if len(cs) > 0 {
			return varEx(pick(g, cs))
		}
	}
	e := g.nonConstWord(bits, d)
	if !g.risky() {
		// x | c is at least c: the checker proves it non-zero.
		return g.bin("|", e, g.litEx(uint64(1+g.r.IntN(3))))
	}
	e.eff |= effTrap
	return e
}

// shiftE is a shift or rotate by a constant (often >= the width) or a
// variable amount of any width.
func (g *gen) shiftE(bits, d int) ex {
	op := pick(g, []string{"<<", ">>", "<<<", ">>>"})
	l := g.wordE(bits, d-1, false)
	var amt ex
	switch g.r.IntN(4) {
	case 0, 1:
		a := pick(g, []int{0, 1, 3, bits / 2, bits - 1, bits, bits + 1, 2 * bits, g.r.IntN(2*bits + 2), 255, 1000})
		amt = ex{s: fmt.Sprint(a), untyped: true, konst: true}
	case 2:
		x := g.wordE(g.randWidth(), d-1, false)
		amt = g.bin("&", x, intEx(bits-1))
	default:
		amt = g.wordE(g.randWidth(), d-1, false)
	}
	return g.bin(op, l, amt)
}

// castE converts from another width or from bool.
func (g *gen) castE(bits, d int) ex {
	switch g.r.IntN(8) {
	case 0:
		b := g.boolE(d - 1)
		return g.asWord(b, bits)
	case 1:
		x := g.wordE(g.randWidth(), d-1, false)
		return g.asWord(g.asWord(x, g.randWidth()), bits)
	case 2:
		return g.typedLit(bits)
	default:
		w := g.randWidth()
		x := g.wordE(w, d-1, false)
		return g.asWord(x, bits)
	}
}

// selectE is select(c, a, b) of type t (a word or bool).
func (g *gen) selectE(t *ty, d int) ex {
	c := g.boolE(d - 1)
	var a, b ex
	if t.k == kBool {
		a, b = g.boolE(d-1), g.boolE(d-1)
	} else {
		a, b = g.wordE(t.bits, d-1, false), g.wordE(t.bits, d-1, true)
		if g.chance(0.5) {
			a, b = b, a
		}
	}
	return join(fmt.Sprintf("select(%s, %s, %s)", c.s, a.s, b.s), c, a, b)
}

// loadE reads a word from bytes with load_le/be16/32/64.
func (g *gen) loadE(bits, d int) (ex, bool) {
	if bits == 8 {
		return ex{}, false
	}
	bytes := bits / 8
	srcs := g.visible(func(v *vr) bool {
		return v.t.flatWords() && v.t.bits == 8 && ((v.t.k == kSlice && g.risky()) || v.t.n >= bytes)
	})
	if len(srcs) == 0 {
		return ex{}, false
	}
	s := pick(g, srcs)
	off := g.offset(s, bytes, d-1)
	order := pick(g, []string{"le", "be"})
	return join(fmt.Sprintf("load_%s%d(%s, %s)", order, bits, s.name, off.s), varEx(s), off), true
}

// clmulE is clmul_lo or clmul_hi.
func (g *gen) clmulE(bits, d int) (ex, bool) {
	if bits != 64 {
		return ex{}, false
	}
	a, b := g.wordE(64, d-1, true), g.wordE(64, d-1, true)
	return join(fmt.Sprintf("%s(%s, %s)", pick(g, []string{"clmul_lo", "clmul_hi"}), a.s, b.s), a, b), true
}

// lenE is len(x) or len(rest(x, N)), of type u32.
func (g *gen) lenE(bits int) (ex, bool) {
	if bits != 32 {
		return ex{}, false
	}
	srcs := g.visible(func(v *vr) bool { return v.t.indexable() })
	if len(srcs) == 0 {
		return ex{}, false
	}
	s := pick(g, srcs)
	e := varEx(s)
	e.konst = s.t.k == kArray
	if s.t.flatWords() && g.chance(0.3) {
		e.s = fmt.Sprintf("len(rest(%s, %d))", s.name, 1+g.r.IntN(9))
		return e, true
	}
	e.s = fmt.Sprintf("len(%s)", s.name)
	return e, true
}

// readElem reads an element of an array, nested array or slice whose words
// are uBITS, with indices that are mostly proven in bounds.
func (g *gen) readElem(bits, d int) (ex, bool) {
	srcs := g.visible(func(v *vr) bool { return v.t.indexable() && v.t.bits == bits && g.canIndex(v) })
	if len(srcs) == 0 {
		return ex{}, false
	}
	return g.elemOf(pick(g, srcs), d), true
}

// elemOf indexes v down to a word.
func (g *gen) elemOf(v *vr, d int) ex {
	e := varEx(v)
	t := v.t
	for t.k != kWord {
		var idx ex
		if t.k == kSlice {
			idx = g.sliceIndex(v, d)
		} else {
			idx = g.arrayIndex(t.n, d)
		}
		e = join(e.s+"["+idx.s+"]", e, idx)
		t = t.elem
	}
	e.t = t
	return e
}

// uncheckedGetE is unchecked_get with an index that is in bounds (proven, so
// that the program stays well defined): unsafe.
func (g *gen) uncheckedGetE(bits, d int) (ex, bool) {
	if !g.allowed(effUnsafe) {
		return ex{}, false
	}
	srcs := g.visible(func(v *vr) bool { return v.t.flatWords() && v.t.bits == bits })
	if len(srcs) == 0 {
		return ex{}, false
	}
	s := pick(g, srcs)
	idx, ok := g.safeIndex(s, d-1)
	if !ok {
		return ex{}, false
	}
	e := join(fmt.Sprintf("unchecked_get(%s, %s)", s.name, idx.s), varEx(s), idx)
	e.eff |= effUnsafe
	e.konst = false
	return e, true
}

// ---------------------------------------------------------------- bools

var cmpOps = []string{"==", "!=", "<", "<=", ">", ">="}

// boolE returns a bool expression nested at most d deep.
func (g *gen) boolE(d int) ex {
	if d <= 0 || g.chance(0.15) {
		return g.boolLeaf()
	}
	if g.chance(0.1) {
		if e, ok := g.fromCache(tBool); ok {
			return e
		}
	}
	var e ex
	switch n := g.r.IntN(20); {
	case n < 8:
		w := g.randWidth()
		l, r := g.wordE(w, d-1, false), g.wordE(w, d-1, true)
		if g.chance(0.3) {
			l, r = r, l
		}
		e = g.bin(pick(g, cmpOps), l, r)
	case n < 11:
		l, r := g.boolE(d-1), g.boolE(d-1)
		e = g.bin(pick(g, []string{"&&", "||"}), l, r)
	case n < 13:
		x := g.boolE(d - 1)
		e = g.un("!", x)
	case n < 14:
		l, r := g.boolE(d-1), g.boolE(d-1)
		e = g.bin(pick(g, []string{"==", "!="}), l, r)
	case n < 15:
		e = g.selectE(tBool, d)
	case n < 16:
		var ok bool
		if e, ok = g.callE(tBool, d); !ok {
			e = g.boolLeaf()
		}
	default:
		e = g.boolLeaf()
	}
	if g.chance(0.3) {
		g.remember(e, tBool)
	}
	return e
}

// boolLeaf is a literal or a bool variable.
func (g *gen) boolLeaf() ex {
	vs := g.visible(func(v *vr) bool { return v.t.k == kBool })
	if len(vs) > 0 && g.chance(0.7) {
		return varEx(pick(g, vs))
	}
	if g.chance(0.5) {
		// A comparison of a variable: conditions that are not constant.
		w := g.randWidth()
		l := g.wordLeaf(w, false)
		r := g.untypedLit(w)
		return g.bin(pick(g, cmpOps), l, r)
	}
	if g.chance(0.1) {
		// A hardware question: false on the VM and in the IR unless asked.
		return ex{s: "have " + pick(g, []string{"sha", "aes", "pclmul"}), t: tBool}
	}
	return ex{s: fmt.Sprint(g.chance(0.5)), konst: true}
}

// ---------------------------------------------------------------- untyped constants

// untypedExpr is an untyped constant expression over literals whose value,
// and the value of every part of it, fits uBITS (or depends on the width).
func (g *gen) untypedExpr(bits, d int) ex {
	s, _, _ := g.untypedC(bits, d)
	return ex{s: s, untyped: true, konst: true}
}

// untypedC returns the text of an untyped constant expression and its exact
// value when that does not depend on the width (exact).
func (g *gen) untypedC(bits, d int) (string, uint64, bool) {
	m := mask(bits)
	if d <= 0 || g.chance(0.3) {
		v := g.edgeValue(bits)
		return g.fmtLit(v), v, true
	}
	switch g.r.IntN(9) {
	case 0: // a + b
		a := g.r.Uint64() & m
		if g.chance(0.5) {
			a = uint64(g.r.IntN(100)) & m
		}
		b := g.r.Uint64() & m
		if room := m - a; room != ^uint64(0) {
			b %= room + 1
		}
		return fmt.Sprintf("(%s + %s)", g.fmtLit(a), g.fmtLit(b)), a + b, true
	case 1: // a - b
		s, a, ok := g.untypedC(bits, d-1)
		if !ok {
			return s, 0, false
		}
		b := uint64(0)
		switch {
		case a == ^uint64(0):
			b = g.r.Uint64()
		case a > 0:
			b = g.r.Uint64() % (a + 1)
		}
		return fmt.Sprintf("(%s - %s)", s, g.fmtLit(b)), a - b, true
	case 2: // a * b
		a := uint64(1 + g.r.IntN(300))
		if a > m {
			a = m
		}
		b := g.r.Uint64() & (m / a)
		return fmt.Sprintf("(%s * %s)", g.fmtLit(a), g.fmtLit(b)), a * b, true
	case 3: // a / b, a % b
		s, a, ok := g.untypedC(bits, d-1)
		if !ok {
			return s, 0, false
		}
		b := uint64(1 + g.r.IntN(20))
		if b > m {
			b = 1
		}
		if g.chance(0.5) {
			return fmt.Sprintf("(%s / %s)", s, g.fmtLit(b)), a / b, true
		}
		return fmt.Sprintf("(%s %% %s)", s, g.fmtLit(b)), a % b, true
	case 4: // a & b, a | b, a ^ b
		s1, a, ok1 := g.untypedC(bits, d-1)
		s2, b, ok2 := g.untypedC(bits, d-1)
		op := pick(g, []string{"&", "|", "^"})
		v := a & b
		switch op {
		case "|":
			v = a | b
		case "^":
			v = a ^ b
		}
		return fmt.Sprintf("(%s %s %s)", s1, op, s2), v, ok1 && ok2
	case 5: // a << k
		a := uint64(1 + g.r.IntN(15))
		k := g.r.IntN(bits - 3)
		return fmt.Sprintf("(%s << %d)", g.fmtLit(a), k), a << uint(k), true
	case 6: // a >> k
		s, a, ok := g.untypedC(bits, d-1)
		k := g.r.IntN(70)
		v := uint64(0)
		if k < 64 {
			v = a >> uint(k)
		}
		return fmt.Sprintf("(%s >> %d)", s, k), v, ok
	case 7: // ~a, -a: the value depends on the width
		s, _, _ := g.untypedC(bits, d-1)
		return fmt.Sprintf("(%s%s)", pick(g, []string{"~", "-"}), s), 0, false
	default: // (~a) op b: width-dependent, so it may wrap
		s1 := fmt.Sprintf("(~%s)", g.fmtLit(g.edgeValue(bits)))
		s2, _, _ := g.untypedC(bits, d-1)
		return fmt.Sprintf("(%s %s %s)", s1, pick(g, []string{"+", "^", "*"}), s2), 0, false
	}
}
