package jcvm

import (
	"fmt"
	"sync"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// simRunner returns a golden runner on the simulator, one compiled class
// per module (a stdlib module's the package's shared one, classOf).
func simRunner(t *testing.T, opts backend.Options) golden.Runner {
	var mu sync.Mutex
	runners := map[*lang.Program]backend.Runner{}
	return func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
		mu.Lock()
		defer mu.Unlock()
		r, ok := runners[p]
		if !ok {
			var err error
			r, err = prepareShared(p, opts)
			if err != nil {
				return nil, err
			}
			runners[p] = r
		}
		res, _, err := r.Run(fn.Name, args)
		return res, err
	}
}

// TestGoldenSim runs the golden suite on the simulated bytecode, with ints
// and with --no-int.
func TestGoldenSim(t *testing.T) {
	seed := golden.Seed(t)
	for _, noInt := range []bool{false, true} {
		t.Run(fmt.Sprintf("noint=%v", noInt), func(t *testing.T) {
			golden.Run(t, simRunner(t, backend.Options{NoInt: noInt}), golden.Cases(seed))
		})
	}
}
