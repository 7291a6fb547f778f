package amd64

import "math/bits"

// The computed (--hw none) lowering of the clmul builtins (the AES rounds
// are in soft_slice.go): plain 64-bit integer operations, no table lookups
// and no data-dependent branches, so they take the same time whatever the
// data.
//
// The algorithms are written once over wordOps, an interface with three
// implementations: goOps computes on uint64 (the unit tests compare it with
// lang.ClmulLo and lang.AESEnc), llOps (builtins.go) and vecOps
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
