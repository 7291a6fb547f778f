package jcvm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/driver"
	"github.com/lowent/lowentc/internal/randprog"
	"github.com/lowent/lowentc/internal/randprog/backendcheck"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// TestRegressions runs the small programs of testdata/regress, each the
// minimised form of a wrong answer TestRandomPrograms found, in the
// simulator at both limb widths against the reference VM. Every line
// "// run: EXPORT NAME=VALUE ..." of a file is one call (the arguments as
// `lowentc run` takes them); the mut outputs and results, or the fact of
// a trap, must be the VM's. Each compile must finish within
// regressCompileTime.
func TestRegressions(t *testing.T) {
	files, err := filepath.Glob("testdata/regress/*.lw")
	if err != nil || len(files) == 0 {
		t.Fatalf("no regression programs (%v)", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			p, ds := driver.Load(file)
			if len(ds) > 0 {
				t.Fatalf("%s does not check: %v", file, ds)
			}
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			calls := runLines(string(src))
			if len(calls) == 0 {
				t.Fatalf("%s has no // run: line", file)
			}
			for _, noInt := range []bool{false, true} {
				var r backend.Runner
				err := within(regressCompileTime, func() (err error) {
					r, err = prepare(input(p), backend.Options{NoInt: noInt})
					return err
				})
				if err != nil {
					t.Fatalf("noInt=%v: %v", noInt, err)
				}
				for _, call := range calls {
					want, got, err := runBoth(p, r, call)
					if err != nil {
						t.Fatalf("%s: %v", strings.Join(call, " "), err)
					}
					if got != want {
						t.Errorf("noInt=%v %s:\n  vm:  %q\n  sim: %q", noInt, strings.Join(call, " "), want, got)
					}
				}
				r.Close()
			}
		})
	}
}

// regressCompileTime bounds one compile of a regression program: they
// take well under a second, a loaded machine may make that ten.
const regressCompileTime = 60 * time.Second

// within runs f and returns its error, or an error once d has passed
// without it returning (f goes on in the background: a compile that
// would not end is reported, not waited for).
func within(d time.Duration, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		return fmt.Errorf("did not finish within %v", d)
	}
}

// TestCompileTimeSeed311 compiles and runs against the VM, at both limb
// widths, the random program seed 311 was when the generator had no mulw
// or parallel assignment (testdata/compiletime/seed311.bundle, as
// randprog.Generate wrote it: the root and two generated modules). Its
// unrolled table walk, a chain of fifty loads each indexed by the one
// before, made the sinking of loads fork at every link: the compile had
// not finished after 15 minutes. It now takes well under a second.
func TestCompileTimeSeed311(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "compiletime", "seed311.bundle"))
	if err != nil {
		t.Fatal(err)
	}
	for _, noInt := range []bool{false, true} {
		var mismatch string
		var refused error
		err := within(regressCompileTime, func() error {
			mismatch, refused = randprog.CheckSource(string(src), 311, randArgSets, func(p *lang.Program) (randprog.Target, error) {
				r, err := prepare(input(p), backend.Options{NoInt: noInt})
				if err != nil {
					return nil, err
				}
				return backendcheck.FromRunner(r), nil
			})
			return nil
		})
		switch {
		case err != nil:
			t.Fatalf("noInt=%v: compile and run %v", noInt, err)
		case refused != nil:
			t.Errorf("noInt=%v: refused: %v", noInt, refused)
		case mismatch != "":
			t.Errorf("noInt=%v:\n%s", noInt, mismatch)
		}
	}
}

// runLines returns the calls of the "// run:" lines of a source, each as
// the export's name followed by its arguments.
func runLines(src string) [][]string {
	var calls [][]string
	for _, line := range strings.Split(src, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "// run:"); ok {
			calls = append(calls, strings.Fields(rest))
		}
	}
	return calls
}

// runBoth makes one call on the VM and in the simulator and renders each
// outcome as `lowentc run` would print it (or "trap"); another error
// (arguments the export refuses) is the test's.
func runBoth(p *lang.Program, r backend.Runner, call []string) (vmOut, simOut string, err error) {
	var fn *lang.FuncDecl
	for _, f := range p.Exports() {
		if f.Name == call[0] {
			fn = f
		}
	}
	if fn == nil {
		return "", "", fmt.Errorf("no export %s", call[0])
	}
	render := func(run func([]lang.Value) ([]lang.Value, error)) (string, error) {
		args, err := driver.ParseArgs(fn, call[1:])
		if err != nil {
			return "", err
		}
		res, err := run(args)
		var tr interface{ Trapped() }
		if errors.As(err, &tr) {
			return "trap", nil
		}
		if err != nil {
			return "", err
		}
		return driver.FormatOutputs(fn, args, res), nil
	}
	vmOut, err = render(func(args []lang.Value) ([]lang.Value, error) {
		res, _, err := vm.Run(p, fn, args, vm.Options{})
		return res, err
	})
	if err != nil {
		return "", "", err
	}
	simOut, err = render(func(args []lang.Value) ([]lang.Value, error) {
		res, _, err := r.Run(fn.Name, args)
		return res, err
	})
	return vmOut, simOut, err
}
