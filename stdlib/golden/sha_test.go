package golden

import (
	"bytes"
	"crypto/sha3"
	"encoding/binary"
	"math/rand"
	"testing"

	"github.com/lowent/lowentc/lang"
)

// sponge is SHA3-256 (rate 136, suffix 0x06) or SHAKE128 (rate 168,
// suffix 0x1f) built on KeccakRef, byte by byte from FIPS 202's sponge
// (Algorithm 8) and pad10*1.
func sponge(rate int, suffix byte, msg []byte, n int) []byte {
	padded := append(append([]byte(nil), msg...), suffix)
	for len(padded)%rate != 0 {
		padded = append(padded, 0)
	}
	padded[len(padded)-1] |= 0x80
	st := make([]uint64, 25)
	for off := 0; off < len(padded); off += rate {
		for i := 0; i < rate/8; i++ {
			st[i] ^= binary.LittleEndian.Uint64(padded[off+8*i:])
		}
		st = KeccakRef(st)
	}
	var out []byte
	for {
		for i := 0; i < rate/8; i++ {
			out = binary.LittleEndian.AppendUint64(out, st[i])
		}
		if len(out) >= n {
			return out[:n]
		}
		st = KeccakRef(st)
	}
}

// TestKeccakRefAgainstSHA3 checks the permutation written here from FIPS
// 202 against crypto/sha3: SHA3-256 and SHAKE128 computed through it match
// Go's at every edge length.
func TestKeccakRefAgainstSHA3(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	for _, n := range append(EdgeLengths, 135, 136, 137, 167, 168, 169, 336) {
		msg := make([]byte, n)
		rng.Read(msg)
		if got, want := sponge(136, 0x06, msg, 32), sha3.Sum256(msg); !bytes.Equal(got, want[:]) {
			t.Errorf("len %d: SHA3-256 through KeccakRef %x, crypto/sha3 %x", n, got, want)
		}
		for _, ol := range SHAKE128OutLengths {
			if got, want := sponge(168, 0x1f, msg, ol), sha3.SumSHAKE128(msg, ol); !bytes.Equal(got, want) {
				t.Errorf("len %d out %d: SHAKE128 through KeccakRef %x, crypto/sha3 %x", n, ol, got, want)
			}
		}
	}
}

// TestRunCaseComparesWords checks the word comparison of Expect.Words (the
// Keccak state): the right state passes, one flipped bit fails.
func TestRunCaseComparesWords(t *testing.T) {
	st := make([]uint64, 25)
	st[3] = 0x0123_4567_89ab_cdef
	c := KeccakCase("keccak_f1600/words", st)
	want := KeccakRef(st)
	good := func(_ *lang.Program, _ *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
		copy(args[0].Elems, want)
		return nil, nil
	}
	flipped := func(_ *lang.Program, _ *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
		copy(args[0].Elems, want)
		args[0].Elems[24] ^= 1 << 63
		return nil, nil
	}
	var ps Programs
	if err := RunCase(&ps, good, c); err != nil {
		t.Fatalf("correct runner: %v", err)
	}
	if err := RunCase(&ps, flipped, c); err == nil {
		t.Error("a flipped bit of the state passed")
	}
}
