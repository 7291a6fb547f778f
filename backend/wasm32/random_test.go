package wasm32

import (
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/randprog"
	"github.com/lowent/lowentc/internal/randprog/backendcheck"
	"github.com/lowent/lowentc/lang"
)

// The random-program test: well-typed programs from internal/randprog are
// compiled for wasm32 and every export is compared with the reference VM
// under Node. Each program costs an opt, llc, wasm-ld and a Node start,
// so the default count is a small slice and LOWENT_LONG=1
// (internal/testlong) runs the long campaign; LOWENT_RANDPROG_N and
// LOWENT_RANDPROG_SEED0 choose the seeds by hand.
const (
	randDefaultN = 8
	randLongN    = 200
)

// TestRandomPrograms runs seeds SEED0..SEED0+N-1 (backendcheck.Campaign).
func TestRandomPrograms(t *testing.T) {
	mode := backendcheck.Mode{Name: "none", Prepare: func(_ uint64, p *lang.Program) (randprog.Target, error) {
		r, err := Prepare(input(p), backend.Options{})
		if err != nil {
			return nil, err
		}
		return backendcheck.FromRunner(r), nil
	}}
	backendcheck.Campaign{Pkg: "./backend/wasm32", Modes: []backendcheck.Mode{mode}, DefaultN: randDefaultN, LongN: randLongN}.Run(t)
}
