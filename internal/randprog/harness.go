package randprog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/lowent/lowentc/driver"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// The harness: loading generated programs, running an export on the VM,
// on the IR interpreter or on a backend, and comparing what they did. The
// package's tests use it against the IR; the backends' tests through
// CheckTarget (target.go).

// srcName is the file name generated programs are loaded under.
const srcName = "rnd.lw"

// configFor is the generator configuration of a seed: the defaults with
// every optional shape, and for one seed in sixteen (or every seed when
// LOWENT_RANDPROG_LARGE is set) a larger size with deeper nesting and
// longer loops.
func configFor(seed uint64) Config {
	var c Config
	if seed%16 == 7 || os.Getenv("LOWENT_RANDPROG_LARGE") != "" {
		c = Config{MaxHelpers: 6, MaxStmts: 60, MaxDepth: 4, MaxExpr: 4, MaxIter: 400, MaxWork: 5000}
	}
	c = c.withShapes()
	// One seed in four uses mulw and parallel assignment; the others draw
	// what they drew before those existed.
	c.MulW = seed%4 == 3
	c.Parallel = seed%4 == 3
	return c
}

// load generates and checks the program of seed.
func load(seed uint64) (string, *lang.Program, error) {
	src := Generate(seed, configFor(seed))
	p, err := loadSource(src)
	return src, p, err
}

// loadSource parses and checks a program held in a string: one module, or
// a bundle of several (Generate), which is written to a temporary
// directory for the loader to find the imported modules beside the root.
func loadSource(src string) (*lang.Program, error) {
	files := SplitFiles(srcName, src)
	if len(files) == 1 {
		p, ds := driver.LoadSource(srcName, []byte(src))
		if len(ds) > 0 {
			return nil, fmt.Errorf("%s", ds.Render(lang.Sources{srcName: []byte(src)}))
		}
		return p, nil
	}
	dir, err := os.MkdirTemp("", "randprog-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	srcs := lang.Sources{}
	for _, f := range files {
		path := filepath.Join(dir, f.Name)
		if err := os.WriteFile(path, []byte(f.Src), 0o644); err != nil {
			return nil, err
		}
		srcs[path] = []byte(f.Src)
	}
	p, ds := driver.Load(filepath.Join(dir, srcName))
	if len(ds) > 0 {
		return nil, fmt.Errorf("%s", ds.Render(srcs))
	}
	return p, nil
}

// WriteFiles saves the program of seed (as the tests generate it) in dir:
// the root rnd.lw and the modules it imports. It returns the root's path.
func WriteFiles(seed uint64, dir string) (string, error) {
	for _, f := range GenerateFiles(seed, configFor(seed)) {
		if err := os.WriteFile(filepath.Join(dir, f.Name), []byte(f.Src), 0o644); err != nil {
			return "", err
		}
	}
	return filepath.Join(dir, srcName), nil
}

// outcome is what one run of an export did.
type outcome struct {
	trap    bool   // stopped by a failed run-time check
	fault   bool   // refused: the arguments break the export's requires
	err     string // failed otherwise (bad arguments, internal error)
	results []lang.Value
	muts    [][]uint64 // the final contents of the mut array and slice arguments
}

func (o outcome) String() string {
	switch {
	case o.trap:
		return "trap: " + o.err
	case o.fault:
		return "fault: " + o.err
	case o.err != "":
		return "error: " + o.err
	}
	var b strings.Builder
	b.WriteString("results (")
	for i, r := range o.results {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(fmtValue(r))
	}
	b.WriteString(")")
	if len(o.muts) > 0 {
		b.WriteString(" mut outputs [")
		for i, m := range o.muts {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(fmtElems(m))
		}
		b.WriteString("]")
	}
	return b.String()
}

func fmtValue(v lang.Value) string {
	if v.IsArray {
		return "[" + fmtElems(v.Elems) + "]"
	}
	return fmt.Sprintf("%#x", v.Word)
}

func fmtElems(xs []uint64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprintf("%#x", x)
	}
	return strings.Join(s, ",")
}

// mutOutputs collects the mut array and slice arguments after a run.
func mutOutputs(fn *lang.FuncDecl, args []lang.Value) [][]uint64 {
	var out [][]uint64
	for i, p := range fn.Params {
		if p.Mut {
			out = append(out, args[i].Elems)
		}
	}
	return out
}

// argumentSets are the argument sets export ei (fn) of the program of seed is
// run on: n drawn by Args and, when fn has requires, one that breaks them
// (every target must refuse it with the VM's fault message).
func argumentSets(seed uint64, ei int, fn *lang.FuncDecl, n int) [][]lang.Value {
	var sets [][]lang.Value
	for k := 0; k < n; k++ {
		sets = append(sets, Args(seed*7919+uint64(ei)*131+uint64(k), fn))
	}
	if bad, ok := BreakingArgs(seed*7919+uint64(ei)*131, fn); ok {
		sets = append(sets, bad)
	}
	return sets
}

// runVM runs fn on the reference VM.
func runVM(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) outcome {
	return runVMWith(p, fn, args, 0)
}

// runVMWith runs fn on the reference VM with `have` answering feats.
func runVMWith(p *lang.Program, fn *lang.FuncDecl, args []lang.Value, feats lang.FeatureSet) (o outcome) {
	args = lang.CopyValues(args)
	defer func() {
		if r := recover(); r != nil {
			o = outcome{err: fmt.Sprintf("vm panicked: %v", r)}
		}
	}()
	res, _, err := vm.Run(p, fn, args, vm.Options{Features: feats})
	return outcomeOf(fn, args, res, err)
}

// outcomeOf classifies a run: a trap (an error with a Trapped method, as
// *vm.Trap and *ir.Trap have), a fault (one with a Faulted method, as
// *lang.Fault has: a broken requires),
// another error, or the results and the mut outputs left in args.
func outcomeOf(fn *lang.FuncDecl, args, res []lang.Value, err error) outcome {
	var tr interface {
		error
		Trapped()
	}
	var fa interface {
		error
		Faulted()
	}
	switch {
	case errors.As(err, &tr):
		return outcome{trap: true, err: tr.Error()}
	case errors.As(err, &fa):
		return outcome{fault: true, err: fa.Error()}
	case err != nil:
		return outcome{err: err.Error()}
	}
	return outcome{results: res, muts: mutOutputs(fn, args)}
}

// agree reports whether the IR did what the VM did: both refused the
// arguments with the same fault message (the same requires clause, as
// written), both trapped at the same check (the first one to fail in
// evaluation order), or both returned
// the same results and left the same mut outputs. After a trap the mut
// outputs are not compared: a trap stops the program, and what it had
// written is not part of its answer.
func agree(vmo, iro outcome) bool {
	if vmo.fault || iro.fault {
		return vmo.fault && iro.fault && vmo.err == iro.err
	}
	if vmo.trap || iro.trap {
		return vmo.trap && iro.trap && trapPos(vmo.err) == trapPos(iro.err)
	}
	if vmo.err != "" || iro.err != "" || len(vmo.results) != len(iro.results) || len(vmo.muts) != len(iro.muts) {
		return false
	}
	for i := range vmo.results {
		a, b := vmo.results[i], iro.results[i]
		if a.IsArray != b.IsArray || a.Word != b.Word || !slices.Equal(a.Elems, b.Elems) {
			return false
		}
	}
	for i := range vmo.muts {
		if !slices.Equal(vmo.muts[i], iro.muts[i]) {
			return false
		}
	}
	return true
}

// trapPos is the FILE:LINE:COL a trap message starts with.
func trapPos(msg string) string {
	pos, _, _ := strings.Cut(msg, ": trap")
	return pos
}

// argWords prints arguments the way `lowentc run` takes them.
func argWords(fn *lang.FuncDecl, args []lang.Value) string {
	var out []string
	for i, p := range fn.Params {
		a := args[i]
		var v string
		switch t := p.Type.(type) {
		case *lang.BoolType:
			v = strconv.FormatBool(a.Word != 0)
		case *lang.WordType:
			v = fmt.Sprintf("%#x", a.Word)
		default:
			if leafBits(t) == 8 {
				var b strings.Builder
				for _, e := range a.Elems {
					fmt.Fprintf(&b, "%02x", e)
				}
				v = b.String()
			} else if len(a.Elems) == 0 {
				v = "zero:0"
			} else {
				v = fmtElems(a.Elems)
			}
		}
		out = append(out, p.Name+"="+v)
	}
	return strings.Join(out, " ")
}

// numbered prefixes each line of src with its number, to match diagnostics.
func numbered(src string) string {
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, "%4d  %s\n", i+1, l)
	}
	return b.String()
}
