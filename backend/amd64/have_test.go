package amd64

import (
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// TestHaveSHAVariant: under --hw auto every forced CPU level answers
// `have` as the VM does with that level's features, also for an export
// whose SHA-256 builtins were deleted as dead (seed 221 of the random
// programs: it had no SHA-NI variant, so `have sha` was false on a CPU
// with SHA-NI).
func TestHaveSHAVariant(t *testing.T) {
	p := testprog.Load(t, "../testdata/haves.lw")
	fn := p.Exports()[0]
	args := []lang.Value{{Word: 100}}
	for _, lvl := range []int{levelBase, levelAES, levelAVX512, levelAES | levelSHA, levelAVX512 | levelSHA} {
		r, err := Prepare(input(p), backend.Options{HW: "auto"})
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.ForceLevel(lvl)
		if err != nil {
			t.Fatal(err)
		}
		feats := levelFeatures(got)
		want, _, err := vm.Run(p, fn, args, vm.Options{Features: feats})
		if err != nil {
			t.Fatal(err)
		}
		res, _, err := r.Run(fn.Name, args)
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Word != want[0].Word {
			t.Errorf("level %#x forced (%#x in effect): got %d, the VM with %v %d", lvl, got, res[0].Word, feats, want[0].Word)
		}
		r.Close()
	}
}

// levelFeatures is what `have` answers at a CPU level of --hw auto.
func levelFeatures(lvl int) lang.FeatureSet {
	var feats lang.FeatureSet
	if lvl&levelMask >= levelAES {
		feats = lang.FeatureSet(lang.FeatAES) | lang.FeatureSet(lang.FeatPCLMUL)
	}
	if lvl&levelSHA != 0 {
		feats |= lang.FeatureSet(lang.FeatSHA)
	}
	return feats
}
