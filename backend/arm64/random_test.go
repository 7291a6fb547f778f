package arm64

import (
	"fmt"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/randprog"
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
	var modes []backendcheck.Mode
	for _, hw := range []string{"none", "crypto", "auto"} {
		modes = append(modes, backendcheck.Mode{Name: hw, Prepare: func(seed uint64, p *lang.Program) (randprog.Target, error) {
			return randPrepare(p, hw, seed)
		}})
	}
	backendcheck.Campaign{Pkg: "./backend/arm64", Modes: modes, DefaultN: randDefaultN, LongN: randLongN,
		ModeEnv: "LOWENT_RANDPROG_HW"}.Run(t)
}

// randPrepare compiles p under --hw hw; under auto the runner is forced to
// level seed%2.
func randPrepare(p *lang.Program, hw string, seed uint64) (randprog.Target, error) {
	r, err := Prepare(input(p), backend.Options{HW: hw})
	if err != nil {
		return nil, err
	}
	t := &backendcheck.FeatureTarget{Target: backendcheck.FromRunner(r)}
	switch hw {
	case "crypto":
		t.Feats = levelFeatures(levelCrypto)
	case "auto":
		lvl, err := r.ForceLevel(int(seed % 2))
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("internal: forcing the level: %v", err)
		}
		t.Feats = levelFeatures(lvl)
	}
	return t, nil
}

// levelFeatures is what `have` answers at a level (qemu's max CPU has
// every extension).
func levelFeatures(lvl int) lang.FeatureSet {
	if lvl == levelCrypto {
		return lang.FeatureSet(lang.FeatAES) | lang.FeatureSet(lang.FeatPCLMUL) | lang.FeatureSet(lang.FeatSHA)
	}
	return 0
}
