package stdlib_test

import (
	"testing"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
	"github.com/lowent/lowentc/vm"
)

// vmRunner runs an export on the reference VM.
var vmRunner golden.Runner = golden.VM

// TestGoldenVM runs the whole golden suite on the reference VM, as a
// machine without hardware features, as one with all of them and as one
// with all but ifma (so every branch of every `if have ...`, e.g.
// SHA-256's instruction-shaped compression, Poly1305's eight lanes and
// its three chains, is checked against Go's crypto on every host).
func TestGoldenVM(t *testing.T) {
	cases := golden.Cases(golden.Seed(t))
	all, err := lang.ParseFeatures("all")
	if err != nil {
		t.Fatal(err)
	}
	for _, feats := range []lang.FeatureSet{0, all, all &^ lang.FeatureSet(lang.FeatIFMA)} {
		t.Run("have="+feats.String(), func(t *testing.T) {
			golden.Run(t, func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
				res, _, err := vm.Run(p, fn, args, vm.Options{Features: feats})
				return res, err
			}, cases)
		})
	}
}
