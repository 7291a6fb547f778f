package mos6502

import "github.com/lowent/lowentc/ir"

// Runs of accesses through one computed address. A load or store of
// arr[i + k], with i a run-time index and k a constant (the words of a
// chunk, a message block), reaches its byte with `(zp),y`: the pointer
// at zpTP is set to arr + i once, and each access of the run only loads
// k into Y. The add that computed i + k is then not emitted when nothing
// else reads it. (Under --opt size the same is done for b|k indices,
// mem.go's splitLow.)

// addrBase is a computed address split as arr + lo + 256*hi + off.
type addrBase struct {
	lo, hi *ir.Value
	off    int
}

// splitAdd returns the base and offset of a two-limb index computed as
// (lo, hi) + k by an add with carry, k a constant byte.
func splitAdd(g *fgen, idx []*ir.Value) (addrBase, bool) {
	if len(idx) < 2 {
		return addrBase{}, false
	}
	d0, d1 := idx[0].Def, idx[1].Def
	if d0 == nil || d1 == nil || d0.Op != ir.OpAddC || d1.Op != ir.OpAddC ||
		d0.Results[0] != idx[0] || d1.Results[0] != idx[1] || d1.Args[2] != d0.Results[1] {
		return addrBase{}, false
	}
	if c, ok := g.constOf(d0.Args[2]); !ok || c != 0 {
		return addrBase{}, false
	}
	// constPart returns the operand of an add that is a constant and the other one.
	constPart := func(d *ir.Instr) (*ir.Value, byte, bool) {
		if c, ok := g.constOf(d.Args[1]); ok {
			return d.Args[0], c, true
		}
		if c, ok := g.constOf(d.Args[0]); ok {
			return d.Args[1], c, true
		}
		return nil, 0, false
	}
	lo, k, ok := constPart(d0)
	if !ok {
		return addrBase{}, false
	}
	hi, z, ok := constPart(d1)
	if !ok || z != 0 {
		return addrBase{}, false
	}
	return addrBase{lo: lo, hi: hi, off: int(k)}, true
}

// memIndex returns the index limbs of a load or store, or nil.
func memIndex(in *ir.Instr) []*ir.Value {
	switch in.Op {
	case ir.OpLoad, ir.OpLoadLE, ir.OpLoadBE:
		return in.Args
	case ir.OpStore, ir.OpStoreLE, ir.OpStoreBE:
		return in.Args[:len(in.Args)-1]
	}
	return nil
}

// planAddrs finds the accesses of f addressed as base + constant and the
// index adds that then need no code.
func planAddrs(g *fgen, p *linearPlan) {
	p.addrs = map[*ir.Instr]addrBase{}
	rem := map[*ir.Value]int{} // uses left once the planned accesses read their bases
	for v, n := range g.lv.uses {
		rem[v] = n
	}
	var all []*ir.Instr
	ir.WalkInstrs(g.f.Body, func(in *ir.Instr) {
		all = append(all, in)
		if idx := memIndex(in); len(idx) > 0 && !g.simpleShape(in.Arr, idx) {
			if ab, ok := splitAdd(g, idx); ok {
				p.addrs[in] = ab
				for _, v := range idx {
					rem[v]--
				}
				rem[ab.lo]++
				rem[ab.hi]++
			}
		}
	})
	// Index adds whose results nothing reads any more.
	for changed := true; changed; {
		changed = false
		for i := len(all) - 1; i >= 0; i-- {
			in := all[i]
			if in.Op != ir.OpAddC || p.skips[in] || p.roots[in] != nil {
				continue
			}
			dead := true
			for _, r := range in.Results {
				if rem[r] != 0 {
					dead = false
				}
			}
			if !dead {
				continue
			}
			p.skips[in] = true
			for _, a := range in.Args {
				rem[a]--
			}
			changed = true
		}
	}
}

// addrReads returns what a planned access reads: its base and, for a
// store, the stored value.
func (ab addrBase) reads(in *ir.Instr) []*ir.Value {
	vs := []*ir.Value{ab.lo, ab.hi}
	if in.Op == ir.OpStore || in.Op == ir.OpStoreLE || in.Op == ir.OpStoreBE {
		vs = append(vs, in.Args[len(in.Args)-1])
	}
	return vs
}
