package ir_test

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lowent/lowentc/driver"
	"github.com/lowent/lowentc/internal/randprog"
	"github.com/lowent/lowentc/internal/testlong"
	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
	"github.com/lowent/lowentc/vm"
)

// TestRandomCallsAgainstVM is a differential test of the call-keeping
// pipeline: random programs (internal/randprog, with helpers that call each
// other) are compiled at every width with a policy that keeps calls, and
// every export must do on the IR interpreter what it does on the reference
// VM: the same results and mut outputs, or a trap at the same position.
// LOWENT_IRCALLS_N sets the number of programs (default 60, 600 with
// LOWENT_LONG=1).
func TestRandomCallsAgainstVM(t *testing.T) {
	n := testlong.Count(60, 600)
	if s := os.Getenv("LOWENT_IRCALLS_N"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("LOWENT_IRCALLS_N=%q: %v", s, err)
		}
		n = v
	}
	seeds := make(chan uint64)
	var mu sync.Mutex
	var fails []string
	kept := 0
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range seeds {
				calls, msg := checkRandomCalls(seed)
				mu.Lock()
				kept += calls
				if msg != "" {
					fails = append(fails, fmt.Sprintf("seed %d: %s", seed, msg))
				}
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < n; i++ {
		seeds <- uint64(1 + i)
	}
	close(seeds)
	wg.Wait()
	for i, f := range fails {
		if i == 3 {
			t.Errorf("... and %d more failing seeds", len(fails)-3)
			break
		}
		t.Error(f)
	}
	if n >= 50 && kept == 0 {
		t.Errorf("no call was kept in %d programs: the test does not test calls", n)
	}
	t.Logf("%d programs, %d calls kept at W=8", n, kept)
}

// randomPolicy gives each seed an inlining budget that keeps calls (none
// inlined, or only small or single-call-site callees) and an unrolling
// budget.
func randomPolicy(seed uint64) (budget, unroll int) {
	return []int{InlineNone, 8, InlineNone, 40}[seed%4], []int{0, 64, DefaultUnroll}[seed/4%3]
}

// checkRandomCalls runs one random program; it returns the number of calls
// kept at W=8 and a description of the first disagreement, or "".
func checkRandomCalls(seed uint64) (int, string) {
	src := randprog.Generate(seed, randprog.Config{})
	p, ds := driver.LoadSource("rnd.lw", []byte(src))
	if len(ds) > 0 {
		return 0, "the checker rejects the program:\n" + ds.Render(lang.Sources{"rnd.lw": []byte(src)})
	}
	budget, unroll := randomPolicy(seed)
	var mods []*Module
	calls := 0
	for _, w := range widths {
		m, err := lower.Compile(p, Options{W: w, Unroll: unroll, InlineBudget: budget, Verify: seed%5 == 0})
		if err != nil {
			return 0, fmt.Sprintf("compile W=%d budget=%d unroll=%d: %v\n%s", w, budget, unroll, err, src)
		}
		mods = append(mods, m)
		if w == 8 {
			calls = countOps(m, OpCall)
		}
	}
	for ei, fn := range p.Exports() {
		for k := uint64(0); k < 3; k++ {
			args := randprog.Args(seed*7919+uint64(ei)*131+k, fn)
			want := runOutcome(fn, args, func(a []lang.Value) ([]lang.Value, error) {
				res, _, err := vm.Run(p, fn, a, vm.Options{})
				return res, err
			})
			if strings.HasPrefix(want, "error:") {
				continue // the arguments do not meet the export's requires
			}
			for i, m := range mods {
				got := runOutcome(fn, args, func(a []lang.Value) ([]lang.Value, error) { return Run(m, fn.Name, a) })
				if got != want {
					return calls, fmt.Sprintf("%s at W=%d (budget %d, unroll %d):\n  vm: %s\n  ir: %s\n%s", fn.Name, widths[i], budget, unroll, want, got, src)
				}
			}
		}
	}
	return calls, ""
}

// runOutcome runs an export on a copy of args and describes what it did:
// the trap position, or the results and the final mut arguments.
func runOutcome(fn *lang.FuncDecl, args []lang.Value, run func([]lang.Value) ([]lang.Value, error)) string {
	a := lang.CopyValues(args)
	res, err := run(a)
	var vt *vm.Trap
	var it *Trap
	switch {
	case errors.As(err, &vt):
		return "trap at " + vt.Pos.String()
	case errors.As(err, &it):
		return "trap at " + it.Pos.String()
	case err != nil:
		return "error: " + err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "results %v", res)
	for i, prm := range fn.Params {
		if prm.Mut {
			fmt.Fprintf(&b, " %s=%v", prm.Name, a[i].Elems)
		}
	}
	return b.String()
}
