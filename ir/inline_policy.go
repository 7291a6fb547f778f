package ir

import "fmt"

// The inline pass's policy (Options.InlineBudget): which calls to inline,
// and the sizes and call-site counts it decides by.

// inlinePlan carries the policy's state across functions.
type inlinePlan struct {
	m     *Module
	o     *Options
	size  map[*Function]int // the measured size of a finished function
	sites map[*Function]int // calls of a function left in reachable code
}

// wants reports whether the policy inlines a call of callee.
func (pl *inlinePlan) wants(callee *Function) bool {
	b := pl.o.InlineBudget
	if fb, ok := pl.o.InlineFunc[callee.QualName]; ok {
		b = fb
	}
	switch {
	case pl.o.KeepExportCalls && callee.Export:
		return false
	case b == InlineAll:
		return true
	case b < 0:
		return false
	}
	return pl.size[callee] <= b || (!callee.Export && pl.sites[callee] == 1)
}

// function inlines the chosen calls of f (whose callees are finished), then
// optimizes and measures f when the policy needs its size.
func (pl *inlinePlan) function(f *Function) error {
	il := &inliner{f: f, locals: map[*Array]*Array{}, sub: subst{}, size: countInstrs(f.Body), plan: pl}
	il.block(f.Body)
	if il.size > maxFunctionSize {
		return fmt.Errorf("inline: %s grows beyond %d instructions once its calls are inlined", f.Name, maxFunctionSize)
	}
	if pl.o.InlineBudget <= 0 {
		return nil
	}
	run := pl.o.runPasses
	if run == nil {
		// A pass run on its own (a unit test): measure f as it is.
		pl.size[f] = countInstrs(f.Body)
		return nil
	}
	sub := &Module{Name: pl.m.Name, Globals: pl.m.Globals, Funcs: []*Function{f}, outer: pl.m}
	if err := run(sub, "inline", "legalize", pl.o.Verify); err != nil {
		return fmt.Errorf("optimizing %s: %w", f.Name, err)
	}
	if pl.o.W == 0 {
		pl.size[f] = countInstrs(f.Body)
		return nil
	}
	// Legalize a copy: the copy's calls name callees that are not
	// legalized, so it is not verified.
	cp := copyFunction(pl.m, f)
	if err := run(cp, "inline", "", false); err != nil {
		return fmt.Errorf("measuring %s at W=%d: %w", f.Name, pl.o.W, err)
	}
	pl.size[f] = countInstrs(cp.Funcs[0].Body)
	return nil
}

// copyFunction returns a module holding a deep copy of f and of m's
// globals, which legalization may rewrite without touching m.
func copyFunction(m *Module, f *Function) *Module {
	nf := &Function{Name: f.Name, QualName: f.QualName, Export: f.Export, Pos: f.Pos, Source: f.Source, Sig: f.Sig, Results: append([]Type(nil), f.Results...)}
	c := newCloner(nf)
	cp := &Module{Name: m.Name, Funcs: []*Function{nf}, outer: m}
	for _, g := range m.Globals {
		ng := *g
		ng.Data = append([]uint64(nil), g.Data...)
		cp.Globals = append(cp.Globals, &ng)
		c.arrs[g] = &ng
	}
	for _, p := range f.Params {
		np := &Param{Name: p.Name}
		if p.Arr != nil {
			a := *p.Arr
			np.Arr = &a
			c.arrs[p.Arr] = &a
		} else {
			np.Val = c.fresh(p.Val)
		}
		nf.Params = append(nf.Params, np)
	}
	for _, l := range f.Locals {
		a := *l
		nf.Locals = append(nf.Locals, &a)
		c.arrs[l] = &a
	}
	nf.Body = c.block(f.Body)
	return cp
}

// inlined updates the call-site counts for one call of callee replaced by
// its body: the calls in the body are now made from the caller too, and a
// function no longer called (and not exported) no longer makes its calls.
func (pl *inlinePlan) inlined(callee *Function) {
	walkInstrs(callee.Body, func(in *Instr) {
		if in.Op == OpCall {
			pl.sites[in.Callee]++
		}
	})
	pl.dropSite(callee)
}

func (pl *inlinePlan) dropSite(f *Function) {
	pl.sites[f]--
	if pl.sites[f] > 0 || f.Export {
		return
	}
	walkInstrs(f.Body, func(in *Instr) {
		if in.Op == OpCall {
			pl.dropSite(in.Callee)
		}
	})
}

// reachable returns the functions still reachable from the exports, every
// callee before its callers and otherwise in the module's order (so that,
// with no call left, the exports keep their order).
func (pl *inlinePlan) reachable() []*Function {
	done := map[*Function]bool{}
	var kept []*Function
	var visit func(f *Function)
	visit = func(f *Function) {
		if done[f] {
			return
		}
		done[f] = true
		walkInstrs(f.Body, func(in *Instr) {
			if in.Op == OpCall {
				visit(in.Callee)
			}
		})
		kept = append(kept, f)
	}
	for _, f := range pl.m.Funcs {
		if f.Export {
			visit(f)
		}
	}
	return kept
}
