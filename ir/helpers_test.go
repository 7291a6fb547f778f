package ir_test

import (
	"testing"

	"github.com/lowent/lowentc/driver"
	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
	"github.com/lowent/lowentc/vm"
)

// load parses and checks a test program.
func load(t *testing.T, src string) *lang.Program {
	t.Helper()
	p, ds := driver.LoadSource("t.lw", []byte(src))
	if len(ds) > 0 {
		t.Fatalf("load:\n%s", ds.Render(lang.Sources{"t.lw": []byte(src)}))
	}
	return p
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

// cloneArgs deep-copies arguments so two runs see the same inputs.
func cloneArgs(args []lang.Value) []lang.Value {
	out := make([]lang.Value, len(args))
	for i, a := range args {
		out[i] = a
		if a.Elems != nil {
			out[i].Elems = append([]uint64{}, a.Elems...)
		}
	}
	return out
}

// vmRun runs an export on the reference VM.
func vmRun(p *lang.Program, name string, args []lang.Value) ([]lang.Value, error) {
	res, _, err := vm.Run(p, p.Export(name), args, vm.Options{})
	return res, err
}

// vmRunFeatures runs an export on the VM with `have` answering feats.
func vmRunFeatures(p *lang.Program, name string, args []lang.Value, feats lang.FeatureSet) ([]lang.Value, error) {
	res, _, err := vm.Run(p, p.Export(name), cloneArgs(args), vm.Options{Features: feats})
	return res, err
}
