package llvm

import "math/bits"

// The computed (--hw none) lowering of the clmul builtins (the AES rounds
// are in soft_slice.go): plain 64-bit integer operations, no table lookups
// and no data-dependent branches, so they take the same time whatever the
// data.
//
// The algorithms are written once over WordOps, an interface with several
// implementations: GoOps computes on uint64 (the unit tests compare it with
// lang.ClmulLo and lang.AESEnc), IntOps (soft_ops.go) emits the same
// operations as LLVM IR on i64, and a target may add its own (amd64's
// vecOps, on <2 x i64>). What the tests check is exactly what is emitted.
// They are target-independent: every target without the instructions
// (amd64 --hw none, wasm32) computes the builtins with them.

// WordOps are the operations the computed builtins are made of.
type WordOps[V any] interface {
	C(x uint64) V
	Xor(a, b V) V
	And(a, b V) V
	Or(a, b V) V
	Mul(a, b V) V
	Shl(a V, k uint) V
	Shr(a V, k uint) V
	Bswap(a V) V
}

// GoOps computes on uint64 words.
type GoOps struct{}

func (GoOps) C(x uint64) uint64           { return x }
func (GoOps) Xor(a, b uint64) uint64      { return a ^ b }
func (GoOps) And(a, b uint64) uint64      { return a & b }
func (GoOps) Or(a, b uint64) uint64       { return a | b }
func (GoOps) Mul(a, b uint64) uint64      { return a * b }
func (GoOps) Shl(a uint64, k uint) uint64 { return a << k }
func (GoOps) Shr(a uint64, k uint) uint64 { return a >> k }
func (GoOps) Bswap(a uint64) uint64       { return bits.ReverseBytes64(a) }
func xorAll[V any](o WordOps[V], xs ...V) V { // xs is never empty
	x := xs[0]
	for _, y := range xs[1:] {
		x = o.Xor(x, y)
	}
	return x
}

// ---------------------------------------------------------------- clmul

// bmul64 is the low 64 bits of the carry-less product of x and y, with
// integer multiplications: each operand is split into four parts that keep
// every fourth bit, so the sums of partial products that land on one bit
// position (at most 15 below bit 60, where the carries could reach a kept
// bit) stay inside the three-bit holes between kept bits.
func bmul64[V any](o WordOps[V], x, y V) V {
	m := [4]uint64{0x1111111111111111, 0x2222222222222222, 0x4444444444444444, 0x8888888888888888}
	var xs, ys [4]V
	for i := range m {
		xs[i] = o.And(x, o.C(m[i]))
		ys[i] = o.And(y, o.C(m[i]))
	}
	var z V
	for k := 0; k < 4; k++ {
		// z_k collects the products x_i*y_j with i+j = k (mod 4).
		var terms []V
		for i := 0; i < 4; i++ {
			terms = append(terms, o.Mul(xs[i], ys[(k-i+4)%4]))
		}
		zk := o.And(xorAll(o, terms...), o.C(m[k]))
		if k == 0 {
			z = zk
		} else {
			z = o.Or(z, zk)
		}
	}
	return z
}

// rev64 reverses the bits of x.
func rev64[V any](o WordOps[V], x V) V {
	swap := func(x V, k uint, m uint64) V {
		return o.Or(o.And(o.Shr(x, k), o.C(m)), o.Shl(o.And(x, o.C(m)), k))
	}
	x = swap(x, 1, 0x5555555555555555)
	x = swap(x, 2, 0x3333333333333333)
	x = swap(x, 4, 0x0f0f0f0f0f0f0f0f)
	return o.Bswap(x)
}

// softClmul returns the low and high words of the carry-less product. The
// high word is the low word of the product of the bit-reversed operands,
// reversed and shifted: rev(x)*rev(y) = rev(x*y) >> 1 over 127 bits.
func SoftClmul[V any](o WordOps[V], x, y V) (lo, hi V) {
	lo = bmul64(o, x, y)
	hi = o.Shr(rev64(o, bmul64(o, rev64(o, x), rev64(o, y))), 1)
	return lo, hi
}

// ClmulConst returns the carry-less product of x with the constant k as
// shifts and xors (used when k has few bits, like GHASH's reduction
// constant), and false when k has too many bits for that to pay.
func ClmulConst[V any](o WordOps[V], x V, k uint64) (lo, hi V, ok bool) {
	if bits.OnesCount64(k) > 6 || k == 0 {
		return lo, hi, false
	}
	var los, his []V
	for i := uint(0); i < 64; i++ {
		if k>>i&1 == 0 {
			continue
		}
		los = append(los, o.Shl(x, i))
		if i > 0 {
			his = append(his, o.Shr(x, 64-i))
		}
	}
	lo = xorAll(o, los...)
	if len(his) == 0 {
		hi = o.C(0)
	} else {
		hi = xorAll(o, his...)
	}
	return lo, hi, true
}
