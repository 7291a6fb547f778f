// Pass sroa (scalar replacement of aggregates) turns every local array whose
// elements are only ever accessed at constant indexes into SSA values: a
// load becomes the element's current value, a store changes which value that
// is. Values changed inside an if become results of the if; values changed
// inside a loop become loop-carried values of the for. Lowering keeps every
// assigned scalar variable in a one-element local array, so this pass is also
// what puts variables into SSA form; after unrolling it turns arrays such as
// BLAKE2b's [16]u64 work vector into 16 scalars.
//
// An element read before any write reads zero (locals start as zero).
//
// Requires: nothing (arrays passed to calls or accessed by byte-order ops or
// at a variable or out-of-range index stay in memory). Preserves: the
// meaning; removes the promoted arrays from the function's locals.
package ir

import "sort"

func sroa(m *Module, _ *Options) error {
	for _, f := range m.Funcs {
		(&promoter{m: m, f: f}).run()
	}
	return nil
}

type cell struct {
	a *Array
	i int
}

type promoter struct {
	m      *Module
	f      *Function
	cand   map[*Array]bool
	order  map[*Array]int
	sub    subst
	zeros  map[Type]*Value
	prefix []*Instr // zero constants, put at the top of the body
}

// cellEnv maps each promoted element to its current value.
type cellEnv map[cell]*Value

func (e cellEnv) clone() cellEnv {
	n := make(cellEnv, len(e))
	for k, v := range e {
		n[k] = v
	}
	return n
}

func (p *promoter) run() {
	p.cand = map[*Array]bool{}
	p.order = map[*Array]int{}
	for i, a := range p.f.Locals {
		p.cand[a] = true
		p.order[a] = i
	}
	walkInstrs(p.f.Body, func(in *Instr) {
		if in.Arr != nil && p.cand[in.Arr] {
			if (in.Op != OpLoad && in.Op != OpStore) || p.index(in) < 0 {
				delete(p.cand, in.Arr)
			}
		}
		for _, a := range in.Arrs {
			delete(p.cand, a)
		}
	})
	if len(p.cand) == 0 {
		return
	}
	p.sub = subst{}
	p.zeros = map[Type]*Value{}
	p.block(p.f.Body, cellEnv{})
	p.f.Body.Instrs = append(p.prefix, p.f.Body.Instrs...)
	var kept []*Array
	for _, a := range p.f.Locals {
		if !p.cand[a] {
			kept = append(kept, a)
		}
	}
	p.f.Locals = kept
}

// index returns the constant element index of a load or store, or -1.
func (p *promoter) index(in *Instr) int {
	idx, ok := constGroup(in.Args[:p.m.Limbs(IndexType)], p.m.W)
	if !ok || idx >= uint64(in.Arr.Len) {
		return -1
	}
	return int(idx)
}

func (p *promoter) get(env cellEnv, c cell) *Value {
	if v, ok := env[c]; ok {
		return v
	}
	z, ok := p.zeros[c.a.Elem]
	if !ok {
		in := p.f.newInstr(OpConst, []Type{c.a.Elem})
		p.prefix = append(p.prefix, in)
		z = in.Results[0]
		p.zeros[c.a.Elem] = z
	}
	return z
}

func (p *promoter) block(b *Block, env cellEnv) {
	out := b.Instrs[:0]
	for _, in := range b.Instrs {
		p.sub.apply(in)
		if in.Arr != nil && p.cand[in.Arr] {
			c := cell{in.Arr, p.index(in)}
			if in.Op == OpLoad {
				p.sub[in.Results[0]] = p.get(env, c)
			} else {
				env[c] = in.Args[len(in.Args)-1]
			}
			continue
		}
		switch in.Op {
		case OpIf:
			p.ifInstr(in, env)
		case OpFor:
			p.forInstr(in, env)
		}
		out = append(out, in)
	}
	b.Instrs = out
}

func (p *promoter) ifInstr(in *Instr, env cellEnv) {
	envs := []cellEnv{env.clone(), env.clone()}
	for i, blk := range in.Blocks {
		p.block(blk, envs[i])
	}
	changed := map[cell]bool{}
	for _, e := range envs {
		for c, v := range e {
			if p.get(env, c) != v {
				changed[c] = true
			}
		}
	}
	for _, c := range p.sorted(changed) {
		for i, blk := range in.Blocks {
			y := blk.Term()
			y.Args = append(y.Args, p.get(envs[i], c))
		}
		r := p.f.NewValue(c.a.Elem)
		r.Def = in
		in.Results = append(in.Results, r)
		env[c] = r
	}
}

func (p *promoter) forInstr(in *Instr, env cellEnv) {
	body := in.Blocks[0]
	stored := map[cell]bool{}
	walkInstrs(body, func(s *Instr) {
		if s.Op == OpStore && p.cand[s.Arr] {
			stored[cell{s.Arr, p.index(s)}] = true
		}
	})
	cells := p.sorted(stored)
	inner := env.clone()
	for _, c := range cells {
		in.Args = append(in.Args, p.get(env, c))
		prm := p.f.NewValue(c.a.Elem)
		body.Params = append(body.Params, prm)
		inner[c] = prm
	}
	p.block(body, inner)
	y := body.Term()
	for _, c := range cells {
		y.Args = append(y.Args, p.get(inner, c))
		r := p.f.NewValue(c.a.Elem)
		r.Def = in
		in.Results = append(in.Results, r)
		env[c] = r
	}
}

// sorted lists cells in a stable order: by array, then element.
func (p *promoter) sorted(set map[cell]bool) []cell {
	out := make([]cell, 0, len(set))
	for c := range set {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].a != out[j].a {
			return p.order[out[i].a] < p.order[out[j].a]
		}
		return out[i].i < out[j].i
	})
	return out
}
