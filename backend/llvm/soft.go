package llvm

import (
	"math/bits"

	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// The computed lowering of the clmul builtins for a target without
// carry-less multiplication (amd64 and arm64 --hw none; the AES rounds are
// in soft_slice.go): plain 64-bit integer operations, no table lookups
// and no data-dependent branches, so they take the same time whatever the
// data.
//
// The algorithms are written once over wordOps, an interface with three
// implementations: goOps computes on uint64 (the unit tests compare it with
// lang.ClmulLo and lang.AESEnc), llOps and vecOps
// (soft_emit.go) emit the same operations as LLVM IR on i64 and <2 x i64>.
// What the tests check is exactly what is emitted.

// wordOps are the operations the computed builtins are made of.
type wordOps[V any] interface {
	c(x uint64) V
	xor(a, b V) V
	and(a, b V) V
	or(a, b V) V
	mul(a, b V) V
	shl(a V, k uint) V
	shr(a V, k uint) V
	bswap(a V) V
}

// goOps computes on uint64 words.
type goOps struct{}

func (goOps) c(x uint64) uint64           { return x }
func (goOps) xor(a, b uint64) uint64      { return a ^ b }
func (goOps) and(a, b uint64) uint64      { return a & b }
func (goOps) or(a, b uint64) uint64       { return a | b }
func (goOps) mul(a, b uint64) uint64      { return a * b }
func (goOps) shl(a uint64, k uint) uint64 { return a << k }
func (goOps) shr(a uint64, k uint) uint64 { return a >> k }
func (goOps) bswap(a uint64) uint64       { return bits.ReverseBytes64(a) }
func xorAll[V any](o wordOps[V], xs ...V) V { // xs is never empty
	x := xs[0]
	for _, y := range xs[1:] {
		x = o.xor(x, y)
	}
	return x
}

// ---------------------------------------------------------------- clmul

// bmul64 is the low 64 bits of the carry-less product of x and y, with
// integer multiplications: each operand is split into four parts that keep
// every fourth bit, so the sums of partial products that land on one bit
// position (at most 15 below bit 60, where the carries could reach a kept
// bit) stay inside the three-bit holes between kept bits.
func bmul64[V any](o wordOps[V], x, y V) V {
	m := [4]uint64{0x1111111111111111, 0x2222222222222222, 0x4444444444444444, 0x8888888888888888}
	var xs, ys [4]V
	for i := range m {
		xs[i] = o.and(x, o.c(m[i]))
		ys[i] = o.and(y, o.c(m[i]))
	}
	var z V
	for k := 0; k < 4; k++ {
		// z_k collects the products x_i*y_j with i+j = k (mod 4).
		var terms []V
		for i := 0; i < 4; i++ {
			terms = append(terms, o.mul(xs[i], ys[(k-i+4)%4]))
		}
		zk := o.and(xorAll(o, terms...), o.c(m[k]))
		if k == 0 {
			z = zk
		} else {
			z = o.or(z, zk)
		}
	}
	return z
}

// rev64 reverses the bits of x.
func rev64[V any](o wordOps[V], x V) V {
	swap := func(x V, k uint, m uint64) V {
		return o.or(o.and(o.shr(x, k), o.c(m)), o.shl(o.and(x, o.c(m)), k))
	}
	x = swap(x, 1, 0x5555555555555555)
	x = swap(x, 2, 0x3333333333333333)
	x = swap(x, 4, 0x0f0f0f0f0f0f0f0f)
	return o.bswap(x)
}

// softClmul returns the low and high words of the carry-less product. The
// high word is the low word of the product of the bit-reversed operands,
// reversed and shifted: rev(x)*rev(y) = rev(x*y) >> 1 over 127 bits.
func softClmul[V any](o wordOps[V], x, y V) (lo, hi V) {
	lo = bmul64(o, x, y)
	hi = o.shr(rev64(o, bmul64(o, rev64(o, x), rev64(o, y))), 1)
	return lo, hi
}

// clmulConst returns the carry-less product of x with the constant k as
// shifts and xors (used when k has few bits, like GHASH's reduction
// constant), and false when k has too many bits for that to pay.
func clmulConst[V any](o wordOps[V], x V, k uint64) (lo, hi V, ok bool) {
	if bits.OnesCount64(k) > 6 || k == 0 {
		return lo, hi, false
	}
	var los, his []V
	for i := uint(0); i < 64; i++ {
		if k>>i&1 == 0 {
			continue
		}
		los = append(los, o.shl(x, i))
		if i > 0 {
			his = append(his, o.shr(x, 64-i))
		}
	}
	lo = xorAll(o, los...)
	if len(his) == 0 {
		hi = o.c(0)
	} else {
		hi = xorAll(o, his...)
	}
	return lo, hi, true
}

// llOps emits wordOps as LLVM instructions at the end of a block.
type llOps struct {
	g *Module
	b **llir.Block // the current block of the function being emitted
}

func (o llOps) cur() *llir.Block                 { return *o.b }
func (o llOps) c(x uint64) value.Value           { return Cint(types.I64, x) }
func (o llOps) xor(a, b value.Value) value.Value { return o.cur().NewXor(a, b) }
func (o llOps) and(a, b value.Value) value.Value { return o.cur().NewAnd(a, b) }
func (o llOps) or(a, b value.Value) value.Value  { return o.cur().NewOr(a, b) }
func (o llOps) mul(a, b value.Value) value.Value { return o.cur().NewMul(a, b) }
func (o llOps) shl(a value.Value, k uint) value.Value {
	return o.cur().NewShl(a, Cint(types.I64, uint64(k)))
}
func (o llOps) shr(a value.Value, k uint) value.Value {
	return o.cur().NewLShr(a, Cint(types.I64, uint64(k)))
}
func (o llOps) bswap(a value.Value) value.Value {
	return o.cur().NewCall(o.g.Intrinsic("llvm.bswap.i64", types.I64, types.I64), a)
}

// SoftClmul emits the computed carry-less product of the i64 values a
// and b at the end of the current block: its low and high words, with
// shifts and xors when one operand is a constant with few bits.
func (g *Func) SoftClmul(a, b value.Value) (lo, hi value.Value) {
	o := llOps{g: g.Module, b: &g.Cur}
	if k, ok := b.(*constant.Int); ok {
		if lo, hi, ok := clmulConst[value.Value](o, a, uint64(k.X.Int64())); ok {
			return lo, hi
		}
	}
	if k, ok := a.(*constant.Int); ok {
		if lo, hi, ok := clmulConst[value.Value](o, b, uint64(k.X.Int64())); ok {
			return lo, hi
		}
	}
	return softClmul[value.Value](o, a, b)
}
