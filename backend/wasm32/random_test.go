package wasm32

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
// compiled for wasm32 and every export is compared with the reference VM
// under Node. Each program costs an opt, llc, wasm-ld and a Node start,
// so the default count is a small slice and LOWENT_LONG=1
// (internal/testlong) runs the long campaign; LOWENT_RANDPROG_N and
// LOWENT_RANDPROG_SEED0 choose the seeds by hand.
const (
	randDefaultN = 8
	randLongN    = 1000
)

// randSets is the number of argument sets each export is run on.
const randSets = 3

// randMaxRefused is the share of programs that may be refused for a
// genuine limit of the target before the test fails.
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

// TestRandomPrograms runs seeds SEED0..SEED0+N-1, three argument sets per
// export, and fails on any disagreement with the VM, on any refusal that
// is an internal error, and on more than 3% of programs refused for a
// target limit.
func TestRandomPrograms(t *testing.T) {
	n := envInt(t, "LOWENT_RANDPROG_N", testlong.Count(randDefaultN, randLongN))
	seed0 := uint64(envInt(t, "LOWENT_RANDPROG_SEED0", 1))
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
					r, err := Prepare(input(p), backend.Options{})
					if err != nil {
						return nil, err
					}
					return backendcheck.FromRunner(r), nil
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
		return fmt.Sprintf("replay: LOWENT_RANDPROG_SEED0=%d LOWENT_RANDPROG_N=1 go test ./backend/wasm32 -run TestRandomPrograms -v", seed)
	}
	var wrong, internal, limits int
	for _, r := range results {
		switch {
		case r.mismatch != "":
			wrong++
			t.Errorf("%s\n%s", r.mismatch, replay(r.seed))
		case r.refused != nil && isInternal(r.refused):
			internal++
			t.Errorf("seed %d: internal error: %v\n%s", r.seed, r.refused, replay(r.seed))
		case r.refused != nil:
			limits++
			t.Logf("seed %d refused: %v", r.seed, r.refused)
		}
	}
	t.Logf("seeds %d..%d: %d programs, %d agreed, %d wrong, %d internal errors, %d refused for a target limit",
		seed0, seed0+uint64(n)-1, n, n-wrong-internal-limits, wrong, internal, limits)
	if n > 0 && float64(limits) > randMaxRefused*float64(n) {
		t.Errorf("%d of %d programs refused (more than %.0f%%)", limits, n, randMaxRefused*100)
	}
}

// isInternal tells a compiler bug from a limit of the target.
func isInternal(err error) bool {
	s := err.Error()
	return strings.Contains(s, "BUG") || strings.Contains(s, "internal")
}
