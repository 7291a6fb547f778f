package lwrt_test

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/lowent/lowentc/driver"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lower"
	"github.com/lowent/lowentc/lwrt"
	"github.com/lowent/lowentc/sem"
)

// TestRuntimeMatchesBuiltins runs the runtime's functions through the IR
// pipeline at every limb width and compares them with the builtins'
// meaning (package sem) on random operands.
func TestRuntimeMatchesBuiltins(t *testing.T) {
	p, ds := driver.LoadSource(lwrt.Name, lwrt.Source())
	if len(ds) > 0 {
		t.Fatalf("runtime does not compile: %v", ds)
	}
	rng := rand.New(rand.NewSource(1))
	for _, w := range []int{64, 32, 16, 8} {
		t.Run(fmt.Sprint("W=", w), func(t *testing.T) {
			m, err := lower.Compile(p, ir.Options{W: w, Unroll: ir.DefaultUnroll, Verify: true})
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 20; i++ {
				a := []uint64{rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64()}
				if i == 0 {
					a = []uint64{0, 0, 0, 0}
				}
				args := func(n int) []sem.Value {
					var vs []sem.Value
					for _, x := range a[:n] {
						vs = append(vs, sem.Value{Word: x})
					}
					return vs
				}
				check := func(name string, n int, want ...uint64) {
					t.Helper()
					got, err := ir.Run(m, name, args(n))
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if len(got) != len(want) || got[0].Word != want[0] || got[1].Word != want[1] {
						t.Fatalf("%s(%#x) = %v, want %#x", name, a[:n], got, want)
					}
				}
				e0, e1 := sem.AESEnc(a[0], a[1], a[2], a[3])
				check("enc", 4, e0, e1)
				l0, l1 := sem.AESEncLast(a[0], a[1], a[2], a[3])
				check("enclast", 4, l0, l1)
				check("clmul", 2, sem.ClmulLo(a[0], a[1]), sem.ClmulHi(a[0], a[1]))
			}
		})
	}
}
