package stdlib_test

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
	"github.com/lowent/lowentc/vm"
)

// vmRunner runs an export on the reference VM.
func vmRunner(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
	res, _, err := vm.Run(p, fn, args, vm.Options{})
	return res, err
}

// goldenSeed is LOWENT_GOLDEN_SEED when set (to replay a failure), else the
// time. Tests log it, so a failing run can be reproduced.
func goldenSeed(t *testing.T) int64 {
	seed := time.Now().UnixNano()
	if s := os.Getenv("LOWENT_GOLDEN_SEED"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("LOWENT_GOLDEN_SEED=%q: %v", s, err)
		}
		seed = v
	}
	t.Logf("random inputs from seed %d (rerun with LOWENT_GOLDEN_SEED=%d)", seed, seed)
	return seed
}

// TestGoldenVM runs the whole golden suite on the reference VM.
func TestGoldenVM(t *testing.T) {
	golden.Run(t, vmRunner, golden.Cases(goldenSeed(t)))
}
