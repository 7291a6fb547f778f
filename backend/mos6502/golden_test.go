package mos6502

import (
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testlong"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// testBuilds caches one compiled program per stdlib module for all the
// tests of the package (the configuration search is the slow part).
var testBuilds = struct {
	mu    sync.Mutex
	progs map[string]*program
	errs  map[string]error
}{progs: map[string]*program{}, errs: map[string]error{}}

// stdlibProgram returns the compiled program of a stdlib module (p, when
// not nil, is its loaded source).
func stdlibProgram(mod string, p *lang.Program) (*program, error) {
	return stdlibProgramOpt(mod, p, "")
}

// stdlibProgramOpt is stdlibProgram built with --opt opt ("": speed).
func stdlibProgramOpt(mod string, p *lang.Program, opt string) (*program, error) {
	testBuilds.mu.Lock()
	defer testBuilds.mu.Unlock()
	key := mod
	if opt != "" {
		key += "/" + opt
	}
	if prog, ok := testBuilds.progs[key]; ok {
		return prog, testBuilds.errs[key]
	}
	if p == nil {
		var err error
		if p, err = golden.Load(mod); err != nil {
			return nil, err
		}
	}
	prog, err := build(input(p), backend.Options{Opt: opt}, layout{org: runOrg, linear: true})
	testBuilds.progs[key], testBuilds.errs[key] = prog, err
	return prog, err
}

func goldenSeed(t *testing.T) int64 {
	seed := time.Now().UnixNano()
	if s := os.Getenv("LOWENT_GOLDEN_SEED"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("LOWENT_GOLDEN_SEED=%q: %v", s, err)
		}
		seed = v
	}
	t.Logf("random inputs from seed %d (rerun with LOWENT_GOLDEN_SEED=%d)", seed, seed)
	return seed
}

// TestGolden runs the whole golden suite in the emulator.
func TestGolden(t *testing.T) {
	run := func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
		prog, err := stdlibProgram(p.Root.Module, p)
		if err != nil {
			return nil, err
		}
		r := &Runner{prog: prog}
		res, _, err := r.Run(fn.Name, args)
		return res, err
	}
	golden.Run(t, run, golden.Cases(goldenSeed(t)))
}

// balancedQuick are the modules whose balanced programs the default suite
// builds: those one of speed's configurations serves in balanced mode.
// The others' balanced program is size mode's (the interpreter, or for
// Poly1305 and ChaCha20-Poly1305 the byte generator rolled), reached
// after a search through every speed configuration (over two minutes of
// CPU for chacha20poly1305), so they run under LOWENT_LONG=1 (in CI's
// long run), as do all cases.
var balancedQuick = map[string]bool{"sha256": true, "sha512": true, "chacha20": true}

// balancedCases keeps the cases of balancedQuick's modules, or all of
// them under LOWENT_LONG=1.
func balancedCases(cases []golden.Case) []golden.Case {
	if testlong.On() {
		return cases
	}
	var out []golden.Case
	for _, c := range cases {
		if balancedQuick[c.Module] {
			out = append(out, c)
		}
	}
	return out
}

// TestGoldenBalanced runs the golden suite in the emulator on the --opt
// balanced programs (balancedCases: the whole suite under LOWENT_LONG=1).
func TestGoldenBalanced(t *testing.T) {
	run := func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
		prog, err := stdlibProgramOpt(p.Root.Module, p, "balanced")
		if err != nil {
			return nil, err
		}
		res, _, err := (&Runner{prog: prog}).Run(fn.Name, args)
		return res, err
	}
	golden.Run(t, run, balancedCases(golden.Cases(goldenSeed(t))))
}
