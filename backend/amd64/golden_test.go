package amd64

import (
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/backendtest"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// runners keeps one Runner per program and --hw setting for the whole test
// binary: each stdlib module is compiled once per mode, and one driver
// process serves all of its cases.
var runners backendtest.Runners[*Runner]

func runnerFor(t testing.TB, p *lang.Program, hw string) *Runner {
	return runners.Get(t, p, "--hw "+hw, func() (*Runner, error) { return Prepare(input(p), backend.Options{HW: hw}) })
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
	t.Run("vm", func(t *testing.T) { golden.Run(t, golden.VM, cases) })
	for _, hw := range []string{"none", "aes", "auto"} {
		t.Run(hw, func(t *testing.T) { golden.Run(t, nativeRunner(t, hw), cases) })
	}
}

// TestForceLevelErrors: forcing a level needs --hw auto and a level the
// dispatcher has.
func TestForceLevelErrors(t *testing.T) {
	p := testprog.Stdlib(t, "sha256")
	if _, err := runnerFor(t, p, "none").ForceLevel(levelAES); err == nil || err.Error() != "amd64: ForceLevel needs --hw auto" {
		t.Errorf("--hw none: %v", err)
	}
	want := "amd64: ForceLevel(0x7): not a CPU level 0-3 (with or without the flags 0x100 SHA, 0x200 IFMA)"
	if _, err := runnerFor(t, p, "auto").ForceLevel(7); err == nil || err.Error() != want {
		t.Errorf("level 7: %v", err)
	}
}
