package wasm32

import (
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/backendtest"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// runners keeps one Runner per program for the whole test binary: each
// stdlib module is compiled and linked once, and one Node process serves
// all of its cases.
var runners backendtest.Runners[*Runner]

func runnerFor(t testing.TB, p *lang.Program) *Runner {
	return runners.Get(t, p, "wasm32", func() (*Runner, error) { return Prepare(input(p), backend.Options{}) })
}

// TestGolden runs the whole stdlib golden suite under Node and on the
// reference VM, on the same inputs.
func TestGolden(t *testing.T) {
	cases := golden.Cases(golden.Seed(t))
	t.Run("vm", func(t *testing.T) { golden.Run(t, golden.VM, cases) })
	t.Run("wasm32", func(t *testing.T) {
		golden.Run(t, func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
			res, _, err := runnerFor(t, p).Run(fn.Name, args)
			return res, err
		}, cases)
	})
}
