package arm64

import (
	"os"
	"testing"

	"github.com/lowent/lowentc/internal/randprog"
	"github.com/lowent/lowentc/lang"
)

// TestBuiltins runs testdata/builtins.lw (each builtin the crypto variant
// maps to an Armv8 instruction, and `have`) in every mode and level on
// random arguments, against the VM with the features the mode answers.
func TestBuiltins(t *testing.T) {
	src, err := os.ReadFile("testdata/builtins.lw")
	if err != nil {
		t.Fatal(err)
	}
	for _, hw := range []string{"none", "crypto", "auto"} {
		for seed := uint64(1); seed <= 4; seed++ {
			msg, refused := randprog.CheckSource(string(src), seed, 16, func(p *lang.Program) (randprog.Target, error) {
				return randHW.Target(p, hw, seed)
			})
			if refused != nil {
				t.Fatalf("--hw %s: %v", hw, refused)
			}
			if msg != "" {
				t.Errorf("--hw %s, seed %d: %s", hw, seed, msg)
			}
		}
	}
}
