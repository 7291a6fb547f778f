package amd64

import (
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/backend/llvm"
)

// Lowering of the clmul builtins: PCLMULQDQ on <2 x i64> in a hardware
// variant, the computed code of backend/llvm (soft.go) otherwise. The AES rounds are in
// vec.go (hardware) and backend/llvm/soft_emit.go (computed).

var v2i64 = types.NewVector(2, types.I64)

// vec2 packs two words into an xmm value (lane 0 = x).
func (g *fgen) vec2(x, y value.Value) value.Value { return g.Vec2(x, y) }

func (g *fgen) lane(v value.Value, i int) value.Value { return g.Lane(v, i) }

// clmul returns the low or high word of the carry-less product of a and b.
// The two halves of one product share one PCLMULQDQ (or one computation).
func (g *fgen) clmul(hi bool, a, b value.Value) value.Value {
	key := [2]value.Value{a, b}
	pair, ok := g.pairs[key]
	if !ok || g.pairBlock[key] != g.Cur {
		if g.v.hw {
			va := g.Cur.NewInsertElement(constant.NewUndef(v2i64), a, llvm.Cint(types.I32, 0))
			vb := g.Cur.NewInsertElement(constant.NewUndef(v2i64), b, llvm.Cint(types.I32, 0))
			fn := g.Intrinsic("llvm.x86.pclmulqdq", v2i64, v2i64, v2i64, types.I8)
			pair = g.Cur.NewCall(fn, va, vb, llvm.Cint(types.I8, 0))
		} else {
			pair = g.softClmul(a, b)
		}
		g.pairs[key], g.pairBlock[key] = pair, g.Cur
	}
	if hi {
		return g.lane(pair, 1)
	}
	return g.lane(pair, 0)
}

// softClmul computes the product inline (llvm.Func.SoftClmul, as a
// <2 x i64> pair so clmul can treat both lowerings alike; LLVM keeps the
// words in registers).
func (g *fgen) softClmul(a, b value.Value) value.Value {
	lo, hi := g.SoftClmul(a, b)
	return g.vec2(lo, hi)
}
