package jcvm

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/randprog"
	"github.com/lowent/lowentc/internal/randprog/backendcheck"
	"github.com/lowent/lowentc/internal/testlong"
	"github.com/lowent/lowentc/lang"
)

// randArgSets is how many argument sets each export of a random program
// runs on.
const randArgSets = 3

// randDefaultN is the default number of random programs, each compiled
// and run at both limb widths (about 15 s on two cores); randLongN is the
// campaign LOWENT_LONG=1 (internal/testlong) runs.
const (
	randDefaultN = 30
	randLongN    = 400
)

// randMaxLimitShare is the largest share of programs the backend may refuse
// for a genuine limit of the card (a method's locals, stack or size).
const randMaxLimitShare = 0.03

// randSeedTimeout bounds one program, so that generated code that loops
// forever in the simulator is reported with its seed.
const randSeedTimeout = 120 * time.Second

// randOutcome is what one seed gave at one width.
type randOutcome struct {
	seed    uint64
	noInt   bool
	msg     string // a mismatch report
	refused error  // the backend's compile error
}

// randReplay is the command that replays one seed.
func randReplay(seed uint64) string {
	return fmt.Sprintf("LOWENT_RANDPROG_SEED0=%d LOWENT_RANDPROG_N=1 go test ./backend/jcvm -run TestRandomPrograms -v", seed)
}

// checkRandom runs the random program of seed through the backend at one
// width, in the simulator.
func checkRandom(seed uint64, noInt bool) randOutcome {
	o := randOutcome{seed: seed, noInt: noInt}
	done := make(chan randOutcome, 1)
	go func() {
		defer func() {
			if x := recover(); x != nil {
				o.msg = fmt.Sprintf("seed %d: the backend panicked: %v", seed, x)
				done <- o
			}
		}()
		o.msg, o.refused = randprog.CheckTarget(seed, randArgSets, func(p *lang.Program) (randprog.Target, error) {
			r, err := prepare(input(p), backend.Options{NoInt: noInt})
			if err != nil {
				return nil, err
			}
			return backendcheck.FromRunner(r), nil
		})
		done <- o
	}()
	select {
	case o := <-done:
		return o
	case <-time.After(randSeedTimeout):
		o.msg = fmt.Sprintf("seed %d: did not finish in %v (the simulator loops?)", seed, randSeedTimeout)
		return o
	}
}

// cardLimit names the genuine limit of the card a compile error reports,
// or "" for a gap or a bug of the backend.
func cardLimit(err error) string {
	s := err.Error()
	if strings.Contains(s, "BUG") || strings.Contains(s, "internal") || strings.Contains(s, "not supported") {
		return ""
	}
	for _, l := range []string{"local cells", "stack cells", "bytes of bytecode"} {
		if strings.Contains(s, l) {
			return l
		}
	}
	return ""
}

// TestRandomPrograms is differential testing against the reference VM: the
// random well-typed programs of internal/randprog (seeds from
// LOWENT_RANDPROG_SEED0, default 1; LOWENT_RANDPROG_N of them) are compiled
// with and without int and every export runs in the simulator on
// randArgSets argument sets; results, mut outputs and traps must be the
// VM's. A refusal is a failure unless it is a card limit, and those must
// stay rare.
func TestRandomPrograms(t *testing.T) {
	first := backendcheck.EnvUint(t, "LOWENT_RANDPROG_SEED0", 1)
	n := backendcheck.EnvUint(t, "LOWENT_RANDPROG_N", uint64(testlong.Count(randDefaultN, randLongN)))
	type job struct {
		seed  uint64
		noInt bool
	}
	jobs := make(chan job)
	var mu sync.Mutex
	var outs []randOutcome
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				o := checkRandom(j.seed, j.noInt)
				mu.Lock()
				outs = append(outs, o)
				mu.Unlock()
			}
		}()
	}
	for s := first; s < first+n; s++ {
		jobs <- job{s, false}
		jobs <- job{s, true}
	}
	close(jobs)
	wg.Wait()
	sort.Slice(outs, func(i, j int) bool {
		if outs[i].seed != outs[j].seed {
			return outs[i].seed < outs[j].seed
		}
		return !outs[i].noInt && outs[j].noInt
	})

	var mismatches, bugs, limits int
	reasons := map[string]int{}
	for _, o := range outs {
		width := "int"
		if o.noInt {
			width = "--no-int"
		}
		switch {
		case o.msg != "":
			mismatches++
			if mismatches <= 3 {
				t.Errorf("%s:\n%s\n  replay: %s", width, o.msg, randReplay(o.seed))
			}
		case o.refused != nil && cardLimit(o.refused) == "":
			bugs++
			if bugs <= 5 {
				t.Errorf("seed %d (%s): refused: %v\n  replay: %s", o.seed, width, o.refused, randReplay(o.seed))
			}
		case o.refused != nil:
			limits++
			reasons[cardLimit(o.refused)]++
			t.Logf("seed %d (%s): refused (card limit): %v", o.seed, width, o.refused)
		}
	}
	t.Logf("%d programs x 2 widths: %d compilations, %d mismatches, %d refused for a backend gap or bug, %d refused for a card limit %v",
		n, len(outs), mismatches, bugs, limits, reasons)
	if len(outs) > 0 && float64(limits) > randMaxLimitShare*float64(len(outs)) {
		t.Errorf("%d of %d compilations refused for a card limit (more than %.0f%%); replay one with %s",
			limits, len(outs), 100*randMaxLimitShare, randReplay(first))
	}
}
