package llvm

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
