package randprog

import (
	"fmt"
	"strings"
)

// argLen is what the generator knows of the length of an array or slice
// argument: every length in lo..hi (hi < 0: unbounded); rest marks
// rest(x, N), which the checker knows to be shorter than N.
type argLen struct {
	lo, hi int
	rest   bool
}

func exactLen(n int) argLen  { return argLen{lo: n, hi: n} }
func varLen(v *vr) argLen    { lo, hi := v.lenRange(); return argLen{lo: lo, hi: hi} }
func (a argLen) exact() bool { return a.lo == a.hi }

// callees returns the functions generated so far that a call here may use:
// cheap enough for the loops around the call, and satisfying ok.
func (g *gen) callees(ok func(f *fnSig) bool) []*fnSig {
	var out []*fnSig
	for _, f := range append(g.extern[:len(g.extern):len(g.extern)], g.funcs...) {
		if f.cost*g.fn.iter <= g.cfg.MaxWork/2 && g.fn.cost+f.cost*g.fn.iter <= g.cfg.MaxWork && g.allowed(f.eff) && ok(f) {
			out = append(out, f)
		}
	}
	return out
}

// callArgs builds the arguments of a call to f. Mut arguments are writable
// places of distinct storage that no other argument reads. It reports false
// when no valid arguments exist here (or a requires would be false at
// compile time). The result carries the effects of the arguments, of the
// callee, and of a run-time requires check.
func (g *gen) callArgs(f *fnSig, d int) (ex, bool) {
	args := make([]string, len(f.params))
	lens := make([]argLen, len(f.params))
	var parts []ex
	var hidden []*vr
	defer func() {
		for _, h := range hidden {
			delete(g.fn.hidden, h)
		}
	}()
	for i, p := range f.params {
		if !p.mut {
			continue
		}
		e, l, ok := g.mutArg(p.t, d)
		if !ok {
			return ex{}, false
		}
		args[i], lens[i] = e.s, l
		parts = append(parts, e)
		// Hide the storage written (not the words of its index).
		for _, v := range e.deps {
			if v.t.indexable() && !g.fn.hidden[v.rootOf()] {
				g.fn.hidden[v.rootOf()] = true
				hidden = append(hidden, v.rootOf())
			}
		}
	}
	for i, p := range f.params {
		if p.mut {
			continue
		}
		var e ex
		var l argLen
		switch p.t.k {
		case kWord:
			if k := wordBound(f, i); k > 0 {
				e = g.boundedWord(p.t.bits, k, d)
				break
			}
			e = g.wordE(p.t.bits, d, true)
		case kBool:
			e = g.boolE(d)
		case kArray:
			e = g.arrayValue(p.t)
			l = exactLen(p.t.n)
		case kSlice:
			var ok bool
			if e, l, ok = g.sliceArg(p.t.bits, d); !ok {
				return ex{}, false
			}
		}
		args[i], lens[i] = e.s, l
		parts = append(parts, e)
	}
	call := join(fmt.Sprintf("%s(%s)", f.name, strings.Join(args, ", ")), parts...)
	call.konst = false
	call.eff |= f.eff
	call.cost += f.cost
	for _, r := range f.reqs {
		a := lens[r.a]
		switch r.kind {
		case reqMin:
			if a.hi >= 0 && a.hi < r.k {
				return ex{}, false // false at compile time: an error
			}
			if a.exact() && a.lo >= r.k {
				continue
			}
		case reqLt:
			if a.lo >= r.k {
				return ex{}, false
			}
			if a.hi >= 0 && a.hi < r.k && (a.exact() || a.rest) {
				continue
			}
		case reqEq:
			b := lens[r.b]
			if !overlaps(a.lo, a.hi, b.lo, b.hi) {
				return ex{}, false
			}
			if a.exact() && b.exact() {
				continue
			}
		case reqWordLt:
			continue // boundedWord proved it, or carries the trap itself
		case reqMod:
			if a.exact() {
				if a.lo%r.k != 0 {
					return ex{}, false
				}
				continue
			}
		}
		if g.noTrap() {
			return ex{}, false
		}
		call.eff |= effTrap // checked at run time before the call
	}
	return call, true
}

// wordBound returns k when f requires its word parameter i to be below k,
// else 0.
func wordBound(f *fnSig, i int) int {
	for _, r := range f.reqs {
		if r.kind == reqWordLt && r.a == i {
			return r.k
		}
	}
	return 0
}

// boundedWord returns an argument for a word parameter required to be below
// k: proven (a small constant, x & (k-1), x % k), or where traps are allowed,
// a value from the arguments checked at run time.
func (g *gen) boundedWord(bits, k, d int) ex {
	// A value straight from the arguments has no known lower bound, so the
	// condition cannot be false at compile time.
	if g.hasArgWords() && (g.risky() || g.chance(0.05) && !g.noTrap()) {
		e := g.argWord(bits, d)
		e.eff |= effTrap
		return e
	}
	switch g.r.IntN(3) {
	case 0:
		return intEx(g.r.IntN(k))
	case 1:
		if k&(k-1) == 0 {
			return g.bin("&", g.nonConstWord(bits, d), intEx(k-1))
		}
	}
	return g.bin("%", g.nonConstWord(bits, d), intEx(k))
}

// mutArg returns a writable place of type t (an array or slice type):
// a var array, a mut parameter, a writable view, or a row of a writable
// nested array. For a slice type any writable flat array of its words fits.
func (g *gen) mutArg(t *ty, d int) (ex, argLen, bool) {
	var opts []*vr
	var rows []*vr
	for _, v := range g.writableArrays() {
		switch {
		case t.k == kArray && v.t.same(t):
			opts = append(opts, v)
		case t.k == kSlice && v.t.flatWords() && v.t.bits == t.bits:
			opts = append(opts, v)
		case v.t.k == kArray && ((t.k == kArray && v.t.elem.same(t)) || (t.k == kSlice && v.t.elem.flatWords() && v.t.elem.bits == t.bits)):
			rows = append(rows, v)
		}
	}
	if len(rows) > 0 && (len(opts) == 0 || g.chance(0.25)) {
		v := pick(g, rows)
		idx := g.arrayIndex(v.t.n, d)
		return join(fmt.Sprintf("%s[%s]", v.name, idx.s), varEx(v), idx), exactLen(v.t.elem.n), true
	}
	if len(opts) == 0 {
		return ex{}, argLen{}, false
	}
	v := pick(g, opts)
	return varEx(v), varLen(v), true
}

// sliceArg returns a value for a read-only []uBITS parameter: an array, a
// slice, a view, or rest(x, N).
func (g *gen) sliceArg(bits, d int) (ex, argLen, bool) {
	srcs := g.visible(func(v *vr) bool { return v.t.flatWords() && v.t.bits == bits })
	var rows []*vr
	for _, v := range g.visible(func(v *vr) bool { return v.t.k == kArray && v.t.elem.flatWords() && v.t.elem.bits == bits }) {
		rows = append(rows, v)
	}
	if len(srcs) == 0 && len(rows) == 0 {
		return ex{}, argLen{}, false
	}
	if len(srcs) == 0 || (len(rows) > 0 && g.chance(0.15)) {
		v := pick(g, rows)
		idx := g.arrayIndex(v.t.n, d)
		return join(fmt.Sprintf("%s[%s]", v.name, idx.s), varEx(v), idx), exactLen(v.t.elem.n), true
	}
	v := pick(g, srcs)
	if g.chance(0.3) {
		n := 1 + g.r.IntN(9)
		l := argLen{lo: 0, hi: n - 1, rest: true}
		if v.t.k == kArray {
			l = exactLen(v.t.n % n)
		}
		return join(fmt.Sprintf("rest(%s, %d)", v.name, n), varEx(v)), l, true
	}
	return varEx(v), varLen(v), true
}

// callE is a call of a function with one result of type t and no mut
// parameters, inside an expression.
func (g *gen) callE(t *ty, d int) (ex, bool) {
	fs := g.callees(func(f *fnSig) bool { return len(f.results) == 1 && f.results[0].same(t) && !f.hasMut() })
	if len(fs) == 0 {
		return ex{}, false
	}
	return g.callArgs(pick(g, fs), d-1)
}

// callStmt calls a function as a statement: for its mut arguments, binding
// its results with let/var (destructuring several), or assigning them.
func (g *gen) callStmt() bool {
	fs := g.callees(func(f *fnSig) bool { return true })
	if len(fs) == 0 {
		return false
	}
	f := pick(g, fs)
	d := g.cfg.MaxExpr - 1
	call, ok := g.callArgs(f, d)
	if !ok {
		// Give the mut parameters fresh locals to write, then retry once.
		for _, p := range f.params {
			if p.mut && p.t.k == kArray && g.chance(0.7) {
				v := &vr{name: g.fresh("t"), t: p.t, kind: vLocal, mut: true}
				g.line("var %s: %s", v.name, v.t)
				g.declare(v)
			}
		}
		if call, ok = g.callArgs(f, d); !ok {
			return false
		}
	}
	g.use(call)
	switch len(f.results) {
	case 0:
		g.line("%s", call.s)
		return true
	case 1:
		t := f.results[0]
		if !f.hasMut() && g.chance(0.3) {
			if v := g.assignable(t, nil); v != nil {
				g.line("%s = %s", v.name, call.s)
				return true
			}
		}
		kw := pick(g, []string{"let", "var"})
		v := &vr{name: g.fresh(prefixOf(t)), t: t, kind: vLocal, mut: kw == "var"}
		if g.chance(0.5) {
			g.line("%s %s: %s = %s", kw, v.name, t, call.s)
		} else {
			g.line("%s %s = %s", kw, v.name, call.s)
		}
		g.declare(v)
		return true
	}
	// Several results: destructure, assign to distinct locals, or (with
	// ElemTargets) to elements of arrays.
	if g.cfg.ElemTargets && !f.hasMut() && g.chance(0.7) {
		if targets := g.elemTargets(f.results); targets != nil {
			g.line("%s = %s", strings.Join(targets, ", "), call.s)
			return true
		}
	}
	if g.chance(0.35) {
		var targets []string
		taken := map[*vr]bool{}
		for _, t := range f.results {
			v := g.assignable(t, taken)
			if v == nil {
				targets = nil
				break
			}
			taken[v] = true
			targets = append(targets, v.name)
		}
		if targets != nil {
			g.line("%s = %s", strings.Join(targets, ", "), call.s)
			return true
		}
	}
	kw := pick(g, []string{"let", "var"})
	var names []string
	var vars []*vr
	for _, t := range f.results {
		if g.chance(0.2) && len(names) > 0 {
			names = append(names, "_")
			continue
		}
		v := &vr{name: g.fresh(prefixOf(t)), t: t, kind: vLocal, mut: kw == "var"}
		names = append(names, v.name)
		vars = append(vars, v)
	}
	g.line("%s (%s) = %s", kw, strings.Join(names, ", "), call.s)
	for _, v := range vars {
		g.declare(v)
	}
	return true
}

// assignable returns a local that a value of type t may be assigned to
// (not in taken), or nil.
func (g *gen) assignable(t *ty, taken map[*vr]bool) *vr {
	vs := g.visible(func(v *vr) bool { return v.kind == vLocal && v.mut && v.t.same(t) && !taken[v] })
	if len(vs) == 0 {
		return nil
	}
	return pick(g, vs)
}

// prefixOf is the name prefix of a local of type t.
func prefixOf(t *ty) string {
	switch t.k {
	case kBool:
		return "b"
	case kArray:
		return "a"
	}
	return "v"
}

// elemTargets chooses where the results of a multi-result call go: for
// each word result an element of a writable array (flat or a nested row)
// or a local, at least one of them an element, none whose index may trap
// (so the call is the only thing that may), and no target writing what
// another one reads or writes (so the order of the assignments does not
// matter). It returns nil when there is none.
func (g *gen) elemTargets(results []*ty) []string {
	type target struct {
		s     string
		root  *vr
		reads []*vr
	}
	var ts []target
	elems := 0
	clash := func(c target) bool {
		for _, t := range ts {
			if t.root == c.root {
				return true
			}
			for _, r := range c.reads {
				if r.rootOf() == t.root {
					return true
				}
			}
			for _, r := range t.reads {
				if r.rootOf() == c.root {
					return true
				}
			}
		}
		return false
	}
	for _, t := range results {
		var found *target
		if t.k == kWord {
			for try := 0; try < 4 && found == nil; try++ {
				e, bits, ok := g.writableElem(1)
				if !ok || bits != t.bits || e.eff != 0 || len(e.deps) == 0 {
					continue
				}
				c := target{s: e.s, root: e.deps[0].rootOf(), reads: e.deps[1:]}
				if !clash(c) {
					found = &c
					elems++
				}
			}
		}
		if found == nil {
			taken := map[*vr]bool{}
			for _, t := range ts {
				taken[t.root] = true
				for _, r := range t.reads {
					taken[r.rootOf()] = true
				}
			}
			v := g.assignable(t, taken)
			if v == nil {
				return nil
			}
			found = &target{s: v.name, root: v.rootOf()}
		}
		ts = append(ts, *found)
	}
	if elems == 0 {
		return nil
	}
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.s
	}
	return out
}
