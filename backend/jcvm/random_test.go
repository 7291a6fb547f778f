package jcvm

import (
	"strings"
	"testing"
	"time"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/randprog"
	"github.com/lowent/lowentc/internal/randprog/backendcheck"
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
	randLongN    = 250
)

// randMaxLimitShare is the largest share of programs the backend may refuse
// for a genuine limit of the card (a method's locals, stack or size).
const randMaxLimitShare = 0.03

// randSeedTimeout bounds one program, so that generated code that loops
// forever in the simulator is reported with its seed.
const randSeedTimeout = 120 * time.Second

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
// stay rare (backendcheck.Campaign).
func TestRandomPrograms(t *testing.T) {
	width := func(name string, noInt bool) backendcheck.Mode {
		return backendcheck.Mode{Name: name, Prepare: func(_ uint64, p *lang.Program) (randprog.Target, error) {
			r, err := prepare(input(p), backend.Options{NoInt: noInt})
			if err != nil {
				return nil, err
			}
			return backendcheck.FromRunner(r), nil
		}}
	}
	backendcheck.Campaign{Pkg: "./backend/jcvm", Modes: []backendcheck.Mode{width("int", false), width("no-int", true)},
		DefaultN: randDefaultN, LongN: randLongN, Sets: randArgSets, MaxRefused: randMaxLimitShare,
		Limit: func(err error) bool { return cardLimit(err) != "" }, Timeout: randSeedTimeout}.Run(t)
}
