package amd64

import (
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/randprog/backendcheck"
	"github.com/lowent/lowentc/lang"
)

// The random-program test: well-typed programs from internal/randprog are
// compiled natively and every export is compared with the reference VM.
// Each program costs an opt, llc and gcc run, so the default count is
// small and LOWENT_LONG=1 (internal/testlong) runs the long campaign;
// LOWENT_RANDPROG_N and LOWENT_RANDPROG_SEED0 choose the seeds by hand,
// and LOWENT_RANDPROG_HW picks the --hw modes (default none,aes,auto).

// randDefaultN and randLongN are the numbers of seeds per --hw mode when
// LOWENT_RANDPROG_N is not set: by default a slice (about 10 s on two
// cores for the three modes), with LOWENT_LONG=1 the campaign.
const (
	randDefaultN = 12
	randLongN    = 150
)

// randAutoLevels are the CPU levels a --hw auto program is forced to, chosen
// by seed, so every variant of the dispatcher meets random programs.
var randAutoLevels = []int{levelBase, levelAES, levelAVX2, levelAVX512, levelAES | levelSHA, levelAVX512 | levelSHA}

// TestRandomPrograms runs seeds SEED0..SEED0+N-1 in each --hw mode
// (backendcheck.Campaign; LOWENT_RANDPROG_HW picks modes by hand).
func TestRandomPrograms(t *testing.T) {
	hw := backendcheck.HW{
		Modes: []string{"none", "aes", "auto"},
		Prepare: func(p *lang.Program, hw string) (backendcheck.LevelRunner, error) {
			return Prepare(input(p), backend.Options{HW: hw})
		},
		Fixed: func(hw string) lang.FeatureSet {
			if hw == "aes" {
				return lang.FeatureSet(lang.FeatAES) | lang.FeatureSet(lang.FeatPCLMUL)
			}
			return 0
		},
		Levels: randAutoLevels, LevelFeatures: levelFeatures,
	}
	backendcheck.Campaign{Pkg: "./backend/amd64", Modes: hw.CampaignModes(), DefaultN: randDefaultN, LongN: randLongN,
		ModeEnv: "LOWENT_RANDPROG_HW"}.Run(t)
}
