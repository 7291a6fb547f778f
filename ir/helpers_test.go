package ir_test

import (
	"testing"

	"github.com/lowent/lowentc/internal/testprog"
	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
	"github.com/lowent/lowentc/vm"
)

// load parses and checks a test program.
func load(t *testing.T, src string) *lang.Program {
	return testprog.Source(t, "t.lw", src)
}

// widths are the legalization widths tested: 0 (none) and every target's.
var widths = []int{0, 64, 32, 16, 8}

// compile runs the pipeline at width w with the IR checker after every pass.
func compile(t *testing.T, p *lang.Program, w int) *Module {
	t.Helper()
	m, err := lower.Compile(p, Options{W: w, Unroll: DefaultUnroll, Verify: true})
	if err != nil {
		t.Fatalf("compile W=%d: %v", w, err)
	}
	return m
}

// vmRun runs an export on the reference VM.
func vmRun(p *lang.Program, name string, args []lang.Value) ([]lang.Value, error) {
	res, _, err := vm.Run(p, p.Export(name), args, vm.Options{})
	return res, err
}

// vmRunFeatures runs an export on the VM with `have` answering feats.
func vmRunFeatures(p *lang.Program, name string, args []lang.Value, feats lang.FeatureSet) ([]lang.Value, error) {
	res, _, err := vm.Run(p, p.Export(name), lang.CopyValues(args), vm.Options{Features: feats})
	return res, err
}
