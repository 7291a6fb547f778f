package mos6502

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/randprog"
	"github.com/lowent/lowentc/internal/randprog/backendcheck"
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

// randomRefuseShare is the largest share of programs the target may
// refuse for its genuine limits (memory, zero page).
const randomRefuseShare = 0.03

// TestRandomPrograms compiles random well-typed programs (the generator
// the IR is tested with) for the 6502, in the default mode and --opt size
// (and one seed in randomBalancedEvery with --opt balanced), lints the
// emitted source and compares every export's outcome with the reference
// VM's on several argument sets (backendcheck.Campaign). The large
// programs (one seed in sixteen) take longest to build (the configuration
// search): they start first, so that no one of them is the tail; twice as
// many workers as cores, since 64tass runs outside the process.
func TestRandomPrograms(t *testing.T) {
	mode := func(name, opt string, every uint64) backendcheck.Mode {
		return backendcheck.Mode{Name: name, Every: every, Prepare: func(_ uint64, p *lang.Program) (randprog.Target, error) {
			return randomTarget(p, opt)
		}}
	}
	backendcheck.Campaign{Pkg: "./backend/mos6502",
		Modes:    []backendcheck.Mode{mode("speed", "", 0), mode("size", "size", 0), mode("balanced", "balanced", randomBalancedEvery)},
		DefaultN: randomDefaultN, LongN: randomLongN, Sets: randomSets, MaxRefused: randomRefuseShare,
		Workers: 2 * runtime.GOMAXPROCS(0), First: func(seed uint64) bool { return seed%16 == 7 }}.Run(t)
}

// randomTarget builds p with --opt opt and refuses it, as an internal
// error, when the emitted source is not TMP source.
func randomTarget(p *lang.Program, opt string) (randprog.Target, error) {
	prog, err := build(input(p), backend.Options{Opt: opt}, layout{org: runOrg, linear: true})
	if err != nil {
		return nil, err
	}
	if errs := Lint(prog.src); len(errs) > 0 {
		return nil, fmt.Errorf("internal: the emitted program is not TMP source: %v", errs[:min(3, len(errs))])
	}
	return backendcheck.FromRunner(&Runner{prog: prog}), nil
}

// randomResult is what the program of one seed did in one mode.
type randomResult struct {
	mismatch string
	refused  error
}

// runRandom checks the program of seed in one mode ("" for speed, "size",
// "balanced"), as TestRandomPrograms does: the replay of one seed in a
// regression test.
func runRandom(seed uint64, opt string) (r randomResult) {
	r.mismatch, r.refused = randprog.CheckTarget(seed, randomSets, func(p *lang.Program) (randprog.Target, error) {
		return randomTarget(p, opt)
	})
	return r
}
