package ir_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/lowent/lowentc/internal/testprog"
	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
	"github.com/lowent/lowentc/stdlib/golden"
)

// irRunner compiles each stdlib program once per width and runs exports in
// the IR interpreter.
type irRunner struct {
	w      int
	budget int             // Options.InlineBudget
	feats  lang.FeatureSet // Options.Features
	mu     sync.Mutex
	cache  map[*lang.Program]*Module
}

func (r *irRunner) run(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
	m, err := r.compile(p)
	if err != nil {
		return nil, err
	}
	return Run(m, fn.Name, args)
}

func (r *irRunner) compile(p *lang.Program) (*Module, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m, ok := r.cache[p]
	if !ok {
		var err error
		m, err = lower.Compile(p, Options{W: r.w, Unroll: DefaultUnroll, InlineBudget: r.budget, Features: r.feats, Verify: true})
		if err != nil {
			return nil, err
		}
		r.cache[p] = m
	}
	return m, nil
}

// module returns the compiled stdlib module mod.
func (r *irRunner) module(t *testing.T, mod string) *Module {
	t.Helper()
	p := testprog.Stdlib(t, mod)
	m, err := r.compile(p)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGoldenIR runs the stdlib golden suite (Go's crypto as the reference)
// on the IR interpreter, unlegalized and legalized at every target width.
func TestGoldenIR(t *testing.T) {
	cases := golden.Cases(golden.Seed(t))
	for _, w := range widths {
		t.Run(fmt.Sprintf("W=%d", w), func(t *testing.T) {
			t.Parallel()
			r := &irRunner{w: w, cache: map[*lang.Program]*Module{}}
			golden.Run(t, r.run, cases)
		})
	}
	// With every feature: the SHA-256 builtins stay instructions at W=0
	// and 64 and are expanded by pass features at 32 and 8; `have ifma`
	// takes Poly1305's eight lanes at every width run (W=16 runs the
	// suite without features above).
	all, _ := lang.ParseFeatures("all")
	for _, w := range []int{0, 64, 32, 8} {
		t.Run(fmt.Sprintf("W=%d/have=all", w), func(t *testing.T) {
			t.Parallel()
			r := &irRunner{w: w, feats: all, cache: map[*lang.Program]*Module{}}
			golden.Run(t, r.run, cases)
		})
	}
}
