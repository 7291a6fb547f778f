package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

// cmdCompile compiles one file for a target and writes the artifact.
func cmdCompile(args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, append(targetFlags, "--emit", "-o")...)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	if o.dump == "help" {
		fmt.Fprintln(stdout, "passes: "+strings.Join(ir.PassNames(), " ")+" (or all)")
		return exitOK
	}
	if len(o.args) != 1 {
		return usageError(stderr, "expected one FILE.lw, got %d arguments", len(o.args))
	}
	if code := validateTarget(o, stderr); code != exitOK {
		return code
	}
	p, ok := load(o.args[0], stderr)
	if !ok {
		return exitFail
	}
	var out bytes.Buffer
	switch o.target {
	case "vm", "ir":
		emit := o.emit
		if emit == "" && o.target == "vm" && o.dump == "" && o.out == "" {
			return exitOK // the VM needs no artifact: checking is compiling
		}
		if emit != "" && emit != "ir" {
			return usageError(stderr, "--emit %s: target %s emits ir only", emit, o.target)
		}
		opts, err := irOptions(o)
		if err != nil {
			return failf(stderr, "%v", err)
		}
		m, err := ir.Compile(p, opts)
		if err != nil {
			return failf(stderr, "%v", err)
		}
		out.WriteString(m.String())
	default:
		t, ok := backend.Lookup(o.target)
		if !ok {
			return failf(stderr, "%v", errNoBackend(o.target))
		}
		bo := backendOptions(o)
		if bo.Emit == "" {
			bo.Emit = t.Emits[0]
		}
		if !slices.Contains(t.Emits, bo.Emit) {
			return usageError(stderr, "--emit %s: target %s emits %s", bo.Emit, t.Name, strings.Join(t.Emits, ", "))
		}
		data, err := t.Compile(p, bo)
		if err != nil {
			return failf(stderr, "%v", err)
		}
		out.Write(data)
	}
	return writeOutput(o.out, out.Bytes(), stdout, stderr)
}

// validateTarget checks --target, --width, --hw and -d.
func validateTarget(o *options, stderr io.Writer) int {
	if o.dump != "" && o.dump != "all" && !slices.Contains(ir.PassNames(), o.dump) {
		return usageError(stderr, "-d dump=%s: no such pass (passes: %s, or all)", o.dump, strings.Join(ir.PassNames(), ", "))
	}
	if !knownTarget(o.target) {
		return usageError(stderr, "unknown target %q (targets: %s)", o.target, strings.Join(targetNames, ", "))
	}
	switch o.width {
	case 64, 32, 16, 8:
	default:
		return usageError(stderr, "--width must be 64, 32, 16 or 8, not %d", o.width)
	}
	if o.hw == "" {
		return usageError(stderr, "--hw needs a value: auto, none, aes or a feature list")
	}
	// A flag for another target changes nothing: say so, without failing
	// (scripts may pass one set of flags to every target).
	for _, name := range targetFlags {
		if ts, ok := flagTargets[name]; ok && o.given[name] && !slices.Contains(ts, o.target) {
			fmt.Fprintf(stderr, "lowentc: warning: %s has no effect on target %s (it applies to %s)\n", name, o.target, strings.Join(ts, ", "))
		}
	}
	return exitOK
}

// irOptions are the IR pipeline options the flags ask for.
func irOptions(o *options) (ir.Options, error) {
	feats, err := hostFeatures(o)
	if err != nil {
		return ir.Options{}, err
	}
	opts := ir.Options{W: o.width, Unroll: ir.DefaultUnroll, DumpAfter: o.dump, Dump: os.Stderr, Features: feats}
	if o.target == "vm" {
		opts.W = 0
	}
	return opts, nil
}

// hostFeatures reads --hw for the vm and ir targets, which compute every
// builtin themselves: the list only says what `have FEATURE` answers
// (none by default; "all", or names such as sha,aes).
func hostFeatures(o *options) (lang.FeatureSet, error) {
	f, err := lang.ParseFeatures(o.hw)
	if err != nil {
		return 0, fmt.Errorf("--hw %s for target %s: %v", o.hw, o.target, err)
	}
	return f, nil
}

// writeOutput writes data to path whole or not at all (a temporary file in
// the same directory, renamed into place), or to stdout when path is empty.
func writeOutput(path string, data []byte, stdout, stderr io.Writer) int {
	if path == "" && !utf8.Valid(data) && isTerminal(stdout) {
		return usageError(stderr, "the artifact is binary: write it to a file with -o FILE")
	}
	if path == "" || path == "-" {
		if _, err := stdout.Write(data); err != nil {
			return failf(stderr, "writing output: %v", err)
		}
		return exitOK
	}
	if err := writeFileAtomic(path, data); err != nil {
		return failf(stderr, "%v", err)
	}
	return exitOK
}

// isTerminal reports whether w is a character device such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
