package amd64

import (
	"math/rand"
	"testing"

	"github.com/lowent/lowentc/lang"
)

// The computed builtins (soft.go) against lang's reference semantics, run
// on uint64 through goOps: the same code the emitter turns into LLVM IR.

func TestSoftClmul(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	edge := []uint64{0, 1, 2, 1 << 63, ^uint64(0), 0x8000000000000001, 0xc200000000000000, 0x5555555555555555}
	var xs []uint64
	xs = append(xs, edge...)
	for i := 0; i < 300; i++ {
		xs = append(xs, rng.Uint64())
	}
	for _, x := range xs {
		for _, y := range xs[:40] {
			lo, hi := softClmul[uint64](goOps{}, x, y)
			if lo != lang.ClmulLo(x, y) || hi != lang.ClmulHi(x, y) {
				t.Fatalf("clmul(%#x, %#x) = %#x:%#x, want %#x:%#x", x, y, hi, lo, lang.ClmulHi(x, y), lang.ClmulLo(x, y))
			}
			if clo, chi, ok := clmulConst[uint64](goOps{}, x, y); ok {
				if clo != lang.ClmulLo(x, y) || chi != lang.ClmulHi(x, y) {
					t.Fatalf("clmulConst(%#x, %#x) wrong", x, y)
				}
			}
		}
	}
}

func TestSoftSbox(t *testing.T) {
	// Bitslice all 256 bytes: byte j of the state is plane bit j, sixteen
	// bytes at a time.
	for base := 0; base < 256; base += 16 {
		var lo, hi uint64
		for j := 0; j < 8; j++ {
			lo |= uint64(base+j) << (8 * j)
			hi |= uint64(base+8+j) << (8 * j)
		}
		slo, shi := unplanes[uint64](goOps{}, sbox[uint64](goOps{}, planes[uint64](goOps{}, lo, hi)))
		for j := 0; j < 8; j++ {
			if got, want := byte(slo>>(8*j)), lang.AESSbox[base+j]; got != want {
				t.Fatalf("S(%#x) = %#x, want %#x", base+j, got, want)
			}
			if got, want := byte(shi>>(8*j)), lang.AESSbox[base+8+j]; got != want {
				t.Fatalf("S(%#x) = %#x, want %#x", base+8+j, got, want)
			}
		}
	}
}

func TestSoftAES(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 2000; i++ {
		s0, s1, k0, k1 := rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64()
		for _, last := range []bool{false, true} {
			x, y := softAES[uint64](goOps{}, last, s0, s1, k0, k1)
			wx, wy := lang.AESEnc(s0, s1, k0, k1)
			if last {
				wx, wy = lang.AESEncLast(s0, s1, k0, k1)
			}
			if x != wx || y != wy {
				t.Fatalf("aes(last=%v) of %#x %#x: got %#x %#x, want %#x %#x", last, s0, s1, x, y, wx, wy)
			}
		}
	}
}
