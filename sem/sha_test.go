package sem

import (
	"crypto/sha256"
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// shaK are SHA-256's round constants, computed here (cube roots of the
// first 64 primes) rather than copied, so the test stands on its own.
var shaK = func() [64]uint32 {
	var k [64]uint32
	n := 0
	for p := uint64(2); n < 64; p++ {
		prime := true
		for d := uint64(2); d*d <= p; d++ {
			if p%d == 0 {
				prime = false
			}
		}
		if !prime {
			continue
		}
		// The first 32 fractional bits of cbrt(p): the largest r with
		// r^3 <= p * 2^96, taken mod 2^32.
		lo, hi := uint64(0), uint64(1)<<40
		target := new3(p)
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if cubeLE(mid, target) {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		k[n] = uint32(lo)
		n++
	}
	return k
}()

// new3 and cubeLE compare r^3 with p * 2^96 in 192-bit arithmetic.
type u192 [3]uint64

func new3(p uint64) u192 { return u192{0, p << 32, p >> 32} }

func cubeLE(r uint64, t u192) bool {
	sqHi, sqLo := bits.Mul64(r, r)
	h0, l0 := bits.Mul64(sqLo, r)
	h1, l1 := bits.Mul64(sqHi, r)
	mid, carry := bits.Add64(l1, h0, 0)
	c := u192{l0, mid, h1 + carry}
	for i := 2; i >= 0; i-- {
		if c[i] != t[i] {
			return c[i] < t[i]
		}
	}
	return true
}

// shaNIBlock compresses one block the way SHA-NI code does: the state as
// ABEF/CDGH, four schedule words per msg1/msg2 step, two rounds per rnds2.
func shaNIBlock(h *[8]uint32, blk []byte) {
	abef := [4]uint32{h[5], h[4], h[1], h[0]}
	cdgh := [4]uint32{h[7], h[6], h[3], h[2]}
	var w [16][4]uint32 // groups of four words, group j at j & 3... kept whole here
	for j := 0; j < 16; j++ {
		var g [4]uint32
		if j < 4 {
			for i := range g {
				g[i] = binary.BigEndian.Uint32(blk[16*j+4*i:])
			}
		} else {
			x := SHA256Msg1(w[j-4], w[j-3])
			// + W_{t-7..t-4}: lanes 1..3 of group j-2 and lane 0 of group j-1.
			prev := [4]uint32{w[j-2][1], w[j-2][2], w[j-2][3], w[j-1][0]}
			for i := range x {
				x[i] += prev[i]
			}
			g = SHA256Msg2(x, w[j-1])
		}
		w[j] = g
		var wk [4]uint32
		for i := range wk {
			wk[i] = g[i] + shaK[4*j+i]
		}
		cdgh, abef = abef, SHA256Rnds2(cdgh, abef, wk[0], wk[1])
		cdgh, abef = abef, SHA256Rnds2(cdgh, abef, wk[2], wk[3])
	}
	h[0] += abef[3]
	h[1] += abef[2]
	h[4] += abef[1]
	h[5] += abef[0]
	h[2] += cdgh[3]
	h[3] += cdgh[2]
	h[6] += cdgh[1]
	h[7] += cdgh[0]
}

// TestSHA256Builtins checks the reference meaning of sha256_rnds2,
// sha256_msg1 and sha256_msg2 by hashing with them, SHA-NI style, and
// comparing with crypto/sha256.
func TestSHA256Builtins(t *testing.T) {
	if shaK[0] != 0x428a2f98 || shaK[63] != 0xc67178f2 {
		t.Fatalf("round constants: %#x ... %#x", shaK[0], shaK[63])
	}
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 300; n += 1 + r.IntN(7) {
		msg := make([]byte, n)
		for i := range msg {
			msg[i] = byte(r.Uint32())
		}
		padded := append([]byte{}, msg...)
		padded = append(padded, 0x80)
		for len(padded)%64 != 56 {
			padded = append(padded, 0)
		}
		padded = binary.BigEndian.AppendUint64(padded, uint64(n)*8)
		h := [8]uint32{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}
		for off := 0; off < len(padded); off += 64 {
			shaNIBlock(&h, padded[off:off+64])
		}
		var got [32]byte
		for i, x := range h {
			binary.BigEndian.PutUint32(got[4*i:], x)
		}
		if want := sha256.Sum256(msg); got != want {
			t.Fatalf("len %d: got %x, want %x", n, got, want)
		}
	}
}
