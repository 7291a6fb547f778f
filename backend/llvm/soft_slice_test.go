package llvm

import (
	"math/rand"
	"testing"

	"github.com/lowent/lowentc/lang"
)

// The bitsliced computed AES (soft_slice.go, soft_sbox.go) on uint64
// through goOps, against lang's reference AES: the same code the emitter
// turns into LLVM IR on <2 x i64>.

func TestSliceSbox(t *testing.T) {
	c := sboxCircuit()
	t.Logf("S-box circuit: %d gates", len(c.Gates))
	// Bit x of every plane word is input byte x (four words cover 256).
	for base := 0; base < 256; base += 64 {
		var in [8]uint64
		for x := 0; x < 64; x++ {
			for k := 0; k < 8; k++ {
				in[k] |= uint64((base+x)>>k&1) << x
			}
		}
		out := evalCircuit[uint64](goOps{}, c, in)
		for x := 0; x < 64; x++ {
			var got byte
			for k := 0; k < 8; k++ {
				got |= byte(out[k]>>x&1) << k
			}
			if want := lang.AESSbox[base+x]; got != want {
				t.Fatalf("S(%#x) = %#x, want %#x", base+x, got, want)
			}
		}
	}
}

func TestSlicePack(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 100; i++ {
		var w [8]uint64
		for j := range w {
			w[j] = rng.Uint64()
		}
		p := pack4[uint64](goOps{}, w)
		for b := 0; b < 4; b++ {
			for byteIdx := 0; byteIdx < 16; byteIdx++ {
				v := byte(w[2*b+byteIdx/8] >> (8 * (byteIdx % 8)))
				r, c := byteIdx%4, byteIdx/4
				for k := 0; k < 8; k++ {
					if got := p[k] >> (16*r + 4*c + b) & 1; got != uint64(v>>k&1) {
						t.Fatalf("plane %d, block %d byte %d: bit %d, want %d", k, b, byteIdx, got, v>>k&1)
					}
				}
			}
		}
		if back := unpack4[uint64](goOps{}, p); back != w {
			t.Fatalf("unpack4(pack4(%x)) = %x", w, back)
		}
	}
}

// goOps16 is goOps with 16-bit lane rotations, as vecOps has them: the
// round then takes shiftRows' two blended rotations instead of
// permuteBits.
type goOps16 struct{ goOps }

func (goOps16) rotr16(x uint64, k uint) uint64 {
	var y uint64
	for l := uint(0); l < 64; l += 16 {
		v := uint16(x >> l)
		y |= uint64(v>>k|v<<(16-k)) << l
	}
	return y
}

func TestSliceShiftRows(t *testing.T) {
	if _, ok := wordOps[uint64](goOps16{}).(rows16[uint64]); !ok {
		t.Fatal("goOps16 has no rotr16")
	}
	rng := rand.New(rand.NewSource(5))
	for i := 0; i < 1000; i++ {
		x := rng.Uint64()
		want := permuteBits[uint64](goOps{}, x, sliceShiftRows)
		if got := shiftRows[uint64](goOps16{}, x); got != want {
			t.Fatalf("shiftRows(%#x) with 16-bit rotations = %#x, want %#x", x, got, want)
		}
		if got := shiftRows[uint64](goOps{}, x); got != want {
			t.Fatalf("shiftRows(%#x) = %#x, want %#x", x, got, want)
		}
	}
}

func TestSliceRound(t *testing.T) {
	testSliceRound(t, goOps{})
	testSliceRound(t, goOps16{})
}

func testSliceRound(t *testing.T, ops wordOps[uint64]) {
	rng := rand.New(rand.NewSource(4))
	for i := 0; i < 500; i++ {
		var w [8]uint64
		for j := range w {
			w[j] = rng.Uint64()
		}
		k0, k1 := rng.Uint64(), rng.Uint64()
		key := pack4[uint64](goOps{}, [8]uint64{k0, k1, k0, k1, k0, k1, k0, k1})
		for _, last := range []bool{false, true} {
			got := unpack4[uint64](goOps{}, sliceRound[uint64](ops, last, pack4[uint64](goOps{}, w), key))
			for b := 0; b < 4; b++ {
				wx, wy := lang.AESEnc(w[2*b], w[2*b+1], k0, k1)
				if last {
					wx, wy = lang.AESEncLast(w[2*b], w[2*b+1], k0, k1)
				}
				if got[2*b] != wx || got[2*b+1] != wy {
					t.Fatalf("round(last=%v) block %d: got %#x %#x, want %#x %#x", last, b, got[2*b], got[2*b+1], wx, wy)
				}
			}
		}
	}
}
