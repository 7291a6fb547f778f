package arm64

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/randprog"
	"github.com/lowent/lowentc/internal/randprog/backendcheck"
	"github.com/lowent/lowentc/internal/testlong"
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
	randLongN    = 350
)

// randSets is the number of argument sets each export is run on.
const randSets = 3

// randMaxRefused is the share of programs a mode may refuse for a genuine
// limit of the target before the test fails.
const randMaxRefused = 0.03

func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q: want a non-negative integer", name, s)
	}
	return n
}

type randResult struct {
	seed     uint64
	mismatch string
	refused  error
}

// TestRandomPrograms runs seeds SEED0..SEED0+N-1 in each --hw mode (auto
// forced to level 0 or 1 by seed), three argument sets per export, and
// fails on any disagreement with the VM, any internal error, and more
// than 3% of programs refused for a target limit.
func TestRandomPrograms(t *testing.T) {
	n := envInt(t, "LOWENT_RANDPROG_N", testlong.Count(randDefaultN, randLongN))
	seed0 := envInt(t, "LOWENT_RANDPROG_SEED0", 1)
	modes := []string{"none", "crypto", "auto"}
	if s := os.Getenv("LOWENT_RANDPROG_HW"); s != "" {
		modes = strings.Split(s, ",")
	}
	for _, hw := range modes {
		t.Run("hw="+hw, func(t *testing.T) { randMode(t, hw, uint64(seed0), n) })
	}
}

func randMode(t *testing.T, hw string, seed0 uint64, n int) {
	results := make([]randResult, n)
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				seed := seed0 + uint64(i)
				msg, refused := randprog.CheckTarget(seed, randSets, func(p *lang.Program) (randprog.Target, error) {
					return randPrepare(p, hw, seed)
				})
				results[i] = randResult{seed: seed, mismatch: msg, refused: refused}
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	replay := func(seed uint64) string {
		return fmt.Sprintf("replay: LOWENT_RANDPROG_SEED0=%d LOWENT_RANDPROG_N=1 LOWENT_RANDPROG_HW=%s go test ./backend/arm64 -run TestRandomPrograms -v", seed, hw)
	}
	var wrong, internal, limits int
	for _, r := range results {
		switch {
		case r.mismatch != "":
			wrong++
			t.Errorf("--hw %s: %s\n%s", hw, r.mismatch, replay(r.seed))
		case r.refused != nil && isInternal(r.refused):
			internal++
			t.Errorf("--hw %s: seed %d: internal error: %v\n%s", hw, r.seed, r.refused, replay(r.seed))
		case r.refused != nil:
			limits++
			t.Logf("--hw %s: seed %d refused: %v", hw, r.seed, r.refused)
		}
	}
	t.Logf("--hw %s: seeds %d..%d: %d programs, %d agreed, %d wrong, %d internal errors, %d refused for a target limit",
		hw, seed0, seed0+uint64(n)-1, n, n-wrong-internal-limits, wrong, internal, limits)
	if n > 0 && float64(limits) > randMaxRefused*float64(n) {
		t.Errorf("--hw %s: %d of %d programs refused (more than %.0f%%)", hw, limits, n, randMaxRefused*100)
	}
}

func isInternal(err error) bool {
	s := err.Error()
	return strings.Contains(s, "BUG") || strings.Contains(s, "internal")
}

// randPrepare compiles p under --hw hw; under auto the runner is forced to
// level seed%2.
func randPrepare(p *lang.Program, hw string, seed uint64) (randprog.Target, error) {
	r, err := Prepare(input(p), backend.Options{HW: hw})
	if err != nil {
		return nil, err
	}
	t := &randTarget{Target: backendcheck.FromRunner(r)}
	switch hw {
	case "crypto":
		t.feats = levelFeatures(levelCrypto)
	case "auto":
		lvl, err := r.ForceLevel(int(seed % 2))
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("internal: forcing the level: %v", err)
		}
		t.feats = levelFeatures(lvl)
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

type randTarget struct {
	randprog.Target
	feats lang.FeatureSet
}

// Features implements randprog.FeatureTarget.
func (t *randTarget) Features() lang.FeatureSet { return t.feats }
