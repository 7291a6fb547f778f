package amd64

import (
	"sync"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
	"github.com/lowent/lowentc/vm"
)

// runners keeps one Runner per program and --hw setting for the whole test
// binary: each stdlib module is compiled once per mode, and one driver
// process serves all of its cases.
var runners = struct {
	sync.Mutex
	m map[*lang.Program]map[string]*Runner
}{m: map[*lang.Program]map[string]*Runner{}}

func runnerFor(t testing.TB, p *lang.Program, hw string) *Runner {
	runners.Lock()
	defer runners.Unlock()
	if runners.m[p] == nil {
		runners.m[p] = map[string]*Runner{}
	}
	if r := runners.m[p][hw]; r != nil {
		return r
	}
	r, err := Prepare(input(p), backend.Options{HW: hw})
	if err != nil {
		t.Fatalf("compiling %s with --hw %s: %v", p.Root.Module, hw, err)
	}
	runners.m[p][hw] = r
	return r
}

func nativeRunner(t *testing.T, hw string) golden.Runner {
	return func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
		res, _, err := runnerFor(t, p, hw).Run(fn.Name, args)
		return res, err
	}
}

// TestGolden runs the whole stdlib golden suite natively under --hw none,
// aes and auto, and on the reference VM, all on the same inputs.
func TestGolden(t *testing.T) {
	cases := golden.Cases(golden.Seed(t))
	t.Run("vm", func(t *testing.T) {
		golden.Run(t, func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
			res, _, err := vm.Run(p, fn, args, vm.Options{})
			return res, err
		}, cases)
	})
	for _, hw := range []string{"none", "aes", "auto"} {
		t.Run(hw, func(t *testing.T) { golden.Run(t, nativeRunner(t, hw), cases) })
	}
}
