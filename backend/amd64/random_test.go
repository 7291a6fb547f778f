package amd64

import (
	"fmt"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/randprog"
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
	var modes []backendcheck.Mode
	for _, hw := range []string{"none", "aes", "auto"} {
		modes = append(modes, backendcheck.Mode{Name: hw, Prepare: func(seed uint64, p *lang.Program) (randprog.Target, error) {
			return randPrepare(p, hw, seed)
		}})
	}
	backendcheck.Campaign{Pkg: "./backend/amd64", Modes: modes, DefaultN: randDefaultN, LongN: randLongN,
		ModeEnv: "LOWENT_RANDPROG_HW"}.Run(t)
}

// randPrepare compiles p under --hw hw; under auto the runner is forced to
// one of the dispatcher's levels, chosen by seed.
func randPrepare(p *lang.Program, hw string, seed uint64) (randprog.Target, error) {
	r, err := Prepare(input(p), backend.Options{HW: hw})
	if err != nil {
		return nil, err
	}
	t := &backendcheck.FeatureTarget{Target: backendcheck.FromRunner(r)}
	switch hw {
	case "aes":
		t.Feats = lang.FeatureSet(lang.FeatAES) | lang.FeatureSet(lang.FeatPCLMUL)
	case "auto":
		lvl, err := r.ForceLevel(randAutoLevels[seed%uint64(len(randAutoLevels))])
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("internal: forcing the CPU level: %v", err)
		}
		t.Feats = levelFeatures(lvl)
	}
	return t, nil
}
