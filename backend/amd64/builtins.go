package amd64

import (
	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// Lowering of the clmul builtins: PCLMULQDQ on <2 x i64> in a hardware
// variant, the computed code of soft.go otherwise. The AES rounds are in
// vec.go (hardware) and soft_emit.go (computed).

// llOps emits wordOps as LLVM instructions at the end of a block.
type llOps struct {
	g *modGen
	b **llir.Block // the current block of the function being emitted
}

func (o llOps) cur() *llir.Block                 { return *o.b }
func (o llOps) c(x uint64) value.Value           { return cint(types.I64, x) }
func (o llOps) xor(a, b value.Value) value.Value { return o.cur().NewXor(a, b) }
func (o llOps) and(a, b value.Value) value.Value { return o.cur().NewAnd(a, b) }
func (o llOps) or(a, b value.Value) value.Value  { return o.cur().NewOr(a, b) }
func (o llOps) mul(a, b value.Value) value.Value { return o.cur().NewMul(a, b) }
func (o llOps) shl(a value.Value, k uint) value.Value {
	return o.cur().NewShl(a, cint(types.I64, uint64(k)))
}
func (o llOps) shr(a value.Value, k uint) value.Value {
	return o.cur().NewLShr(a, cint(types.I64, uint64(k)))
}
func (o llOps) bswap(a value.Value) value.Value {
	return o.cur().NewCall(o.g.intrinsic("llvm.bswap.i64", types.I64, types.I64), a)
}

var v2i64 = types.NewVector(2, types.I64)

// vec2 packs two words into an xmm value (lane 0 = x).
func (g *fgen) vec2(x, y value.Value) value.Value {
	v := g.cur.NewInsertElement(constant.NewUndef(v2i64), x, cint(types.I32, 0))
	return g.cur.NewInsertElement(v, y, cint(types.I32, 1))
}

func (g *fgen) lane(v value.Value, i int) value.Value {
	return g.cur.NewExtractElement(v, cint(types.I32, uint64(i)))
}

// clmul returns the low or high word of the carry-less product of a and b.
// The two halves of one product share one PCLMULQDQ (or one computation).
func (g *fgen) clmul(hi bool, a, b value.Value) value.Value {
	key := [2]value.Value{a, b}
	pair, ok := g.pairs[key]
	if !ok || g.pairBlock[key] != g.cur {
		if g.v.hw {
			va := g.cur.NewInsertElement(constant.NewUndef(v2i64), a, cint(types.I32, 0))
			vb := g.cur.NewInsertElement(constant.NewUndef(v2i64), b, cint(types.I32, 0))
			fn := g.intrinsic("llvm.x86.pclmulqdq", v2i64, v2i64, v2i64, types.I8)
			pair = g.cur.NewCall(fn, va, vb, cint(types.I8, 0))
		} else {
			pair = g.softClmul(a, b)
		}
		g.pairs[key], g.pairBlock[key] = pair, g.cur
	}
	if hi {
		return g.lane(pair, 1)
	}
	return g.lane(pair, 0)
}

// softClmul computes the product inline (as a <2 x i64> pair so clmul can
// treat both lowerings alike; LLVM keeps the words in registers).
func (g *fgen) softClmul(a, b value.Value) value.Value {
	o := llOps{g: g.modGen, b: &g.cur}
	if k, ok := b.(*constant.Int); ok {
		if lo, hi, ok := clmulConst[value.Value](o, a, uint64(k.X.Int64())); ok {
			return g.vec2(lo, hi)
		}
	}
	if k, ok := a.(*constant.Int); ok {
		if lo, hi, ok := clmulConst[value.Value](o, b, uint64(k.X.Int64())); ok {
			return g.vec2(lo, hi)
		}
	}
	lo, hi := softClmul[value.Value](o, a, b)
	return g.vec2(lo, hi)
}
