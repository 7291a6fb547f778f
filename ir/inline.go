// Pass inline replaces every call by a copy of its callee's body, callees
// first, so that each exported function becomes one call-free function; then
// it drops the functions that are not exported.
//
// A callee's scalar parameters become the call's arguments. Its array
// parameters become regions of the caller's arrays: an access p[i] becomes
// a[off+i] and len(p) the region's length. Its local arrays become locals of
// the caller, one per callee local and caller (frames are static and a callee
// initializes its locals before reading them, so call sites can share them).
//
// Requires: no recursion (the language has none; a cycle is reported as an
// error). Preserves: everything else; the result has no OpCall.
package ir

import "fmt"

// maxFunctionSize bounds a function after inlining: a program whose calls
// multiply (each function calling the next several times) is refused
// rather than exhausting memory.
var maxFunctionSize = 1 << 20

func inline(m *Module, _ *Options) error {
	state := map[*Function]int{} // 1: in progress, 2: done
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
		in := &inliner{f: f, locals: map[*Array]*Array{}, sub: subst{}, size: countInstrs(f.Body)}
		in.block(f.Body)
		state[f] = 2
		if in.size > maxFunctionSize {
			return fmt.Errorf("inline: %s grows beyond %d instructions once its calls are inlined", f.Name, maxFunctionSize)
		}
		return nil
	}
	var kept []*Function
	for _, f := range m.Funcs {
		if err := visit(f); err != nil {
			return err
		}
		if f.Export {
			kept = append(kept, f)
		}
	}
	m.Funcs = kept
	return nil
}

type inliner struct {
	f      *Function
	locals map[*Array]*Array // callee local -> this function's copy
	sub    subst
	size   int // instructions in f so far
}

func (il *inliner) block(b *Block) {
	var out []*Instr
	for _, in := range b.Instrs {
		il.sub.apply(in)
		for _, blk := range in.Blocks {
			il.block(blk)
		}
		if in.Op != OpCall || il.size > maxFunctionSize {
			out = append(out, in)
			continue
		}
		il.size += countInstrs(in.Callee.Body)
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
