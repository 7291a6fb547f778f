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

func TestSliceRound(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for i := 0; i < 500; i++ {
		var w [8]uint64
		for j := range w {
			w[j] = rng.Uint64()
		}
		k0, k1 := rng.Uint64(), rng.Uint64()
		key := pack4[uint64](goOps{}, [8]uint64{k0, k1, k0, k1, k0, k1, k0, k1})
		for _, last := range []bool{false, true} {
			got := unpack4[uint64](goOps{}, sliceRound[uint64](goOps{}, last, pack4[uint64](goOps{}, w), key))
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
