package arm64

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/internal/backendtest"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// runners keeps one Runner per program and mode for the whole test
// binary: each stdlib module is compiled once per --hw setting, and one
// driver process serves all of its cases. A mode is a --hw value, or
// "auto/N": --hw auto with the level forced to N (sharing the build of
// --hw auto, in a driver process of its own).
var runners backendtest.Runners[*Runner]

func runnerFor(t testing.TB, p *lang.Program, mode string) *Runner {
	return runners.Get(t, p, mode, func() (*Runner, error) {
		hw, level := mode, -1
		switch mode {
		case "auto/0":
			hw, level = "auto", levelBase
		case "auto/1":
			hw, level = "auto", levelCrypto
		}
		r, err := Prepare(input(p), backend.Options{HW: hw})
		if err != nil || level < 0 {
			return r, err
		}
		got, err := r.ForceLevel(level)
		if err == nil && got != level {
			err = fmt.Errorf("level %d in effect (qemu -cpu %s has every extension)", got, qemuCPU)
		}
		if err != nil {
			return nil, fmt.Errorf("force level %d: %v", level, err)
		}
		return r, nil
	})
}

func qemuRunner(t *testing.T, mode string) golden.Runner {
	return func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
		res, _, err := runnerFor(t, p, mode).Run(fn.Name, args)
		return res, err
	}
}

// TestGolden runs the whole stdlib golden suite under qemu-aarch64 with
// --hw none, crypto and auto, auto forced to each level, and on the
// reference VM, all on the same inputs.
func TestGolden(t *testing.T) {
	cases := golden.Cases(golden.Seed(t))
	var mods []string
	for _, c := range cases {
		mods = append(mods, c.Module)
	}
	prebuild(t, mods, []string{"none", "crypto", "auto"})
	t.Run("vm", func(t *testing.T) { golden.Run(t, golden.VM, cases) })
	for _, mode := range []string{"none", "crypto", "auto", "auto/0", "auto/1"} {
		t.Run(mode, func(t *testing.T) { golden.Run(t, qemuRunner(t, mode), cases) })
	}
}

// prebuild compiles the stdlib modules mods in every --hw mode of modes,
// one build per CPU at a time, into the build cache the runners and
// llvm.Object then find them in.
func prebuild(t *testing.T, mods []string, modes []string) {
	type job struct{ mod, hw string }
	seen := map[string]bool{}
	var jobs []job
	for _, m := range mods {
		if !seen[m] {
			seen[m] = true
			for _, hw := range modes {
				jobs = append(jobs, job{m, hw})
			}
		}
	}
	next := make(chan job)
	var wg sync.WaitGroup
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				p, err := golden.Load(j.mod)
				if err != nil {
					t.Errorf("%s: %v", j.mod, err)
					continue
				}
				if _, err := llvm.Object(Target, input(p), backend.Options{HW: j.hw}); err != nil {
					t.Errorf("%s --hw %s: %v", j.mod, j.hw, err)
				}
			}
		}()
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
}
