package lang

import (
	"fmt"
	"strings"
)

// site is one place in a function body that brings in effects or features:
// a run-time check (trap), an unsafe or io builtin, a builtin that may use a
// hardware feature, or a call (the callee's effects and features).
type site struct {
	pos     Pos
	eff     EffectSet
	feat    FeatureSet
	callee  *FuncDecl
	note    string        // the note naming this step of a call path
	absorbs []*absorbInfo // enclosing absorb blocks, outermost first
}

// absorbInfo is an absorb block: the effects it stops and, once inferred,
// the effects its body has.
type absorbInfo struct {
	stmt *AbsorbStmt
	set  EffectSet
	body EffectSet
}

func (c *checker) addSite(s *site) {
	if c.cur == nil || c.inRequires {
		return
	}
	s.absorbs = append([]*absorbInfo(nil), c.absorbs...)
	c.cur.sites = append(c.cur.sites, s)
}

// trapSite records a run-time check; what says what is checked.
func (c *checker) trapSite(p Pos, what string) {
	if c.cur == nil {
		return
	}
	c.addSite(&site{pos: p, eff: EffectSet(EffTrap), note: c.cur.decl.Name + ": " + what})
}

// effectSite records a builtin with an effect of its own.
func (c *checker) effectSite(p Pos, e Effect, builtin string) {
	if c.cur == nil {
		return
	}
	c.addSite(&site{pos: p, eff: EffectSet(e), note: fmt.Sprintf("%s calls %s (%s)", c.cur.decl.Name, builtin, e)})
}

// featureSite records a builtin that may use hardware features.
func (c *checker) featureSite(p Pos, f FeatureSet) {
	c.addSite(&site{pos: p, feat: f})
}

// callSite records a call of a function.
func (c *checker) callSite(e *CallExpr, fn *FuncDecl) {
	c.addSite(&site{pos: e.Pos, callee: fn, note: fmt.Sprintf("%s calls %s", c.cur.decl.Name, calleeName(e))})
}

// reach is what a site brings to its function: its effects less those the
// enclosing absorb blocks stop.
func (s *site) reach() EffectSet {
	e := s.raw()
	for i := len(s.absorbs) - 1; i >= 0; i-- {
		e &^= s.absorbs[i].set
	}
	return e
}

// raw is a site's effects before absorb blocks.
func (s *site) raw() EffectSet {
	e := s.eff
	if s.callee != nil {
		e |= s.callee.Inferred
	}
	return e
}

// inferEffects computes every function's effects and features: those of its
// sites, callees included, to a fixpoint (which also terminates on the call
// cycles already reported). Then it checks absorb blocks and declared effects.
func (c *checker) inferEffects() {
	for _, info := range c.funcs {
		info.decl.Inferred, info.decl.Features = 0, 0
	}
	for changed := true; changed; {
		changed = false
		for _, info := range c.funcs {
			var eff EffectSet
			var feat FeatureSet
			for _, s := range info.sites {
				eff |= s.reach()
				feat |= s.feat
				if s.callee != nil {
					feat |= s.callee.Features
				}
			}
			if eff != info.decl.Inferred || feat != info.decl.Features {
				info.decl.Inferred, info.decl.Features = eff, feat
				changed = true
			}
		}
	}
	for _, info := range c.funcs {
		info.tainted = info.hadErrors
	}
	for changed := true; changed; {
		changed = false
		for _, info := range c.funcs {
			for _, e := range info.calls {
				if callee := c.infos[e.callee]; callee != nil && callee.tainted && !info.tainted {
					info.tainted, changed = true, true
				}
			}
		}
	}
	for _, info := range c.funcs {
		c.checkAbsorbs(info)
		c.checkDeclared(info)
	}
}

// checkAbsorbs rejects absorb blocks that list an effect their body does not have.
func (c *checker) checkAbsorbs(info *funcInfo) {
	for _, a := range info.absorbs {
		a.body = 0
	}
	for _, s := range info.sites {
		e := s.raw()
		for i := len(s.absorbs) - 1; i >= 0; i-- {
			s.absorbs[i].body |= e
			e &^= s.absorbs[i].set
		}
	}
	for _, a := range info.absorbs {
		if extra := a.set &^ a.body; extra != 0 && !info.tainted {
			c.errorf(a.stmt.Pos, "absorb lists %s but its body has no %s %s", extra, extra, plural(extra, "effect", "effects"))
		}
	}
}

// checkDeclared rejects a declared effect set smaller than the inferred one,
// with the call path to the origin of every missing effect as notes.
func (c *checker) checkDeclared(info *funcInfo) {
	fn := info.decl
	if fn.Effects == nil {
		return
	}
	missing := fn.Inferred &^ fn.Effects.Set
	if missing == 0 {
		return
	}
	kw := "fn"
	if fn.Export {
		kw = "export fn"
	}
	d := c.errorf(fn.Pos, "%s %s declares effects %s but may have %s %s",
		kw, fn.Name, fn.Effects.Set, plural(missing, "effect", "effects"), missing)
	for _, e := range AllEffects {
		if missing.Has(e) {
			d.Notes = append(d.Notes, c.effectPath(info, e)...)
		}
	}
}

// effectPath follows effect e from a function to where it starts: the first
// site that brings it in, then into that callee, and so on.
func (c *checker) effectPath(info *funcInfo, e Effect) []Note {
	var notes []Note
	seen := map[*funcInfo]bool{}
	for info != nil && !seen[info] {
		seen[info] = true
		var next *funcInfo
		for _, s := range info.sites {
			if !s.reach().Has(e) {
				continue
			}
			if s.callee != nil && s.callee.Inferred.Has(e) {
				notes = append(notes, Note{Pos: s.pos, Msg: s.note})
				next = c.infos[s.callee]
				break
			}
			if s.eff.Has(e) {
				notes = append(notes, Note{Pos: s.pos, Msg: s.note})
				break
			}
		}
		info = next
	}
	return notes
}

// checkRecursion reports every call cycle (strongly connected component of
// the call graph with a cycle), naming the cycle.
func (c *checker) checkRecursion() {
	index := map[*funcInfo]int{}
	low := map[*funcInfo]int{}
	onStack := map[*funcInfo]bool{}
	var stack []*funcInfo
	var sccs [][]*funcInfo
	next := 0
	var visit func(v *funcInfo)
	visit = func(v *funcInfo) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, e := range v.calls {
			w := c.infos[e.callee]
			if w == nil {
				continue
			}
			if _, ok := index[w]; !ok {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var scc []*funcInfo
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				scc = append(scc, w)
				if w == v {
					break
				}
			}
			sccs = append(sccs, scc)
		}
	}
	for _, f := range c.funcs {
		if _, ok := index[f]; !ok {
			visit(f)
		}
	}
	order := map[*funcInfo]int{}
	for i, f := range c.funcs {
		order[f] = i
	}
	for _, scc := range sccs {
		in := map[*funcInfo]bool{}
		start := scc[0]
		for _, f := range scc {
			in[f] = true
			if order[f] < order[start] {
				start = f
			}
		}
		if path := c.cycleFrom(start, in); path != nil {
			c.reportCycle(start, path)
		}
	}
}

// cycleFrom finds the shortest call path from start back to start inside
// the component in, as the list of call edges taken (nil when none).
func (c *checker) cycleFrom(start *funcInfo, in map[*funcInfo]bool) []callEdge {
	type step struct {
		from *funcInfo
		edge callEdge
	}
	prev := map[*funcInfo]step{}
	queue := []*funcInfo{start}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, e := range v.calls {
			w := c.infos[e.callee]
			if w == nil || !in[w] {
				continue
			}
			if w == start {
				path := []callEdge{e}
				for x := v; x != start; x = prev[x].from {
					path = append([]callEdge{prev[x].edge}, path...)
				}
				return path
			}
			if _, ok := prev[w]; !ok {
				prev[w] = step{v, e}
				queue = append(queue, w)
			}
		}
	}
	return nil
}

func (c *checker) reportCycle(start *funcInfo, path []callEdge) {
	names := []string{start.decl.Name}
	caller := start.decl.Name
	var notes []Note
	for _, e := range path {
		names = append(names, e.name)
		notes = append(notes, Note{Pos: e.pos, Msg: caller + " calls " + e.name})
		caller = e.callee.Name
	}
	d := c.errorf(path[0].pos, "recursion is not allowed: %s", strings.Join(names, " -> "))
	d.Notes = notes
}
