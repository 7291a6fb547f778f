package jcvm

import (
	"math/rand"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/randprog/backendcheck"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// TestPrimitives runs backend/testdata/prims.lw (mulw, parallel
// assignment) in the simulator at both widths and compares every export
// with the VM.
func TestPrimitives(t *testing.T) {
	backendcheck.TestFile(t, "jcvm", "../testdata/prims.lw", 1, 12, backend.Options{}, backend.Options{NoInt: true})
}

// TestMulWOpcodeCountsFixed: mulw (expanded into half-word products and
// their carries) executes the same opcodes, count for count, whatever the
// operands, at both widths.
func TestMulWOpcodeCountsFixed(t *testing.T) {
	p := testprog.Load(t, "../testdata/prims.lw")
	r := rand.New(rand.NewSource(golden.Seed(t)))
	words := []uint64{0, 1, 0xffffffffffffffff, 0x8000000000000000, 0x00000000ffffffff}
	for range 5 {
		words = append(words, r.Uint64())
	}
	for _, noInt := range []bool{false, true} {
		run, err := prepare(input(p), backend.Options{NoInt: noInt})
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"mulw64", "mulw32", "mul64"} {
			fn := p.Export(name)
			var first [256]int64
			for i, a := range words {
				b := words[(i*3+1)%len(words)]
				if name == "mulw32" {
					a, b = a&0xffffffff, b&0xffffffff
				}
				_, counts, err := run.(*Runner).call(fn.Name, []lang.Value{{Word: a}, {Word: b}})
				if err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					first = counts
				} else if counts != first {
					t.Errorf("noInt=%v %s(%#x, %#x): opcode counts depend on the operands: %s", noInt, name, a, b, countsDiff(first, counts))
				}
			}
		}
		run.Close()
	}
}
