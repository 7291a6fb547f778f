package randprog

import (
	"fmt"
	"strings"
)

// fnCtx is the state of the function being generated.
type fnCtx struct {
	sig    *fnSig
	pure   bool    // aim for `effects none`: no trap or unsafe outside absorb blocks
	risk   float64 // how often a run-time check that may fail is chosen
	scopes [][]*vr
	// absorbs is the stack of enclosing absorb blocks.
	absorbs []*absorbCtx
	hidden  map[*vr]bool // storage not to be read (the mut arguments of a call being built)
	eff     effSet       // effects that reach the function
	iter    int          // product of the trip counts of the enclosing loops
	cost    int          // estimated statement executions so far
	stmts   int          // statements emitted so far
	depth   int          // block nesting
	nameN   int
	cache   []ex // expressions to reuse, so that common subexpressions exist
	b       strings.Builder
	indent  int
}

// absorbCtx is one enclosing absorb block.
type absorbCtx struct {
	stops effSet
}

// line writes one line of the body at the current indentation.
func (g *gen) line(format string, args ...any) {
	f := g.fn
	f.b.WriteString(strings.Repeat("    ", f.indent))
	fmt.Fprintf(&f.b, format, args...)
	f.b.WriteByte('\n')
}

// note records that code with effects e runs here: absorb blocks stop what
// they list, the rest reaches the function.
func (g *gen) note(e effSet) {
	for i := len(g.fn.absorbs) - 1; i >= 0 && e != 0; i-- {
		e &^= g.fn.absorbs[i].stops
	}
	g.fn.eff |= e
}

// allowed reports whether code with effect e may be emitted here: always in
// an impure function, and in a pure one only inside an absorb of e.
func (g *gen) allowed(e effSet) bool {
	if !g.fn.pure {
		return true
	}
	for _, a := range g.fn.absorbs {
		e &^= a.stops
	}
	return e == 0
}

// noTrap reports whether the code emitted here must not have the trap effect.
func (g *gen) noTrap() bool { return !g.allowed(effTrap) }

// risky decides whether to emit a run-time check that may fail here: never
// where traps are not allowed, else with the function's own probability, so
// that some functions trap often and others rarely.
func (g *gen) risky() bool { return !g.noTrap() && g.chance(g.fn.risk) }

// fresh returns a new local name with the given prefix.
func (g *gen) fresh(prefix string) string {
	g.fn.nameN++
	return fmt.Sprintf("%s%d", prefix, g.fn.nameN)
}

// declare adds v to the innermost scope.
func (g *gen) declare(v *vr) {
	s := g.fn.scopes
	s[len(s)-1] = append(s[len(s)-1], v)
}

func (g *gen) pushScope() { g.fn.scopes = append(g.fn.scopes, nil) }
func (g *gen) popScope()  { g.fn.scopes = g.fn.scopes[:len(g.fn.scopes)-1] }

// lookup returns the variable a name denotes here, or nil.
func (g *gen) lookup(name string) *vr {
	s := g.fn.scopes
	for i := len(s) - 1; i >= 0; i-- {
		for j := len(s[i]) - 1; j >= 0; j-- {
			if s[i][j].name == name {
				return s[i][j]
			}
		}
	}
	for _, c := range g.consts {
		if c.name == name {
			return c
		}
	}
	return nil
}

// visible returns the variables (and module constants) that may be used
// here and satisfy ok: shadowed names and hidden storage are left out.
func (g *gen) visible(ok func(v *vr) bool) []*vr {
	var out []*vr
	seen := map[string]bool{}
	s := g.fn.scopes
	for i := len(s) - 1; i >= 0; i-- {
		for j := len(s[i]) - 1; j >= 0; j-- {
			v := s[i][j]
			if seen[v.name] {
				continue
			}
			seen[v.name] = true
			if !g.fn.hidden[v.rootOf()] && ok(v) {
				out = append(out, v)
			}
		}
	}
	for _, c := range g.consts {
		if ok(c) {
			out = append(out, c)
		}
	}
	return out
}

// inInnermost reports whether name is declared in the innermost scope.
func (g *gen) inInnermost(name string) bool {
	s := g.fn.scopes
	for _, v := range s[len(s)-1] {
		if v.name == name {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------- functions

// genFunc generates one function (a helper, or an export when export is set)
// and appends it to the program.
func (g *gen) genFunc(name string, export bool) {
	sig := &fnSig{name: name, export: export}
	g.genSignature(sig)
	g.fn = &fnCtx{sig: sig, iter: 1, hidden: map[*vr]bool{}, pure: g.chance(0.5),
		risk: pick(g, []float64{0.003, 0.01, 0.03, 0.08})}
	g.pushScope()
	vars := paramVars(sig)
	for _, v := range vars {
		g.declare(v)
	}
	g.fn.indent = 1
	budget := g.cfg.MaxStmts/2 + g.r.IntN(g.cfg.MaxStmts/2+1)
	if !export {
		budget = budget/2 + 1
	}
	g.prologue()
	for g.fn.stmts < budget {
		g.stmt()
	}
	g.epilogue()
	body := g.fn.b.String()
	sig.eff = g.fn.eff
	sig.cost = g.fn.cost + 1
	g.fn = nil

	var h strings.Builder
	if export {
		h.WriteString("export ")
	}
	fmt.Fprintf(&h, "fn %s(", name)
	for i, p := range sig.params {
		if i > 0 {
			h.WriteString(", ")
		}
		m := ""
		if p.mut {
			m = "mut "
		}
		fmt.Fprintf(&h, "%s: %s%s", p.name, m, p.t)
	}
	h.WriteString(")")
	switch len(sig.results) {
	case 0:
	case 1:
		fmt.Fprintf(&h, " -> %s", sig.results[0])
	default:
		rs := make([]string, len(sig.results))
		for i, r := range sig.results {
			rs[i] = r.String()
		}
		fmt.Fprintf(&h, " -> (%s)", strings.Join(rs, ", "))
	}
	if len(sig.reqs) > 0 {
		conds := make([]string, len(sig.reqs))
		for i, r := range sig.reqs {
			conds[i] = reqText(sig, r)
		}
		fmt.Fprintf(&h, "\n    requires %s\n   ", strings.Join(conds, ", "))
	}
	if export || g.chance(0.3) {
		// A declaration may be larger than what the body does; callers
		// then see the declared effects.
		if sig.eff == 0 && g.chance(0.05) {
			sig.eff = effTrap
		}
		names := sig.eff.names()
		if len(names) == 0 {
			names = []string{"none"}
		}
		fmt.Fprintf(&h, " effects %s", strings.Join(names, ", "))
	}
	h.WriteString(" {\n")
	h.WriteString(body)
	h.WriteString("}\n")
	sig.text = h.String()
	g.funcs = append(g.funcs, sig)
}

// paramVars makes the variables of sig's parameters, with what their
// requires tell of slice lengths.
func paramVars(sig *fnSig) []*vr {
	vars := make([]*vr, len(sig.params))
	for i, p := range sig.params {
		v := &vr{name: p.name, t: p.t, kind: vParam, mut: p.mut, hi: -1}
		for _, r := range sig.reqs {
			switch {
			case r.kind == reqMin && r.a == i:
				v.minLen = max(v.minLen, r.k)
			case r.kind == reqLt && r.a == i:
				v.ltLen = r.k
			}
		}
		for _, r := range sig.reqs {
			if r.kind == reqWordLt && r.a == i {
				v.maxv, v.hasMax = uint64(r.k-1), true
			}
		}
		v.lo = v.minLen
		if v.ltLen > 0 {
			v.hi = v.ltLen - 1
		}
		vars[i] = v
	}
	// Equal lengths share their bounds.
	for k := 0; k < len(sig.reqs); k++ {
		for _, r := range sig.reqs {
			if r.kind != reqEq {
				continue
			}
			a, b := vars[r.a], vars[r.b]
			lo := max(a.lo, b.lo)
			hi := a.hi
			if hi < 0 || (b.hi >= 0 && b.hi < hi) {
				hi = b.hi
			}
			a.lo, b.lo, a.hi, b.hi = lo, lo, hi, hi
		}
	}
	return vars
}

// reqText prints a requires condition.
func reqText(sig *fnSig, r req) string {
	a := sig.params[r.a].name
	switch r.kind {
	case reqMin:
		return fmt.Sprintf("len(%s) >= %d", a, r.k)
	case reqLt:
		return fmt.Sprintf("len(%s) < %d", a, r.k)
	case reqEq:
		return fmt.Sprintf("len(%s) == len(%s)", a, sig.params[r.b].name)
	case reqMod:
		return fmt.Sprintf("len(%s) %% %d == 0", a, r.k)
	case reqWordLt:
		return fmt.Sprintf("%s < %d", a, r.k)
	}
	panic("BUG: randprog: bad requires kind")
}

// arrayWidths are the array lengths parameters and locals use: small, with
// powers of two (masks prove indices) and odd sizes (they do not).
var arrayLens = []int{1, 2, 3, 4, 4, 5, 8, 8, 12, 16}

// genSignature chooses parameters, results and requires.
func (g *gen) genSignature(sig *fnSig) {
	np := g.r.IntN(g.cfg.MaxParams + 1)
	if sig.export {
		np = 2 + g.r.IntN(g.cfg.MaxParams-1)
	}
	for i := 0; i < np; i++ {
		p := param{name: fmt.Sprintf("p%d", i)}
		switch n := g.r.IntN(20); {
		case n < 7:
			p.t = word(g.randWidth())
		case n < 9:
			p.t = tBool
		case n < 13:
			p.t = arrOf(pick(g, arrayLens), word(g.randWidth()))
			p.mut = g.chance(0.5)
		case n < 14:
			p.t = arrOf(2+g.r.IntN(3), arrOf(2+g.r.IntN(3), word(g.randWidth())))
			p.mut = g.chance(0.5)
		default:
			p.t = sliceOf(pick(g, []int{8, 8, 16, 32, 64}))
			if !sig.export {
				p.t = sliceOf(g.randWidth())
			}
			p.mut = g.chance(0.4)
		}
		sig.params = append(sig.params, p)
	}
	nr := 0
	switch n := g.r.IntN(10); {
	case n < 3:
	case n < 7:
		nr = 1
	default:
		nr = 2 + g.r.IntN(2)
	}
	if nr == 0 && sig.export && !sig.hasMut() {
		nr = 1
	}
	for i := 0; i < nr; i++ {
		switch n := g.r.IntN(12); {
		case n < 9:
			sig.results = append(sig.results, word(g.randWidth()))
		case n < 11 || g.cfg.NoArrayRets:
			sig.results = append(sig.results, tBool)
		default:
			sig.results = append(sig.results, arrOf(pick(g, arrayLens), word(g.randWidth())))
		}
	}
	// Requires over word and slice parameters.
	var slices []int
	for i, p := range sig.params {
		if p.t.k == kSlice {
			slices = append(slices, i)
		}
		if p.t.k == kWord && g.chance(0.15) {
			k := pick(g, []int{2, 4, 5, 8, 12, 16, 64, 200})
			if uint64(k) <= mask(p.t.bits) {
				sig.reqs = append(sig.reqs, req{kind: reqWordLt, a: i, k: k})
			}
		}
	}
	for _, i := range slices {
		switch n := g.r.IntN(10); {
		case n < 2:
			sig.reqs = append(sig.reqs, req{kind: reqMin, a: i, k: 1 + g.r.IntN(8)})
		case n < 3:
			sig.reqs = append(sig.reqs, req{kind: reqLt, a: i, k: 2 + g.r.IntN(40)})
		case n < 4 && sig.export:
			sig.reqs = append(sig.reqs, req{kind: reqMod, a: i, k: pick(g, []int{2, 4, 8})})
		}
	}
	if len(slices) >= 2 && g.chance(0.3) {
		a, b := slices[0], slices[1+g.r.IntN(len(slices)-1)]
		sig.reqs = append(sig.reqs, req{kind: reqEq, a: a, b: b})
		// Drop the equality if the other requires make it unsatisfiable.
		vars := paramVars(sig)
		if v := vars[a]; v.hi >= 0 && v.lo > v.hi {
			sig.reqs = sig.reqs[:len(sig.reqs)-1]
		}
	}
}

// lenEq reports whether the function's requires make slices a and b equally long.
func (g *gen) lenEq(a, b *vr) bool {
	sig := g.fn.sig
	for _, r := range sig.reqs {
		if r.kind != reqEq {
			continue
		}
		x, y := sig.params[r.a].name, sig.params[r.b].name
		if (x == a.name && y == b.name) || (x == b.name && y == a.name) {
			return g.lookup(a.name) == a && g.lookup(b.name) == b && a.kind == vParam && b.kind == vParam
		}
	}
	return false
}

// prologue declares a few locals every function starts with, so that
// expressions have variables of several widths to read.
func (g *gen) prologue() {
	// The anchor starts from the arguments when there are some.
	bits := g.randWidth()
	v := &vr{name: g.fresh("v"), t: word(bits), kind: vLocal, mut: true, anchor: true}
	init := g.litEx(g.edgeValue(bits))
	if ps := g.visible(func(v *vr) bool { return v.kind == vParam && (v.t.k == kWord || v.t.flatWords() && v.t.k == kArray) }); len(ps) > 0 {
		init = g.argWord(bits, 1)
	}
	g.use(init)
	g.line("var %s: u%d = %s", v.name, bits, init.s)
	g.declare(v)
	n := g.r.IntN(3)
	for i := 0; i < n; i++ {
		g.declWord(g.randWidth(), true)
	}
}

// epilogue makes the computation observable (writes into mut parameters)
// and returns the results.
func (g *gen) epilogue() {
	sig := g.fn.sig
	if g.chance(0.7) {
		g.sinkToMut()
	}
	if len(sig.results) == 0 {
		if g.chance(0.1) {
			g.line("return")
		}
		return
	}
	g.line("return %s", g.resultList())
}

// resultList builds the expressions of a return statement.
func (g *gen) resultList() string {
	sig := g.fn.sig
	parts := make([]string, len(sig.results))
	for i, t := range sig.results {
		var e ex
		switch t.k {
		case kWord:
			e = g.mixLocals(t.bits)
		case kBool:
			e = g.boolE(g.cfg.MaxExpr)
		case kArray:
			e = g.arrayValue(t)
		}
		g.note(e.eff)
		parts[i] = e.s
	}
	return strings.Join(parts, ", ")
}

// mixLocals combines several visible words into one of the given width, so
// that the values computed by the body reach the result.
func (g *gen) mixLocals(bits int) ex {
	ws := g.visible(func(v *vr) bool { return v.t.k == kWord && v.kind != vConst })
	e := g.wordE(bits, 1, false)
	for k := 0; k < 4 && len(ws) > 0; k++ {
		v := pick(g, ws)
		x := ex{s: v.name, deps: []*vr{v}}
		if v.t.bits != bits {
			x = g.asWord(x, bits)
		}
		e = g.bin(pick(g, []string{"^", "+", "-", "|"}), e, x)
	}
	return e
}

// sinkToMut folds some locals into the elements of mut parameters.
func (g *gen) sinkToMut() {
	for k := 0; k < 3; k++ {
		if !g.assignElem(true) {
			return
		}
	}
}
