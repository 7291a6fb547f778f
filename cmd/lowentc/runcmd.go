package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/driver"
	"github.com/lowent/lowentc/lang"
)

// traceOut receives the output of trace(...) in programs run by lowentc.
var traceOut io.Writer = os.Stderr

// cmdRun calls one export with arguments from the command line.
func cmdRun(args []string, stdout, stderr io.Writer) int {
	o, code := parseCommand(args, onRun, "run: ", stderr)
	if o == nil {
		return code
	}
	if len(o.args) < 2 {
		return usageError(stderr, "run needs FILE.lw ENTRY [NAME=VALUE ...]")
	}
	if code := validateTarget(o, stderr); code != exitOK {
		return code
	}
	_, fn, runner, code := setup(o, stderr)
	if code != exitOK {
		return code
	}
	defer runner.Close()
	vals, err := driver.ParseArgs(fn, o.args[2:])
	if err != nil {
		return usageError(stderr, "run %s: %v", fn.Name, err)
	}
	results, stats, err := runner.Run(fn.Name, vals)
	if err != nil {
		return callFailed(stderr, err)
	}
	fmt.Fprint(stdout, driver.FormatOutputs(fn, vals, results))
	if o.stats {
		fmt.Fprint(stderr, stats.String())
	}
	return exitOK
}

// setup loads the file, finds the export and prepares the target's runner.
func setup(o *options, stderr io.Writer) (*lang.Program, *lang.FuncDecl, backend.Runner, int) {
	p, ok := load(o.args[0], stderr)
	if !ok {
		return nil, nil, nil, exitFail
	}
	fn := p.Export(o.args[1])
	if fn == nil {
		var names []string
		for _, e := range p.Exports() {
			names = append(names, e.Name)
		}
		return nil, nil, nil, failf(stderr, "%s has no export %q (exports: %v)", o.args[0], o.args[1], names)
	}
	warnDroppedTraces(p, o.target, stderr)
	runner, err := prepare(o, p)
	if err != nil {
		return nil, nil, nil, failErr(stderr, err)
	}
	return p, fn, runner, exitOK
}

// callFailed reports the error of a call of an export: a trap or a fault
// concerns the source, so it is printed as it is (FILE:LINE:COL first);
// anything else with the program's name.
func callFailed(stderr io.Writer, err error) int {
	if stopped(err) {
		fmt.Fprintln(stderr, err)
		return exitFail
	}
	return failErr(stderr, err)
}

// stopped says err is a trap (a failed run-time check) or a fault (a
// broken requires), which every target reports as one source diagnostic.
func stopped(err error) bool {
	var tr interface{ Trapped() }
	var fa interface{ Faulted() }
	return errors.As(err, &tr) || errors.As(err, &fa)
}
