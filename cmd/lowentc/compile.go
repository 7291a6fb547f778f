package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/driver/middle"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

// cmdCompile compiles one file for a target and writes the artifact.
func cmdCompile(args []string, stdout, stderr io.Writer) int {
	o, code := parseCommand(args, onCompile, "", stderr)
	if o == nil {
		return code
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
			return failErr(stderr, err)
		}
		if o.stats {
			fmt.Fprintf(stderr, "lowentc: warning: --stats prints nothing when compiling for target %s (run and bench print a call's measurements)\n", o.target)
		}
		m, err := middle.IR(p, opts)
		if err != nil {
			return failErr(stderr, err)
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
		emits := append(middle.Emits(t), treeEmits(t.Name)...)
		if !slices.Contains(emits, bo.Emit) {
			return usageError(stderr, "--emit %s: target %s emits %s", bo.Emit, t.Name, strings.Join(emits, ", "))
		}
		s := middle.New(p, t, bo)
		if tree := treeEmitters[t.Name+"/"+bo.Emit]; tree != nil {
			return compileTree(tree, s, p, o, bo, stdout, stderr)
		}
		if check := entryChecks[t.Name]; check != nil {
			// --entry names an export: a wrong one is a usage error.
			if err := check(s.Input().Exports, bo, stderr); err != nil {
				return usageError(stderr, "%v", err)
			}
		}
		var stats backend.Stats
		if o.stats {
			bo.Stats = &stats
		}
		warnDroppedTraces(p, t.Name, stderr)
		data, err := s.Compile(bo)
		if o.stats {
			if stats == nil && err == nil {
				fmt.Fprintf(stderr, "lowentc: warning: --stats prints nothing when compiling for target %s (run and bench print a call's measurements)\n", t.Name)
			}
			fmt.Fprint(stderr, stats.String())
		}
		if err != nil {
			return failErr(stderr, err)
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
	if o.be.HW == "" {
		return usageError(stderr, "--hw needs a value: auto, none, aes or a feature list")
	}
	if err := checkFlagValues(o); err != nil {
		return usageError(stderr, "%v", err)
	}
	warnOtherTargets(o, stderr)
	return exitOK
}

// checkFlagValues checks the value of every target flag given, before
// anything is compiled: a bad value is a usage error whichever target the
// flag acts on. --hw is read by the chosen target (its spelling differs
// between amd64 and the hosts); the flags a target registered strict by
// that target's backend (checkOtherTargets).
func checkFlagValues(o *options) error {
	switch o.target {
	case "vm", "ir":
		if _, err := hostFeatures(o); err != nil {
			return err
		}
	default:
		if t, ok := backend.Lookup(o.target); ok && t.Validate != nil {
			if err := t.Validate(backendOptions(o)); err != nil {
				return err
			}
		}
	}
	return checkOtherTargets(o)
}

// irOptions are the IR pipeline options the flags ask for.
func irOptions(o *options) (ir.Options, error) {
	feats, err := hostFeatures(o)
	if err != nil {
		return ir.Options{}, err
	}
	opts := ir.Options{W: o.width, Unroll: ir.DefaultUnroll, DumpAfter: o.dump, Dump: o.dumpWriter(), Features: feats}
	if o.target == "vm" {
		opts.W = 0
	}
	return opts, nil
}

// hostFeatures reads --hw for the vm and ir targets, which compute every
// builtin themselves: the list only says what `have FEATURE` answers
// (none by default; "all", or names such as sha,aes).
func hostFeatures(o *options) (lang.FeatureSet, error) {
	f, err := lang.ParseFeatures(o.be.HW)
	if err != nil {
		return 0, fmt.Errorf("--hw %s for target %s: %v", o.be.HW, o.target, err)
	}
	return f, nil
}

// writeOutput writes data to path (see writeFile), or to stdout when path
// is empty or "-".
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
	if err := writeFile(path, data); err != nil {
		return failErr(stderr, err)
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

// writeFile writes an artifact to path. A regular file (new or existing) is
// replaced whole or not at all: the data goes to a temporary file in the
// same directory, which is renamed into place once complete. A new file gets
// the mode the umask leaves of 0666; an existing one keeps its mode. A
// symbolic link is followed and its target replaced the same way. A device,
// a FIFO or a socket is written directly (never replaced). A directory is an
// error.
func writeFile(path string, data []byte) error {
	target, err := resolveLinks(path)
	if err != nil {
		return outError(path, err)
	}
	st, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return writeAtomic(path, target, data, 0o666, false)
	case err != nil:
		return outError(path, err)
	case st.IsDir():
		return fmt.Errorf("%s: is a directory", path)
	case st.Mode().IsRegular():
		return writeAtomic(path, target, data, st.Mode().Perm(), true)
	}
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return outError(path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return outError(path, err)
	}
	return outError(path, f.Close())
}

// resolveLinks follows path while it is a symbolic link (a dangling link
// resolves to the file it names, which is then created).
func resolveLinks(path string) (string, error) {
	for range 64 {
		st, err := os.Lstat(path)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", errors.New("too many levels of symbolic links")
}

// writeAtomic writes data to a new temporary file beside target and renames
// it over target. perm is the new file's mode: for a new file the umask
// applies to it (as the kernel applies it at creation); an existing file's
// mode is set exactly.
func writeAtomic(path, target string, data []byte, perm fs.FileMode, exact bool) error {
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	var tmp *os.File
	var err error
	for range 100 {
		name := filepath.Join(dir, fmt.Sprintf(".%s.tmp%d", base, rand.Uint32()))
		tmp, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return outError(path, err)
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if exact {
		if err := tmp.Chmod(perm); err != nil {
			return outError(path, err)
		}
	}
	if _, err := tmp.Write(data); err != nil {
		return outError(path, err)
	}
	if err := tmp.Close(); err != nil {
		return outError(path, err)
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return outError(path, err)
	}
	ok = true
	return nil
}

// outError names the output file in an error: "PATH: reason".
func outError(path string, err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	return fmt.Errorf("%s: %v", path, err)
}

// entryChecks, by target, check before compiling that the export --entry
// names (or the default) is one the artifact can call; an error is a
// usage error.
var entryChecks = map[string]func(exports []backend.Export, bo backend.Options, stderr io.Writer) error{}
