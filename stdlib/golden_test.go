package stdlib_test

import (
	"testing"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
	"github.com/lowent/lowentc/vm"
)

// vmRunner runs an export on the reference VM.
func vmRunner(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
	res, _, err := vm.Run(p, fn, args, vm.Options{})
	return res, err
}

// TestGoldenVM runs the whole golden suite on the reference VM.
func TestGoldenVM(t *testing.T) {
	golden.Run(t, vmRunner, golden.Cases(golden.Seed(t)))
}
