package wasm32

import (
	"sync"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
	"github.com/lowent/lowentc/vm"
)

// runners keeps one Runner per program for the whole test binary: each
// stdlib module is compiled and linked once, and one Node process serves
// all of its cases.
var runners = struct {
	sync.Mutex
	m map[*lang.Program]*Runner
}{m: map[*lang.Program]*Runner{}}

func runnerFor(t testing.TB, p *lang.Program) *Runner {
	runners.Lock()
	defer runners.Unlock()
	if r := runners.m[p]; r != nil {
		return r
	}
	r, err := Prepare(input(p), backend.Options{})
	if err != nil {
		t.Fatalf("compiling %s: %v", p.Root.Module, err)
	}
	runners.m[p] = r
	return r
}

// TestGolden runs the whole stdlib golden suite under Node and on the
// reference VM, on the same inputs.
func TestGolden(t *testing.T) {
	cases := golden.Cases(golden.Seed(t))
	t.Run("vm", func(t *testing.T) {
		golden.Run(t, func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
			res, _, err := vm.Run(p, fn, args, vm.Options{})
			return res, err
		}, cases)
	})
	t.Run("wasm32", func(t *testing.T) {
		golden.Run(t, func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
			res, _, err := runnerFor(t, p).Run(fn.Name, args)
			return res, err
		}, cases)
	})
}
