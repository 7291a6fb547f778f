package mos6502

import (
	"math/rand"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/randprog/backendcheck"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
)

// TestPrimitives runs backend/testdata/prims.lw (mulw, parallel
// assignment) on the 6502 in both modes and compares every export with
// the VM.
func TestPrimitives(t *testing.T) {
	backendcheck.TestFile(t, "mos6502", "../testdata/prims.lw", 1, 12, backend.Options{Opt: "speed"}, backend.Options{Opt: "size"})
}

// TestMulConstantTime: mulw and the plain product take one number of
// cycles whatever the operands: the byte multiply they call adds a masked
// multiplicand instead of branching on the multiplier's bits.
func TestMulConstantTime(t *testing.T) {
	p := testprog.Load(t, "../testdata/prims.lw")
	rng := rand.New(rand.NewSource(goldenSeed(t)))
	words := []uint64{0, 1, 0xffffffffffffffff, 0x8000000000000000, 0x0101010101010101}
	for range 6 {
		words = append(words, rng.Uint64())
	}
	tg, _ := backend.Lookup("mos6502")
	for _, opt := range []string{"speed", "size"} {
		r, err := tg.Prepare(input(p), backend.Options{Opt: opt})
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"mulw64", "mulw32", "mul64"} {
			fn := p.Export(name)
			counts := map[string][][2]uint64{}
			for i, a := range words {
				b := words[(i*3+1)%len(words)]
				if name == "mulw32" {
					a, b = a&0xffffffff, b&0xffffffff
				}
				_, st, err := r.Run(fn.Name, []lang.Value{{Word: a}, {Word: b}})
				if err != nil {
					t.Fatalf("--opt %s %s: %v", opt, name, err)
				}
				counts[st[0].Value] = append(counts[st[0].Value], [2]uint64{a, b})
			}
			if len(counts) != 1 {
				t.Errorf("--opt %s %s: %d different cycle counts: %v", opt, name, len(counts), counts)
			}
		}
		r.Close()
	}
}

// TestRotates runs testdata/rotates.lw (rotates of u16, u32 and u64 by
// every amount that is not a multiple of 8, as carry chains, nibble
// lookups and linear maps) on the 6502 in both modes and compares every
// export with the VM.
func TestRotates(t *testing.T) {
	backendcheck.TestFile(t, "mos6502", "testdata/rotates.lw", 1, 8, backend.Options{Opt: "speed"}, backend.Options{Opt: "size"})
}
