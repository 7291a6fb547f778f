package amd64

import (
	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// Lowering of the clmul and AES builtins: PCLMULQDQ/AESENC on <2 x i64>
// in a hardware variant, the computed code of soft.go otherwise.

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

// aesRound emits aes_enc or aes_enclast on the state (s0, s1) and key (k0, k1).
func (g *fgen) aesRound(last bool, s0, s1, k0, k1 value.Value) (value.Value, value.Value) {
	if !g.v.hw {
		r := g.cur.NewCall(g.softAESFunc(last), s0, s1, k0, k1)
		return g.cur.NewExtractValue(r, 0), g.cur.NewExtractValue(r, 1)
	}
	name := "llvm.x86.aesni.aesenc"
	if last {
		name = "llvm.x86.aesni.aesenclast"
	}
	fn := g.intrinsic(name, v2i64, v2i64, v2i64)
	r := g.cur.NewCall(fn, g.vec2(s0, s1), g.vec2(k0, k1))
	return g.lane(r, 0), g.lane(r, 1)
}

var pairType = types.NewStruct(types.I64, types.I64)

// softAESFunc returns the module's computed AES round function: one
// out-of-line copy, since an unrolled cipher calls it ninety times.
func (g *modGen) softAESFunc(last bool) *llir.Func {
	name := "lowentc.soft.round"
	if last {
		name = "lowentc.soft.lastround"
	}
	if f, ok := g.decls[name]; ok {
		return f
	}
	ps := []*llir.Param{llir.NewParam("s0", types.I64), llir.NewParam("s1", types.I64),
		llir.NewParam("k0", types.I64), llir.NewParam("k1", types.I64)}
	f := g.out.NewFunc(name, pairType, ps...)
	f.Linkage = enum.LinkageInternal
	f.FuncAttrs = append(f.FuncAttrs, enum.FuncAttrNoUnwind, enum.FuncAttrReadNone, enum.FuncAttrNoInline)
	g.decls[name] = f
	blk := f.NewBlock("entry")
	o := llOps{g: g, b: &blk}
	x, y := softAES[value.Value](o, last, ps[0], ps[1], ps[2], ps[3])
	r := blk.NewInsertValue(constant.NewUndef(pairType), x, 0)
	blk.NewRet(blk.NewInsertValue(r, y, 1))
	return f
}
