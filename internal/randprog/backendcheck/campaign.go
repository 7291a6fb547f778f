package backendcheck

import (
	"cmp"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/randprog"
	"github.com/lowent/lowentc/internal/testlong"
	"github.com/lowent/lowentc/lang"
)

// Campaign is the random-program test of one backend: seeds
// SEED0..SEED0+N-1 in each of its modes, every export run on Sets
// argument sets and compared with the reference VM. It fails on any
// disagreement, on any refusal that is an internal error (or a panic),
// and on more than MaxRefused of a mode's programs refused for a genuine
// limit of the target.
//
// The environment chooses the seeds and modes by hand: LOWENT_RANDPROG_N
// (default DefaultN, LongN under LOWENT_LONG=1), LOWENT_RANDPROG_SEED0
// (default 1), and ModeEnv, if set, a comma-separated list of mode names.
type Campaign struct {
	Pkg        string // the package, as go test names it ("./backend/amd64"), for the replay line
	Modes      []Mode
	DefaultN   int
	LongN      int
	Sets       int     // argument sets per export (0: 3)
	MaxRefused float64 // the share of refusals allowed per mode (0: 3%)
	ModeEnv    string  // the variable that picks modes ("" for none)
	// Limit tells a refusal for a genuine limit of the target from a gap
	// or a bug of the backend, which fails the test (nil: every refusal
	// that is not IsInternal is a limit).
	Limit func(refused error) bool
	// Timeout bounds one seed, so that generated code that loops forever
	// is reported with its seed (0: no bound).
	Timeout time.Duration
	// Workers is the number of seeds checked at once (0: one a core).
	Workers int
	// First, if set, picks the seeds to start first (the ones that take
	// longest), so that none of them is the tail of the run.
	First func(seed uint64) bool
}

// Mode is one way the backend compiles a program. Prepare compiles p (the
// program of seed: a mode may choose a variant by seed) and returns its
// runner as a randprog.Target, or the refusal.
type Mode struct {
	Name    string
	Prepare func(seed uint64, p *lang.Program) (randprog.Target, error)
	Every   uint64 // the mode runs only the seeds divisible by Every (0: all)
}

// result is what one seed did in one mode.
type result struct {
	seed     uint64
	mismatch string
	refused  error
	dur      time.Duration
}

// Run runs the campaign as subtests, one per mode.
func (c Campaign) Run(t *testing.T) {
	n := int(EnvUint(t, "LOWENT_RANDPROG_N", uint64(testlong.Count(c.DefaultN, c.LongN))))
	seed0 := EnvUint(t, "LOWENT_RANDPROG_SEED0", 1)
	modes := c.Modes
	if s := os.Getenv(c.ModeEnv); c.ModeEnv != "" && s != "" {
		modes = nil
		for _, name := range strings.Split(s, ",") {
			found := false
			for _, m := range c.Modes {
				if m.Name == name {
					modes, found = append(modes, m), true
				}
			}
			if !found {
				t.Fatalf("%s=%q: no mode %q (modes: %s)", c.ModeEnv, s, name, c.modeNames())
			}
		}
	}
	for _, m := range modes {
		t.Run(m.Name, func(t *testing.T) { c.mode(t, m, seed0, n) })
	}
}

func (c Campaign) modeNames() string {
	var names []string
	for _, m := range c.Modes {
		names = append(names, m.Name)
	}
	return strings.Join(names, ",")
}

// mode checks n seeds from seed0 in mode m, one worker a core.
func (c Campaign) mode(t *testing.T, m Mode, seed0 uint64, n int) {
	sets := c.Sets
	if sets == 0 {
		sets = 3
	}
	maxRefused := c.MaxRefused
	if maxRefused == 0 {
		maxRefused = 0.03
	}
	var seeds []uint64
	for s := seed0; s < seed0+uint64(n); s++ {
		if m.Every == 0 || s%m.Every == 0 {
			seeds = append(seeds, s)
		}
	}
	if c.First != nil {
		sort.SliceStable(seeds, func(i, j int) bool { return c.First(seeds[i]) && !c.First(seeds[j]) })
	}
	workers := c.Workers
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	results := make([]result, len(seeds))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				start := time.Now()
				results[i] = c.check(m, seeds[i], sets)
				results[i].dur = time.Since(start)
			}
		}()
	}
	for i := range seeds {
		next <- i
	}
	close(next)
	wg.Wait()

	replay := func(seed uint64) string {
		env := ""
		if os.Getenv("LOWENT_RANDPROG_LARGE") != "" {
			env = "LOWENT_RANDPROG_LARGE=1 "
		}
		if c.ModeEnv != "" {
			env += c.ModeEnv + "=" + m.Name + " "
		}
		return fmt.Sprintf("replay: %sLOWENT_RANDPROG_SEED0=%d LOWENT_RANDPROG_N=1 go test %s -run %s -v", env, seed, c.Pkg, t.Name())
	}
	isLimit := c.Limit
	if isLimit == nil {
		isLimit = func(err error) bool { return !IsInternal(err) }
	}
	var wrong, internal, limits int
	for _, r := range results {
		switch {
		case r.mismatch != "":
			wrong++
			t.Errorf("%s: %s\n%s", m.Name, r.mismatch, replay(r.seed))
		case r.refused != nil && !isLimit(r.refused):
			internal++
			t.Errorf("%s: seed %d: internal error: %v\n%s", m.Name, r.seed, r.refused, replay(r.seed))
		case r.refused != nil:
			limits++
			t.Logf("%s: seed %d refused: %v", m.Name, r.seed, r.refused)
		}
	}
	ran := len(seeds)
	t.Logf("%s: seeds %d..%d: %d programs, %d agreed, %d wrong, %d internal errors, %d refused for a target limit",
		m.Name, seed0, seed0+uint64(n)-1, ran, ran-wrong-internal-limits, wrong, internal, limits)
	if ran > 0 && float64(limits) > maxRefused*float64(ran) {
		t.Errorf("%s: %d of %d programs refused (more than %.0f%%)", m.Name, limits, ran, maxRefused*100)
	}
	slices.SortFunc(results, func(a, b result) int { return cmp.Compare(b.dur, a.dur) })
	for _, r := range results[:min(3, len(results))] {
		t.Logf("%s: slowest: seed %d: %v", m.Name, r.seed, r.dur.Round(time.Millisecond))
	}
}

// check runs the program of seed in mode m, within c.Timeout.
func (c Campaign) check(m Mode, seed uint64, sets int) result {
	done := make(chan result, 1)
	go func() {
		msg, refused := randprog.CheckTarget(seed, sets, func(p *lang.Program) (_ randprog.Target, err error) {
			defer func() {
				if x := recover(); x != nil {
					err = fmt.Errorf("internal: the backend panicked: %v", x)
				}
			}()
			return m.Prepare(seed, p)
		})
		done <- result{seed: seed, mismatch: msg, refused: refused}
	}()
	if c.Timeout == 0 {
		return <-done
	}
	select {
	case r := <-done:
		return r
	case <-time.After(c.Timeout):
		return result{seed: seed, mismatch: fmt.Sprintf("seed %d: did not finish in %v (the generated code loops?)", seed, c.Timeout)}
	}
}

// IsInternal tells a compiler bug from a limit of the target.
func IsInternal(err error) bool {
	s := err.Error()
	return strings.Contains(s, "BUG") || strings.Contains(s, "internal")
}

// EnvUint reads a non-negative integer (decimal, or 0x hexadecimal) from
// the environment variable name, def when it is unset: the seed and count
// variables of the random-program tests. Anything else fails t.
func EnvUint(t testing.TB, name string, def uint64) uint64 {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		t.Fatalf("%s=%q: want a non-negative integer", name, s)
	}
	return v
}

// LevelRunner is the runner of a target whose --hw auto picks a level at
// run time; ForceLevel lowers the level its dispatcher sees and returns
// the level in effect.
type LevelRunner interface {
	backend.Runner
	ForceLevel(n int) (int, error)
}

// HW describes the --hw modes of a target for a campaign.
type HW struct {
	Modes   []string                                              // the --hw values, one mode each
	Prepare func(p *lang.Program, hw string) (LevelRunner, error) // compiles p under --hw hw
	// Fixed is what `have` answers under a --hw value other than auto.
	Fixed func(hw string) lang.FeatureSet
	// Under auto, the runner is forced to Levels[seed % len(Levels)], so
	// every variant of the dispatcher meets random programs, and `have`
	// answers LevelFeatures(the level in effect).
	Levels        []int
	LevelFeatures func(level int) lang.FeatureSet
}

// CampaignModes returns one Mode per --hw value.
func (h HW) CampaignModes() []Mode {
	var modes []Mode
	for _, hw := range h.Modes {
		modes = append(modes, Mode{Name: hw, Prepare: func(seed uint64, p *lang.Program) (randprog.Target, error) {
			return h.Target(p, hw, seed)
		}})
	}
	return modes
}

// Target compiles p under --hw hw and answers `have` as that mode does
// (under auto, at the level seed picks).
func (h HW) Target(p *lang.Program, hw string, seed uint64) (randprog.Target, error) {
	r, err := h.Prepare(p, hw)
	if err != nil {
		return nil, err
	}
	t := &FeatureTarget{Target: FromRunner(r)}
	if hw != "auto" {
		t.Feats = h.Fixed(hw)
		return t, nil
	}
	lvl, err := r.ForceLevel(h.Levels[seed%uint64(len(h.Levels))])
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("internal: forcing the level: %v", err)
	}
	t.Feats = h.LevelFeatures(lvl)
	return t, nil
}
