package randprog

import (
	"testing"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// vmFeatureTarget is the VM with `have` answering feats: a stand-in for a
// backend compiled for hardware with those features.
type vmFeatureTarget struct {
	p     *lang.Program
	feats lang.FeatureSet
}

func (t vmFeatureTarget) Run(fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
	res, _, err := vm.Run(t.p, fn, args, vm.Options{Features: t.feats})
	return res, err
}

func (t vmFeatureTarget) Close() error              { return nil }
func (t vmFeatureTarget) Features() lang.FeatureSet { return t.feats }

// TestCheckTargetFeatures: a target that answers `have` as true for every
// feature agrees with the VM when it says so (FeatureTarget), on programs
// that ask `have` (seed 50 takes another branch under `have aes`).
func TestCheckTargetFeatures(t *testing.T) {
	all := lang.FeatureSet(lang.FeatAES) | lang.FeatureSet(lang.FeatPCLMUL) | lang.FeatureSet(lang.FeatSHA)
	for seed := uint64(40); seed < 60; seed++ {
		msg, refused := CheckTarget(seed, 3, func(p *lang.Program) (Target, error) {
			return vmFeatureTarget{p: p, feats: all}, nil
		})
		if msg != "" || refused != nil {
			t.Fatalf("%s %v", msg, refused)
		}
	}
}
