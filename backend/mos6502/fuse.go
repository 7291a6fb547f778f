package mos6502

import (
	"strings"

	"github.com/lowent/lowentc/ir"
)

// Loads fused into their reader. A byte loaded from an array at a label
// (`lda arr+k` or `lda arr+k,x`) whose one reader is an add, XOR, AND or
// OR later in the same block, with no store to the array (but to another
// byte of the same element), call or nested construct between, is not loaded where it stands: its reader takes it
// as its memory operand, `adc arr+k,y` (Y indexing it) or, when the reader
// starts from it, `lda arr+k,x`. The byte needs no slot and no `sta`/`lda`
// round trip: the four bytes of SHA-256's K[i] + W[i] are
// `lda K+k,x / adc w+k,y / sta`. Its index is read where the reader is,
// and liveness keeps it that long.

// fuseLoads returns the loads to fuse, each with its reader.
func (g *fgen) fuseLoads(f *ir.Function) map[*ir.Instr]*ir.Instr {
	out := map[*ir.Instr]*ir.Instr{}
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		for i, in := range b.Instrs {
			for _, blk := range in.Blocks {
				walk(blk)
			}
			if r := g.fusedReader(b.Instrs, i); r != nil {
				out[in] = r
			}
		}
	}
	walk(f.Body)
	return out
}

// fusedReader returns the instruction of instrs that reads the load
// instrs[i] as its memory operand, or nil when the load stays.
func (g *fgen) fusedReader(instrs []*ir.Instr, i int) *ir.Instr {
	ld := instrs[i]
	if ld.Op != ir.OpLoad || len(ld.Results) != 1 || g.lin.skip(ld) || g.arrs[ld.Arr].label == "" ||
		!g.simpleShape(ld.Arr, ld.Args) {
		return nil
	}
	if _, ok := g.lin.addr(ld); ok {
		return nil
	}
	v := ld.Results[0]
	if g.lv.uses[v] != 1 {
		return nil
	}
	for _, in := range instrs[i+1:] {
		n := 0
		for _, a := range in.Args {
			if a == v {
				n++
			}
		}
		if n > 0 {
			if n != 1 || g.lin.root(in) != nil || g.lin.skip(in) || g.lin.group(in) != nil {
				return nil
			}
			switch in.Op {
			case ir.OpXor, ir.OpAnd, ir.OpOr, ir.OpAdd:
				return in
			case ir.OpAddC:
				if in.Args[2] != v {
					return in
				}
			}
			return nil
		}
		if len(in.Blocks) > 0 || in.Op == ir.OpCall {
			return nil
		}
		if in.Arr == ld.Arr && in.Op != ir.OpLoad && (in.Op != ir.OpStore || !g.distinctAddr(in, ld)) {
			return nil
		}
		switch in.Op {
		case ir.OpStore, ir.OpStoreLE, ir.OpStoreBE, ir.OpLoad, ir.OpLoadLE, ir.OpLoadBE:
		default:
			if in.Arr != nil {
				return nil // an op that may write memory
			}
		}
	}
	return nil
}

// fusedAddrReads returns the values a fused load's address reads: its
// indices (for their use counts) and, for arr[b|k], b, which the reader
// loads into its index register.
func (g *fgen) fusedAddrReads(ld *ir.Instr) []*ir.Value {
	vs := append([]*ir.Value(nil), ld.Args...)
	if g.g.lay.reusePtrs() {
		b, _ := splitLow(g, ld.Args[0])
		if r, ok := g.rebase[b]; ok {
			vs = append(vs, r.base)
		} else if b != ld.Args[0] {
			vs = append(vs, b)
		}
	}
	return vs
}

// fusedOperand emits the index setup of the fused load of v and returns
// its operand. The index goes into a register that holds it already, else
// into pref unless the next linear map still reads the byte pref holds
// and the other register's byte it does not. What a register holds is the
// index value it was loaded with, not the operand it was loaded from: the
// allocator gives a slot to another value once the first is dead, and a
// register loaded from the slot before holds the old one (randprog seed
// 119).
func (g *fgen) fusedOperand(v *ir.Value, pref byte) string {
	ld := v.Def
	setup, operand, index, ok := g.simpleAddrIndex(ld.Arr, ld.Args)
	if !ok {
		g.bug("fused load of value %d has no simple address", v.ID)
	}
	if setup == "" {
		return operand
	}
	base := strings.TrimPrefix(setup, "ldx ")
	operand = strings.TrimSuffix(operand, ",x")
	switch {
	case g.fx == index && g.fxs == g.a.xw:
		return operand + ",x"
	case g.fy == index && g.fys == g.a.yw:
		return operand + ",y"
	}
	next := g.nextRootReads(g.rest)
	busyX := g.xv != nil && g.xs == g.a.xw && next[g.xv]
	busyY := g.yv != nil && g.ys == g.a.yw && next[g.yv]
	reg := pref
	if reg == 'y' && busyY && !busyX {
		reg = 'x'
	} else if reg == 'x' && busyX && !busyY {
		reg = 'y'
	}
	g.a.op("ld%c %s", reg, base)
	if reg == 'x' {
		g.fx, g.fxs = index, g.a.xw
	} else {
		g.fy, g.fys = index, g.a.yw
		g.y = -1
	}
	return operand + "," + string(reg)
}

// fused reports whether v is the result of a fused load.
func (g *fgen) fused(v *ir.Value) bool {
	return v != nil && v.Def != nil && g.fz[v.Def] != nil
}
