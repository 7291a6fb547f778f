package mos6502

import (
	"fmt"
	"runtime"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/randprog"
	"github.com/lowent/lowentc/internal/randprog/backendcheck"
	"github.com/lowent/lowentc/internal/testlong"
	"github.com/lowent/lowentc/lang"
)

// randomDefaultN is the number of random programs TestRandomPrograms runs
// by default, in each mode (about 15 s on two cores: the configuration
// search of the large programs is most of it); randomLongN with
// LOWENT_LONG=1 (internal/testlong). LOWENT_RANDPROG_N overrides both.
const (
	randomDefaultN = 16
	randomLongN    = 140
)

// randomBalancedEvery: one seed in randomBalancedEvery is also built with
// --opt balanced (a slice: its configurations are speed's, under a limit).
const randomBalancedEvery = 4

// randomSets is the number of argument sets each export is run on.
const randomSets = 3

// randomRefuseShare is the largest share of programs (percent) the target
// may refuse for its genuine limits (memory, zero page).
const randomRefuseShare = 3

// randomResult is what one seed in one mode did.
type randomResult struct {
	seed     uint64
	mode     string
	mismatch string
	refused  error
	lint     []string
	dur      time.Duration
}

// TestRandomPrograms compiles random well-typed programs (the generator
// the IR is tested with) for the 6502, in the default mode and --opt size
// (and one seed in randomBalancedEvery with --opt balanced),
// lints the emitted source and compares every export's outcome with the
// reference VM's on several argument sets.
func TestRandomPrograms(t *testing.T) {
	n := backendcheck.EnvUint(t, "LOWENT_RANDPROG_N", uint64(testlong.Count(randomDefaultN, randomLongN)))
	seed0 := backendcheck.EnvUint(t, "LOWENT_RANDPROG_SEED0", 1)
	type job struct {
		seed uint64
		opt  string
	}
	var jobs []job
	for s := seed0; s < seed0+n; s++ {
		jobs = append(jobs, job{s, ""}, job{s, "size"})
		if s%randomBalancedEvery == 0 {
			jobs = append(jobs, job{s, "balanced"})
		}
	}
	// The large programs (one seed in sixteen) take longest to build (the
	// configuration search): first, so that no one of them is the tail.
	// Twice as many workers as cores: 64tass runs outside the process.
	sort.SliceStable(jobs, func(i, j int) bool { return jobs[i].seed%16 == 7 && jobs[j].seed%16 != 7 })
	results := make([]randomResult, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < 2*runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = runRandom(jobs[i].seed, jobs[i].opt)
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()

	runs := map[string]int{}
	refused := map[string]int{}
	failed := 0
	for _, r := range results {
		mode := r.mode
		runs[mode]++
		replay := fmt.Sprintf("replay: LOWENT_RANDPROG_SEED0=%d LOWENT_RANDPROG_N=1 go test ./backend/mos6502 -run TestRandomPrograms -v", r.seed)
		switch {
		case r.mismatch != "":
			failed++
			t.Errorf("%s: %s\n%s", mode, r.mismatch, replay)
		case r.refused != nil && backendcheck.IsInternal(r.refused):
			failed++
			t.Errorf("seed %d %s: internal error: %v\n%s", r.seed, mode, r.refused, replay)
		case r.refused != nil:
			refused[mode]++
			t.Logf("seed %d %s: refused: %v", r.seed, mode, r.refused)
		case len(r.lint) > 0:
			failed++
			t.Errorf("seed %d %s: not TMP source: %v\n%s", r.seed, mode, r.lint, replay)
		}
	}
	for _, mode := range []string{"speed", "size", "balanced"} {
		t.Logf("%s: %d programs, %d refused for target limits", mode, runs[mode], refused[mode])
		if refused[mode]*100 > randomRefuseShare*runs[mode] {
			t.Errorf("%s: %d of %d programs refused, more than %d%%", mode, refused[mode], runs[mode], randomRefuseShare)
		}
	}
	slow := append([]randomResult(nil), results...)
	sort.Slice(slow, func(i, j int) bool { return slow[i].dur > slow[j].dur })
	for _, r := range slow[:min(3, len(slow))] {
		t.Logf("slowest: seed %d %s: %v", r.seed, r.mode, r.dur.Round(time.Millisecond))
	}
	if failed > 0 {
		t.Logf("%d failures", failed)
	}
}

// runRandom checks the program of seed in one mode ("" for speed, "size",
// "balanced").
func runRandom(seed uint64, opt string) (res randomResult) {
	start := time.Now()
	defer func() { res.dur = time.Since(start) }()
	res = randomResult{seed: seed, mode: "speed"}
	if opt != "" {
		res.mode = opt
	}
	res.mismatch, res.refused = randprog.CheckTarget(seed, randomSets, func(p *lang.Program) (_ randprog.Target, err error) {
		defer func() {
			if x := recover(); x != nil {
				err = fmt.Errorf("internal: the backend panicked: %v", x)
			}
		}()
		prog, err := build(input(p), backend.Options{Opt: opt}, layout{org: runOrg, linear: true})
		if err != nil {
			return nil, err
		}
		if errs := Lint(prog.src); len(errs) > 0 {
			for _, e := range errs[:min(3, len(errs))] {
				res.lint = append(res.lint, fmt.Sprint(e))
			}
		}
		return backendcheck.FromRunner(&Runner{prog: prog}), nil
	})
	return res
}
