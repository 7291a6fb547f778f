package arm64

import (
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/randprog/backendcheck"
	"github.com/lowent/lowentc/lang"
)

// The random-program test: well-typed programs from internal/randprog are
// compiled for arm64, run under qemu-aarch64, and every export is
// compared with the reference VM. Each program costs an opt, llc,
// aarch64-linux-gnu-gcc and qemu run, so the default count is a small
// slice and LOWENT_LONG=1 (internal/testlong) runs the long campaign;
// LOWENT_RANDPROG_N and LOWENT_RANDPROG_SEED0 choose the seeds by hand,
// and LOWENT_RANDPROG_HW the --hw modes (default none,crypto,auto).

const (
	randDefaultN = 8
	randLongN    = 70
)

// TestRandomPrograms runs seeds SEED0..SEED0+N-1 in each --hw mode (auto
// forced to level 0 or 1 by seed; backendcheck.Campaign).
func TestRandomPrograms(t *testing.T) {
	backendcheck.Campaign{Pkg: "./backend/arm64", Modes: randHW.CampaignModes(), DefaultN: randDefaultN, LongN: randLongN,
		ModeEnv: "LOWENT_RANDPROG_HW"}.Run(t)
}

// randHW are the --hw modes of the random programs and of TestBuiltins.
var randHW = backendcheck.HW{
	Modes: []string{"none", "crypto", "auto"},
	Prepare: func(p *lang.Program, hw string) (backendcheck.LevelRunner, error) {
		return Prepare(input(p), backend.Options{HW: hw})
	},
	Fixed: func(hw string) lang.FeatureSet {
		if hw == "crypto" {
			return levelFeatures(levelCrypto)
		}
		return 0
	},
	Levels: []int{0, 1}, LevelFeatures: levelFeatures,
}

// levelFeatures is what `have` answers at a level (qemu's max CPU has
// every extension).
func levelFeatures(lvl int) lang.FeatureSet {
	if lvl == levelCrypto {
		return lang.FeatureSet(lang.FeatAES) | lang.FeatureSet(lang.FeatPCLMUL) | lang.FeatureSet(lang.FeatSHA)
	}
	return 0
}
