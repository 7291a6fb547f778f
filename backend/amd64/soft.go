package amd64

import "math/bits"

// The computed (--hw none) lowering of the clmul and AES builtins: plain
// 64-bit integer operations, no table lookups and no data-dependent
// branches, so they take the same time whatever the data.
//
// The algorithms are written once over wordOps, an interface with two
// implementations: goOps computes on uint64 (the unit tests compare it with
// lang.ClmulLo and lang.AESEnc) and llOps (soft_llvm.go) emits the same
// operations as LLVM IR. What the tests check is exactly what is emitted.

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

// ---------------------------------------------------------------- AES

// transpose8 transposes the 8x8 bit matrix whose row r is byte r of x:
// afterwards bit j of byte k is what bit k of byte j was. It is its own
// inverse.
func transpose8[V any](o wordOps[V], x V) V {
	step := func(x V, k uint, m uint64) V {
		t := o.and(o.xor(x, o.shr(x, k)), o.c(m))
		return o.xor(o.xor(x, t), o.shl(t, k))
	}
	x = step(x, 7, 0x00aa00aa00aa00aa)
	x = step(x, 14, 0x0000cccc0000cccc)
	return step(x, 28, 0x00000000f0f0f0f0)
}

// planes bitslices a 16-byte state: bit j of plane k is bit k of byte j.
func planes[V any](o wordOps[V], lo, hi V) [8]V {
	tl, th := transpose8(o, lo), transpose8(o, hi)
	var p [8]V
	for k := uint(0); k < 8; k++ {
		p[k] = o.or(o.and(o.shr(tl, 8*k), o.c(0xff)), o.shl(o.and(o.shr(th, 8*k), o.c(0xff)), 8))
	}
	return p
}

// unplanes is the inverse of planes.
func unplanes[V any](o wordOps[V], p [8]V) (lo, hi V) {
	var tl, th V
	for k := uint(0); k < 8; k++ {
		l := o.shl(o.and(p[k], o.c(0xff)), 8*k)
		h := o.shl(o.and(o.shr(p[k], 8), o.c(0xff)), 8*k)
		if k == 0 {
			tl, th = l, h
		} else {
			tl, th = o.or(tl, l), o.or(th, h)
		}
	}
	return transpose8(o, tl), transpose8(o, th)
}

// gfReduce folds the coefficients p[8..14] of a product into p[0..7] with
// x^8 = x^4 + x^3 + x + 1 (the AES polynomial).
func gfReduce[V any](o wordOps[V], p []V) [8]V {
	for k := 14; k >= 8; k-- {
		if any(p[k]) == nil {
			continue
		}
		for _, d := range []int{4, 5, 7, 8} {
			p[k-d] = xorMaybe(o, p[k-d], p[k])
		}
	}
	var r [8]V
	copy(r[:], p[:8])
	return r
}

// xorMaybe xors two optional values (a nil interface is zero).
func xorMaybe[V any](o wordOps[V], a, b V) V {
	if any(a) == nil {
		return b
	}
	if any(b) == nil {
		return a
	}
	return o.xor(a, b)
}

// gfMul multiplies bitsliced elements of GF(2^8).
func gfMul[V any](o wordOps[V], a, b [8]V) [8]V {
	p := make([]V, 15)
	for i := 0; i < 8; i++ {
		for j := 0; j < 8; j++ {
			p[i+j] = xorMaybe(o, p[i+j], o.and(a[i], b[j]))
		}
	}
	return gfReduce(o, p)
}

// gfSquare squares a bitsliced element (a linear map: only xors).
func gfSquare[V any](o wordOps[V], a [8]V) [8]V {
	p := make([]V, 15)
	for i := 0; i < 8; i++ {
		p[2*i] = a[i]
	}
	return gfReduce(o, p)
}

// sbox is SubBytes on bitsliced planes: the inverse x^254 (0 for 0), then
// the affine map b_i ^ b_(i+4) ^ b_(i+5) ^ b_(i+6) ^ b_(i+7) ^ 0x63_i.
func sbox[V any](o wordOps[V], x [8]V) [8]V {
	x2 := gfSquare(o, x)
	x3 := gfMul(o, x2, x)
	x12 := gfSquare(o, gfSquare(o, x3))
	x15 := gfMul(o, x12, x3)
	x240 := gfSquare(o, gfSquare(o, gfSquare(o, gfSquare(o, x15))))
	x252 := gfMul(o, x240, x12)
	inv := gfMul(o, x252, x2)
	var s [8]V
	for i := 0; i < 8; i++ {
		s[i] = xorAll(o, inv[i], inv[(i+4)%8], inv[(i+5)%8], inv[(i+6)%8], inv[(i+7)%8])
		if 0x63>>i&1 != 0 {
			s[i] = o.xor(s[i], o.c(^uint64(0)))
		}
	}
	return s
}

// shiftRows on the two state words: byte 4c+r comes from column c+r.
// Row r's bytes are at bit offsets 8r and 8r+32 of each word; the low
// word holds columns 0 and 1, the high word columns 2 and 3.
func shiftRows[V any](o wordOps[V], lo, hi V) (V, V) {
	m := func(r uint) V { return o.c(0x000000ff000000ff << (8 * r)) }
	// Columns (1, 2) as a word, and (3, 0).
	c12 := o.or(o.shr(lo, 32), o.shl(hi, 32))
	c30 := o.or(o.shr(hi, 32), o.shl(lo, 32))
	nlo := xorAll(o, o.and(lo, m(0)), o.and(c12, m(1)), o.and(hi, m(2)), o.and(c30, m(3)))
	nhi := xorAll(o, o.and(hi, m(0)), o.and(c30, m(1)), o.and(lo, m(2)), o.and(c12, m(3)))
	return nlo, nhi
}

// mixColumns on one word holding two columns (one per 32-bit half, byte r
// of a column at bits 8r): o_r = a_r ^ t ^ xtime(a_r ^ a_(r+1)) where t
// is the xor of the column's four bytes.
func mixColumns[V any](o wordOps[V], a V) V {
	// rot8 moves byte r+1 of each column to byte r.
	rot := func(x V, k uint) V {
		m := uint64(0xffffffff>>k) * 0x0000000100000001
		return o.or(o.and(o.shr(x, k), o.c(m)), o.and(o.shl(x, 32-k), o.c(^m)))
	}
	b := o.xor(a, rot(a, 8))  // a_r ^ a_(r+1)
	t := o.xor(b, rot(b, 16)) // the four bytes
	hi := o.and(b, o.c(0x8080808080808080))
	xt := o.xor(o.shl(o.and(b, o.c(0x7f7f7f7f7f7f7f7f)), 1), o.mul(o.shr(hi, 7), o.c(0x1b)))
	return xorAll(o, a, t, xt)
}

// softAES is one AES round (aes_enc, or aes_enclast when last).
func softAES[V any](o wordOps[V], last bool, s0, s1, k0, k1 V) (V, V) {
	lo, hi := unplanes(o, sbox(o, planes(o, s0, s1)))
	lo, hi = shiftRows(o, lo, hi)
	if !last {
		lo, hi = mixColumns(o, lo), mixColumns(o, hi)
	}
	return o.xor(lo, k0), o.xor(hi, k1)
}
