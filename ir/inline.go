// Pass inline replaces calls by copies of their callees' bodies, callees
// first. Which calls it replaces is Options.InlineBudget's choice:
//
//   - InlineAll (0, the default): every call, so that each exported
//     function becomes one call-free function; the functions that are not
//     exported are dropped.
//   - a budget B > 0: each function, once its own chosen calls are
//     inlined, is optimized on its own (the passes between inline and
//     legalize) and measured: its size is its instruction count after that,
//     and after legalization at Options.W (on a copy) when W > 0, since
//     that is what a backend translates. A call is inlined when its callee's
//     size is at most B, or when the callee is not exported and this is its
//     only call site (inlining it then adds no code). Other calls stay.
//     See inline_policy.go.
//   - InlineNone (< 0): no call.
//
// Afterwards the module holds the exports and every function still called
// (directly or not) from one; unreachable functions are dropped. m.Funcs
// lists every callee before its callers.
//
// A callee's scalar parameters become the call's arguments. Its array
// parameters become regions of the caller's arrays: an access p[i] becomes
// a[off+i] and len(p) the region's length. Its local arrays become locals of
// the caller, one per callee local and caller (frames are static and a callee
// initializes its locals before reading them, so call sites can share them).
//
// Requires: no recursion (the language has none; a cycle is reported as an
// error). Preserves: everything else; with InlineAll the result has no OpCall
// (but the calls of exports Options.KeepExportCalls keeps).
package ir

import "fmt"

// maxFunctionSize bounds a function after inlining: a program whose calls
// multiply (each function calling the next several times) is refused
// rather than exhausting memory.
var maxFunctionSize = 1 << 20

func inline(m *Module, o *Options) error {
	order, err := callOrder(m)
	if err != nil {
		return err
	}
	pl := &inlinePlan{m: m, o: o, size: map[*Function]int{}, sites: map[*Function]int{}}
	for _, f := range order {
		walkInstrs(f.Body, func(in *Instr) {
			if in.Op == OpCall {
				pl.sites[in.Callee]++
			}
		})
	}
	for _, f := range order {
		if err := pl.function(f); err != nil {
			return err
		}
	}
	m.Funcs = pl.reachable()
	return nil
}

// callOrder returns the functions reachable from the exports, every callee
// before its callers (exports in their order otherwise), or an error naming
// a recursive call.
func callOrder(m *Module) ([]*Function, error) {
	state := map[*Function]int{} // 1: in progress, 2: done
	var order []*Function
	var visit func(f *Function) error
	visit = func(f *Function) error {
		switch state[f] {
		case 1:
			return fmt.Errorf("inline: recursive call of %s", f.Name)
		case 2:
			return nil
		}
		state[f] = 1
		var err error
		walkInstrs(f.Body, func(in *Instr) {
			if in.Op == OpCall && err == nil {
				err = visit(in.Callee)
			}
		})
		if err != nil {
			return err
		}
		state[f] = 2
		order = append(order, f)
		return nil
	}
	for _, f := range m.Funcs {
		if f.Export {
			if err := visit(f); err != nil {
				return nil, err
			}
		}
	}
	return order, nil
}

type inliner struct {
	f      *Function
	locals map[*Array]*Array // callee local -> this function's copy
	sub    subst
	size   int // instructions in f so far
	plan   *inlinePlan
}

func (il *inliner) block(b *Block) {
	var out []*Instr
	for _, in := range b.Instrs {
		il.sub.apply(in)
		for _, blk := range in.Blocks {
			il.block(blk)
		}
		if in.Op != OpCall || il.size > maxFunctionSize || !il.plan.wants(in.Callee) {
			out = append(out, in)
			continue
		}
		il.size += countInstrs(in.Callee.Body)
		il.plan.inlined(in.Callee)
		out = il.expand(in, out)
	}
	b.Instrs = out
}

// expand appends the callee's body in place of the call in.
func (il *inliner) expand(call *Instr, out []*Instr) []*Instr {
	callee := call.Callee
	c := newCloner(il.f)
	ns := len(call.Args) - 2*len(call.Arrs)
	si, ai := 0, 0
	for _, p := range callee.Params {
		if p.Arr == nil {
			c.vals[p.Val] = call.Args[si]
			si++
			continue
		}
		r := region{arr: call.Arrs[ai], off: call.Args[ns+2*ai], len: call.Args[ns+2*ai+1]}
		c.regions[p.Arr] = r
		ai++
	}
	for _, l := range callee.Locals {
		nl, ok := il.locals[l]
		if !ok {
			nl = il.f.NewLocal(callee.Name+"."+l.Name, l.Elem, l.Len)
			il.locals[l] = nl
		}
		c.arrs[l] = nl
	}
	body := callee.Body.Instrs
	ret := body[len(body)-1]
	out = c.instrs(body[:len(body)-1], out)
	for i, r := range call.Results {
		il.sub[r] = c.val(ret.Args[i])
	}
	return out
}
