package randprog

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lowent/lowentc/internal/testlong"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

// Program counts of the corpus tests: by default a slice that runs in
// well under a minute on two cores; with LOWENT_LONG=1 (internal/testlong)
// the long campaign.
const (
	defaultPrograms = 200
	longPrograms    = 600
)

// numPrograms is how many programs the corpus tests generate:
// LOWENT_RANDPROG_N, else defaultPrograms (100 with -short), or
// longPrograms with LOWENT_LONG=1.
func numPrograms(t testing.TB) int {
	if s := os.Getenv("LOWENT_RANDPROG_N"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			t.Fatalf("LOWENT_RANDPROG_N=%q is not a count", s)
		}
		return n
	}
	if testing.Short() && !testlong.On() {
		return 100
	}
	return testlong.Count(defaultPrograms, longPrograms)
}

// loadedProgram is one seed's generated and checked program.
type loadedProgram struct {
	once sync.Once
	src  string
	p    *lang.Program
	err  error
}

// loadedPrograms holds the programs the package's tests load, so that
// TestCorpusChecks and TestDifferential parse and check each seed once.
var loadedPrograms sync.Map // uint64 -> *loadedProgram

// loadShared is load, done once per seed for the whole test binary (in
// the long campaign every program is loaded afresh, not to hold thousands
// of them).
func loadShared(seed uint64) (string, *lang.Program, error) {
	if testlong.On() {
		return load(seed)
	}
	v, _ := loadedPrograms.LoadOrStore(seed, &loadedProgram{})
	lp := v.(*loadedProgram)
	lp.once.Do(func() { lp.src, lp.p, lp.err = load(seed) })
	return lp.src, lp.p, lp.err
}

// firstSeed is the seed of the first program: LOWENT_RANDPROG_SEED0, else 1.
func firstSeed(t testing.TB) uint64 {
	if s := os.Getenv("LOWENT_RANDPROG_SEED0"); s != "" {
		n, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			t.Fatalf("LOWENT_RANDPROG_SEED0=%q is not a seed", s)
		}
		return n
	}
	return 1
}

// forEachSeed calls fn for n seeds from first on all CPUs; fn's failures
// are collected and reported in seed order, at most maxFail of them.
func forEachSeed(t *testing.T, first uint64, n int, fn func(seed uint64) string) {
	t.Helper()
	type fail struct {
		seed uint64
		msg  string
	}
	var mu sync.Mutex
	var fails []fail
	seeds := make(chan uint64)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range seeds {
				if msg := fn(s); msg != "" {
					mu.Lock()
					fails = append(fails, fail{s, msg})
					mu.Unlock()
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		seeds <- first + uint64(i)
	}
	close(seeds)
	wg.Wait()
	const maxFail = 5
	for i := 0; i < len(fails); i++ {
		for j := i + 1; j < len(fails); j++ {
			if fails[j].seed < fails[i].seed {
				fails[i], fails[j] = fails[j], fails[i]
			}
		}
	}
	for i, f := range fails {
		if i == maxFail {
			t.Errorf("... and %d more failing seeds", len(fails)-maxFail)
			break
		}
		t.Errorf("seed %d:\n%s", f.seed, f.msg)
	}
	if len(fails) > 0 {
		var ss []string
		for _, f := range fails {
			ss = append(ss, fmt.Sprint(f.seed))
		}
		t.Logf("failing seeds: %s", strings.Join(ss, " "))
	}
}

// runIR runs fn's export in the compiled module m.
func runIR(m *ir.Module, fn *lang.FuncDecl, args []lang.Value) outcome {
	args = lang.CopyValues(args)
	res, err := ir.Run(m, fn.Name, args)
	return outcomeOf(fn, args, res, err)
}

// TestBreakingArgs: the generated exports with requires get argument sets
// that break them, which the VM refuses with a fault naming the clause as
// written; the differential tests compare that message on every engine.
func TestBreakingArgs(t *testing.T) {
	withReq, faults := 0, 0
	for seed := uint64(1); seed <= 60; seed++ {
		_, p, err := load(seed)
		if err != nil {
			t.Fatal(err)
		}
		for ei, fn := range p.Exports() {
			if len(fn.Requires) == 0 {
				continue
			}
			withReq++
			args, ok := BreakingArgs(seed*7919+uint64(ei)*131, fn)
			if !ok {
				continue
			}
			o := runVM(p, fn, args)
			if !o.fault {
				t.Errorf("seed %d, %s: arguments breaking the requires ran: %s", seed, fn.Name, o)
				continue
			}
			if !strings.Contains(o.err, ": fault: "+fn.Name+": requires ") || !strings.HasSuffix(o.err, " does not hold") {
				t.Errorf("seed %d, %s: fault %q", seed, fn.Name, o.err)
			}
			faults++
		}
	}
	t.Logf("%d exports with requires, %d refused with a fault", withReq, faults)
	if withReq == 0 || faults < withReq/2 {
		t.Errorf("only %d of %d exports with requires got arguments breaking them", faults, withReq)
	}
}
