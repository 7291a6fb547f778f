package randprog

import (
	"fmt"
	"strings"

	"github.com/lowent/lowentc/lang"
)

// Target is a compiled program as CheckTarget needs it: Run calls an
// export (a backend.Runner without its statistics). A failed run-time
// check must be an error with a Trapped() method, as *ir.Trap has.
type Target interface {
	Run(fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error)
	Close() error
}

// FeatureTarget is a Target that answers `have FEATURE` as Features says
// (amd64 under --hw aes or auto): CheckTarget runs the VM with the same
// answers, so both take the same branches.
type FeatureTarget interface {
	Target
	Features() lang.FeatureSet
}

// CheckTarget is differential testing of a backend: the random program of
// seed (the one TestDifferential checks on the IR) is compiled by prepare
// and every export is run on sets argument sets there and on the VM. It
// returns "" when they agree, and otherwise a report with the source, the
// arguments and both outcomes. A program prepare refuses (a limit of the
// target, e.g. memory) is not a mismatch: its error is returned as
// refused, and the caller decides how many refusals are acceptable.
//
// When the backend's trap carries a source position it must be the VM's.
func CheckTarget(seed uint64, sets int, prepare func(*lang.Program) (Target, error)) (mismatch string, refused error) {
	return Load(seed).Check(sets, prepare)
}

// Loaded is the program of a seed, generated, loaded and checked once for
// several Check calls (several targets, one after the other).
type Loaded struct {
	seed uint64
	src  string
	p    *lang.Program
	err  error
}

// Load generates and checks the program of seed.
func Load(seed uint64) *Loaded {
	l := &Loaded{seed: seed}
	l.src, l.p, l.err = load(seed)
	return l
}

// Check is CheckTarget on the loaded program.
func (l *Loaded) Check(sets int, prepare func(*lang.Program) (Target, error)) (mismatch string, refused error) {
	seed, src, p := l.seed, l.src, l.p
	if l.err != nil {
		return fmt.Sprintf("seed %d: the generated program does not check: %v", seed, l.err), nil
	}
	return checkTargetProgram(seed, src, p, sets, prepare)
}

// CheckSource is CheckTarget for a program written by hand (a backend's
// testdata): its exports run on sets argument sets drawn from seed, on the
// VM and through prepare, and must agree. A source that does not check is
// a mismatch.
func CheckSource(src string, seed uint64, sets int, prepare func(*lang.Program) (Target, error)) (mismatch string, refused error) {
	p, err := loadSource(src)
	if err != nil {
		return fmt.Sprintf("the program does not check: %v", err), nil
	}
	return checkTargetProgram(seed, src, p, sets, prepare)
}

func checkTargetProgram(seed uint64, src string, p *lang.Program, sets int, prepare func(*lang.Program) (Target, error)) (mismatch string, refused error) {
	r, err := prepare(p)
	if err != nil {
		return "", err
	}
	defer r.Close()
	var feats lang.FeatureSet
	if ft, ok := r.(FeatureTarget); ok {
		feats = ft.Features()
	}
	for ei, fn := range p.Exports() {
		for _, args := range argumentSets(seed, ei, fn, sets) {
			vmo := runVMWith(p, fn, args, feats)
			if vmo.err != "" && !vmo.trap && !vmo.fault {
				continue // the VM refused the arguments otherwise: not a run
			}
			bo := runTarget(r, fn, args)
			if !agreeTarget(vmo, bo) {
				var b strings.Builder
				fmt.Fprintf(&b, "seed %d: MISMATCH in export %s\n", seed, fn.Name)
				fmt.Fprintf(&b, "  args:    %s\n", argWords(fn, args))
				fmt.Fprintf(&b, "  vm:      %s\n", vmo)
				fmt.Fprintf(&b, "  backend: %s\n", bo)
				fmt.Fprintf(&b, "source:\n%s", numbered(src))
				return b.String(), nil
			}
		}
	}
	return "", nil
}

// runTarget runs fn through a backend's runner.
func runTarget(r Target, fn *lang.FuncDecl, args []lang.Value) (o outcome) {
	args = lang.CopyValues(args)
	defer func() {
		if x := recover(); x != nil {
			o = outcome{err: fmt.Sprintf("backend panicked: %v", x)}
		}
	}()
	res, err := r.Run(fn, args)
	return outcomeOf(fn, args, res, err)
}

// agreeTarget is agree, except that a backend's trap or fault without a
// source position (a real card reports only the kind of check) matches any
// trap or fault.
func agreeTarget(vmo, bo outcome) bool {
	if vmo.trap && bo.trap && strings.HasPrefix(bo.err, ": trap") {
		return true
	}
	if vmo.fault && bo.fault && strings.HasPrefix(bo.err, ": fault") {
		return true
	}
	return agree(vmo, bo)
}
