package sem

import "math/bits"

// The SHA-256 builtins are the x86 SHA extensions' three instructions on
// 128-bit values written as four u32 lanes, lane 0 (bits 31..0) first.
// Their reference meaning (FIPS 180-4, section 6.2.2) follows; every
// target that lacks the instructions computes exactly this.

// SHA256Builtin computes builtin id on its u32 arguments (as words).
func SHA256Builtin(id BuiltinID, a []uint64) [4]uint64 {
	var x [10]uint32
	for i := range a {
		x[i] = uint32(a[i])
	}
	var r [4]uint32
	switch id {
	case BSHA256Rnds2:
		r = SHA256Rnds2([4]uint32{x[0], x[1], x[2], x[3]}, [4]uint32{x[4], x[5], x[6], x[7]}, x[8], x[9])
	case BSHA256Msg1:
		r = SHA256Msg1([4]uint32{x[0], x[1], x[2], x[3]}, [4]uint32{x[4], x[5], x[6], x[7]})
	case BSHA256Msg2:
		r = SHA256Msg2([4]uint32{x[0], x[1], x[2], x[3]}, [4]uint32{x[4], x[5], x[6], x[7]})
	default:
		panic("BUG: SHA256Builtin: not a SHA-256 builtin")
	}
	return [4]uint64{uint64(r[0]), uint64(r[1]), uint64(r[2]), uint64(r[3])}
}

// SHA256Rnds2 is two rounds of the compression (SHA256RNDS2). The state is
// split in two: cdgh holds h, g, d, c in lanes 0..3 and abef holds f, e,
// b, a; wk0 and wk1 are K_t + W_t of the two rounds. The result is the new
// abef; the old abef is the new cdgh.
func SHA256Rnds2(cdgh, abef [4]uint32, wk0, wk1 uint32) [4]uint32 {
	h, g, d, c := cdgh[0], cdgh[1], cdgh[2], cdgh[3]
	f, e, b, a := abef[0], abef[1], abef[2], abef[3]
	for _, wk := range [2]uint32{wk0, wk1} {
		t1 := h + SHA256BigSigma1(e) + (e&f ^ ^e&g) + wk
		t2 := SHA256BigSigma0(a) + (a&b ^ a&c ^ b&c)
		h, g, f, e = g, f, e, d+t1
		d, c, b, a = c, b, a, t1+t2
	}
	return [4]uint32{f, e, b, a}
}

// SHA256Msg1 is the first half of four schedule steps (SHA256MSG1): lane i
// of the result is x_i + sigma0(x_{i+1}), where x_4 is y's lane 0. With x
// = W_{t-16..t-13} and y = W_{t-12..t-9} that is W_{t-16+i} + sigma0(W_{t-15+i}).
func SHA256Msg1(x, y [4]uint32) [4]uint32 {
	next := [4]uint32{x[1], x[2], x[3], y[0]}
	var r [4]uint32
	for i := range r {
		r[i] = x[i] + SHA256SmallSigma0(next[i])
	}
	return r
}

// SHA256Msg2 finishes four schedule steps (SHA256MSG2): with y =
// W_{t-4..t-1}, lane i of the result is x_i + sigma1(W_{t+i-2}), where the
// two newest words come from y and the other two from the result's own
// lanes 0 and 1.
func SHA256Msg2(x, y [4]uint32) [4]uint32 {
	var r [4]uint32
	r[0] = x[0] + SHA256SmallSigma1(y[2])
	r[1] = x[1] + SHA256SmallSigma1(y[3])
	r[2] = x[2] + SHA256SmallSigma1(r[0])
	r[3] = x[3] + SHA256SmallSigma1(r[1])
	return r
}

// SHA256BigSigma0 is FIPS 180-4's Σ0.
func SHA256BigSigma0(x uint32) uint32 {
	return bits.RotateLeft32(x, -2) ^ bits.RotateLeft32(x, -13) ^ bits.RotateLeft32(x, -22)
}

// SHA256BigSigma1 is Σ1.
func SHA256BigSigma1(x uint32) uint32 {
	return bits.RotateLeft32(x, -6) ^ bits.RotateLeft32(x, -11) ^ bits.RotateLeft32(x, -25)
}

// SHA256SmallSigma0 is σ0.
func SHA256SmallSigma0(x uint32) uint32 {
	return bits.RotateLeft32(x, -7) ^ bits.RotateLeft32(x, -18) ^ x>>3
}

// SHA256SmallSigma1 is σ1.
func SHA256SmallSigma1(x uint32) uint32 {
	return bits.RotateLeft32(x, -17) ^ bits.RotateLeft32(x, -19) ^ x>>10
}
