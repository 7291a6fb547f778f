package jcvm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/driver"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// TestRegressions runs the small programs of testdata/regress, each the
// minimised form of a wrong answer TestRandomPrograms found, in the
// simulator at both limb widths against the reference VM. Every line
// "// run: EXPORT NAME=VALUE ..." of a file is one call (the arguments as
// `lowentc run` takes them); the mut outputs and results, or the fact of
// a trap, must be the VM's.
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
				r, err := prepare(p, backend.Options{NoInt: noInt})
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
		res, _, err := r.Run(fn, args)
		return res, err
	})
	return vmOut, simOut, err
}
