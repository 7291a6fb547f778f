package randprog

import (
	"fmt"
	"strings"
)

// stmt emits one random statement (loops and ifs count their bodies too).
func (g *gen) stmt() {
	f := g.fn
	f.stmts++
	f.cost += f.iter
	for tries := 0; tries < 8; tries++ {
		if g.tryStmt() {
			return
		}
	}
	g.declWord(g.randWidth(), true)
}

// tryStmt emits a statement of a random kind, or reports false when that
// kind is impossible here.
func (g *gen) tryStmt() bool {
	f := g.fn
	deep := f.depth < g.cfg.MaxDepth && f.cost < g.cfg.MaxWork
	if g.cfg.HaveBranches && g.chance(0.03) {
		return deep && g.haveStmt()
	}
	switch n := g.r.IntN(100); {
	case n < 11:
		g.declWord(g.randWidth(), true)
		return true
	case n < 14:
		g.declBool()
		return true
	case n < 20:
		return g.declArray()
	case n < 29:
		return g.assignWord()
	case n < 38:
		return g.compound()
	case n < 45:
		return g.assignElem(false)
	case n < 52:
		return deep && g.ifStmt()
	case n < 60:
		return deep && g.forStmt()
	case n < 65:
		return deep && g.chunkStmt()
	case n < 74:
		return g.callStmt()
	case n < 78:
		return g.storeStmt()
	case n < 80:
		return g.aesStmt()
	case n < 83:
		return deep && g.absorbStmt()
	case n < 85:
		return deep && g.blockStmt()
	case n < 86:
		return g.uncheckedSetStmt()
	case n < 89:
		return f.depth > 0 && g.returnStmt()
	case n < 94:
		return g.arrayAssign()
	default:
		return g.multiAssign()
	}
}

// block emits `{`-delimited statements in a new scope (the caller writes
// the opening line, block writes the body and the closing brace).
func (g *gen) block(n int, extra func()) {
	f := g.fn
	g.pushScope()
	f.depth++
	f.indent++
	if extra != nil {
		extra()
	}
	for i := 0; i < n; i++ {
		g.stmt()
	}
	f.indent--
	f.depth--
	g.popScope()
}

// blockLen is the number of statements of a nested block.
func (g *gen) blockLen() int { return 1 + g.r.IntN(4) }

// shadowName returns, sometimes, the name of a local of an enclosing block
// with type t that a new declaration may shadow; else a fresh name.
func (g *gen) shadowName(t *ty, prefix string) (string, *vr) {
	if g.fn.depth > 0 && g.chance(0.12) {
		vs := g.visible(func(v *vr) bool {
			return v.kind == vLocal && !v.anchor && v.t.same(t) && !g.inInnermost(v.name)
		})
		if len(vs) > 0 {
			v := pick(g, vs)
			return v.name, v
		}
	}
	return g.fresh(prefix), nil
}

// withHidden runs fn with the storage of v hidden (v may be nil).
func (g *gen) withHidden(v *vr, fn func()) {
	if v == nil {
		fn()
		return
	}
	old := g.fn.hidden[v.rootOf()]
	g.fn.hidden[v.rootOf()] = true
	fn()
	g.fn.hidden[v.rootOf()] = old
}

// declWord declares a word local: `let`/`var`, with or without a type,
// or (var only) without a value. With rich unset it is a var with a literal.
func (g *gen) declWord(bits int, rich bool) *vr {
	t := word(bits)
	name, shadowed := g.shadowName(t, "v")
	v := &vr{name: name, t: t, kind: vLocal}
	if !rich {
		v.mut = true
		g.line("var %s: %s = %s", name, t, g.fmtLit(g.edgeValue(bits)))
		g.declare(v)
		return v
	}
	var e ex
	g.withHidden(shadowed, func() { e = g.wordE(bits, g.cfg.MaxExpr, true) })
	g.use(e)
	switch n := g.r.IntN(10); {
	case n < 4:
		v.konst = e.konst
		if e.untyped || g.chance(0.5) {
			g.line("let %s: %s = %s", name, t, e.s)
		} else {
			g.line("let %s = %s", name, e.s)
		}
	case n < 9:
		v.mut = true
		if e.untyped || g.chance(0.5) {
			g.line("var %s: %s = %s", name, t, e.s)
		} else {
			g.line("var %s = %s", name, e.s)
		}
	default:
		v.mut = true
		g.line("var %s: %s", name, t)
	}
	g.declare(v)
	return v
}

// declBool declares a bool local.
func (g *gen) declBool() {
	name, shadowed := g.shadowName(tBool, "b")
	v := &vr{name: name, t: tBool, kind: vLocal}
	var e ex
	g.withHidden(shadowed, func() { e = g.boolE(g.cfg.MaxExpr) })
	g.use(e)
	switch g.r.IntN(4) {
	case 0:
		v.konst = e.konst
		g.line("let %s = %s", name, e.s)
	case 1:
		v.mut = true
		g.line("var %s: bool", name)
	default:
		v.mut = true
		g.line("var %s: bool = %s", name, e.s)
	}
	g.declare(v)
}

// randArrayType returns a flat or nested array type for a local.
func (g *gen) randArrayType() *ty {
	if g.chance(0.04) {
		return arrOf(2, arrOf(2, arrOf(2+g.r.IntN(2), word(g.randWidth()))))
	}
	if g.chance(0.2) {
		return arrOf(2+g.r.IntN(3), arrOf(1+g.r.IntN(4), word(g.randWidth())))
	}
	n := pick(g, arrayLens)
	if g.chance(0.15) {
		n = pick(g, []int{6, 7, 9, 24, 32, 64, 256})
	}
	return arrOf(n, word(g.randWidth()))
}

// declArray declares an array local: zero, a literal, a copy of a constant
// or of another array.
func (g *gen) declArray() bool {
	t := g.randArrayType()
	kw := "var"
	if g.chance(0.25) {
		kw = "let"
	}
	name := g.fresh("a")
	v := &vr{name: name, t: t, kind: vLocal, mut: kw == "var"}
	switch n := g.r.IntN(10); {
	case n < 3 && kw == "var":
		tt := t.String()
		if c := g.lenConst(t); c != nil {
			tt = fmt.Sprintf("[%s]%s", c.name, t.elem)
		}
		g.line("var %s: %s", name, tt)
	case n < 7 && (t.n <= 8 || t.elem.k == kArray) && t.n*max(1, t.elem.n) <= 16:
		e := g.arrayLit(t)
		g.use(e)
		v.konst = kw == "let" && e.konst
		g.line("%s %s: %s = %s", kw, name, t, e.s)
	default:
		srcs := g.visible(func(u *vr) bool { return u.t.k == kArray && u.t.n <= 64 })
		if len(srcs) == 0 {
			return false
		}
		u := pick(g, srcs)
		v.t = u.t
		v.konst = kw == "let" && u.konst
		g.line("%s %s = %s", kw, name, u.name)
	}
	g.declare(v)
	return true
}

// lenConst returns, sometimes, a module constant whose value is t's length,
// so that a declaration can name its length by a constant.
func (g *gen) lenConst(t *ty) *vr {
	if !g.chance(0.5) {
		return nil
	}
	for _, c := range g.consts {
		if c.t.k == kWord && c.hasVal && c.val == uint64(t.n) {
			return c
		}
	}
	return nil
}

// arrayLit is an array literal of type t.
func (g *gen) arrayLit(t *ty) ex {
	parts := make([]string, t.n)
	var es []ex
	for i := range parts {
		var e ex
		if t.elem.k == kArray {
			e = g.arrayLit(t.elem)
		} else {
			e = g.wordE(t.elem.bits, 1, true)
		}
		parts[i] = e.s
		es = append(es, e)
	}
	return join("["+strings.Join(parts, ", ")+"]", es...)
}

// arrayValue returns an expression of array type t: a variable, a constant,
// a row of a nested array, or a literal.
func (g *gen) arrayValue(t *ty) ex {
	var opts []ex
	for _, v := range g.visible(func(v *vr) bool { return v.t.same(t) }) {
		opts = append(opts, varEx(v))
	}
	for _, v := range g.visible(func(v *vr) bool { return v.t.k == kArray && v.t.elem.same(t) }) {
		idx := g.arrayIndex(v.t.n, 1)
		opts = append(opts, join(fmt.Sprintf("%s[%s]", v.name, idx.s), varEx(v), idx))
	}
	if len(opts) == 0 || (g.chance(0.1) && t.n*max(1, t.elem.n) <= 16) {
		return g.arrayLit(t)
	}
	return pick(g, opts)
}

// assignWord assigns a word or bool local.
func (g *gen) assignWord() bool {
	vs := g.visible(func(v *vr) bool { return v.kind == vLocal && v.mut && (v.t.k == kWord || v.t.k == kBool) })
	if len(vs) == 0 {
		return false
	}
	v := pick(g, vs)
	var e ex
	if v.t.k == kBool {
		e = g.boolE(g.cfg.MaxExpr)
	} else {
		e = g.wordE(v.t.bits, g.cfg.MaxExpr, true)
	}
	g.use(e)
	g.line("%s = %s", v.name, e.s)
	return true
}

var compoundOps = []string{"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "<<<", ">>>", "+", "^", "-"}

// compound emits `x OP= e` on a word local or a writable element.
func (g *gen) compound() bool {
	var target ex
	var bits int
	if g.chance(0.6) {
		vs := g.visible(func(v *vr) bool { return v.kind == vLocal && v.mut && v.t.k == kWord })
		if len(vs) == 0 {
			return false
		}
		v := pick(g, vs)
		target, bits = varEx(v), v.t.bits
	} else {
		var ok bool
		if target, bits, ok = g.writableElem(g.cfg.MaxExpr - 1); !ok {
			return false
		}
	}
	op := pick(g, compoundOps)
	var e ex
	switch op {
	case "/", "%":
		e = g.divisor(bits, g.cfg.MaxExpr-1, true)
	case "<<", ">>", "<<<", ">>>":
		if g.chance(0.5) {
			e = ex{s: fmt.Sprint(pick(g, []int{0, 1, bits - 1, bits, bits + 3, 2 * bits, g.r.IntN(bits)})), untyped: true, konst: true}
		} else {
			e = g.wordE(g.randWidth(), g.cfg.MaxExpr-1, false)
		}
	default:
		e = g.wordE(bits, g.cfg.MaxExpr, true)
	}
	g.use(target, e)
	g.line("%s %s= %s", target.s, op, e.s)
	return true
}

// writableArrays returns the arrays and slices (flat or nested) that may be
// written through here.
func (g *gen) writableArrays() []*vr {
	return g.visible(func(v *vr) bool { return v.t.indexable() && v.mut && v.kind != vConst })
}

// writableElem returns an element of a writable array or slice.
func (g *gen) writableElem(d int) (ex, int, bool) {
	var ws []*vr
	for _, v := range g.writableArrays() {
		if g.canIndex(v) {
			ws = append(ws, v)
		}
	}
	if len(ws) == 0 {
		return ex{}, 0, false
	}
	v := pick(g, ws)
	// Prefer slices only where an index is proven, so that most writes
	// do not need a check.
	if v.t.k == kSlice {
		if _, ok := g.provenSliceIndex(v); !ok && g.chance(0.6) {
			v = pick(g, ws)
		}
	}
	e := g.elemOf(v, d)
	return e, e.t.bits, true
}

// assignElem assigns an element of a writable array. With sink set the value
// folds together several locals, so that they are observable.
func (g *gen) assignElem(sink bool) bool {
	target, bits, ok := g.writableElem(g.cfg.MaxExpr - 1)
	if !ok {
		return false
	}
	var e ex
	if sink {
		e = g.mixLocals(bits)
		g.use(target, e)
		g.line("%s ^= %s", target.s, e.s)
		return true
	}
	e = g.wordE(bits, g.cfg.MaxExpr, true)
	g.use(target, e)
	g.line("%s = %s", target.s, e.s)
	return true
}

// arrayAssign copies a whole array into a var array, or into a row of a
// writable nested array.
func (g *gen) arrayAssign() bool {
	ws := g.visible(func(v *vr) bool { return v.t.k == kArray && v.mut && v.kind != vConst })
	if len(ws) == 0 {
		return false
	}
	v := pick(g, ws)
	target := varEx(v)
	t := v.t
	if t.elem.k == kArray && (v.kind != vLocal || g.chance(0.6)) {
		idx := g.arrayIndex(t.n, 1)
		target = join(fmt.Sprintf("%s[%s]", v.name, idx.s), target, idx)
		t = t.elem
	} else if v.kind != vLocal {
		return false
	}
	e := g.arrayValue(t) // may read v itself: the value is copied first
	g.use(target, e)
	g.line("%s = %s", target.s, e.s)
	return true
}

// ifStmt emits an if / else if / else chain.
func (g *gen) ifStmt() bool {
	c := g.boolE(g.cfg.MaxExpr)
	g.use(c)
	g.line("if %s {", c.s)
	g.block(g.blockLen(), nil)
	for g.chance(0.35) {
		c := g.boolE(g.cfg.MaxExpr)
		g.use(c)
		g.line("} else if %s {", c.s)
		g.block(g.blockLen(), nil)
	}
	if g.chance(0.5) {
		g.line("} else {")
		g.block(g.blockLen(), nil)
	}
	g.line("}")
	return true
}

// blockStmt emits a nested block, where declarations may shadow.
func (g *gen) blockStmt() bool {
	g.line("{")
	g.block(g.blockLen(), nil)
	g.line("}")
	return true
}

// returnStmt emits an early return under a condition.
func (g *gen) returnStmt() bool {
	c := g.boolE(g.cfg.MaxExpr - 1)
	g.use(c)
	g.line("if %s {", c.s)
	g.fn.indent++
	g.pushScope() // resultList may declare a local
	if len(g.fn.sig.results) == 0 {
		g.line("return")
	} else {
		g.line("return %s", g.resultList())
	}
	g.popScope()
	g.fn.indent--
	g.line("}")
	return true
}

// multiAssign assigns several locals at once from a multi-result call or
// an AES round.
func (g *gen) multiAssign() bool {
	if g.chance(0.5) {
		return g.aesStmt()
	}
	return g.callStmt()
}

// haveStmt emits `if have FEATURE { ... } else { ... }` (sometimes the
// negation, or an else-if on a second feature): the first branch starts
// with the feature's builtins, the way code shaped for the instructions
// is written; the VM and every target answer `have` the same way in a
// test, so both branches are compared.
func (g *gen) haveStmt() bool {
	feats := []string{"aes", "pclmul", "sha"}
	feat := pick(g, feats)
	builtin := func() {
		switch feat {
		case "aes":
			g.aesStmt()
		case "sha":
			g.shaStmt()
		default:
			g.declWord(64, true)
			if e, ok := g.clmulE(64, g.cfg.MaxExpr-1); ok {
				v := &vr{name: g.fresh("v"), t: tU64, kind: vLocal}
				g.use(e)
				g.line("let %s = %s", v.name, e.s)
				g.declare(v)
			}
		}
	}
	if g.chance(0.2) {
		g.line("if !have %s {", feat)
		g.block(g.blockLen(), nil)
		g.line("} else {")
		g.block(g.blockLen(), builtin)
		g.line("}")
		return true
	}
	g.line("if have %s {", feat)
	g.block(g.blockLen(), builtin)
	if g.chance(0.3) {
		feat = pick(g, feats)
		g.line("} else if have %s {", feat)
		g.block(g.blockLen(), builtin)
	}
	g.line("} else {")
	g.block(g.blockLen(), nil)
	g.line("}")
	return true
}
