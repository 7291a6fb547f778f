// Package backendcheck holds backend runners to the reference VM with package
// randprog's differential checks. It is apart from randprog, which the IR's
// own tests use, because package backend depends on the IR.
package backendcheck

import (
	"os"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/backendtest"
	"github.com/lowent/lowentc/internal/randprog"
	"github.com/lowent/lowentc/lang"
)

// FromRunner makes a backend's runner a randprog.Target.
func FromRunner(r backend.Runner) randprog.Target { return runnerTarget{r} }

type runnerTarget struct{ r backend.Runner }

func (t runnerTarget) Run(fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
	res, _, err := t.r.Run(fn.Name, args)
	return res, err
}

func (t runnerTarget) Close() error { return t.r.Close() }

// FeatureTarget is a Target whose answers to `have FEATURE` are Feats
// (a variant of a dispatched program): the VM is run with the same ones
// (randprog.FeatureTarget).
type FeatureTarget struct {
	randprog.Target
	Feats lang.FeatureSet
}

// Features implements randprog.FeatureTarget.
func (t FeatureTarget) Features() lang.FeatureSet { return t.Feats }

// CheckFile is randprog.CheckSource on the program in the file at path, run
// by the backend runners prepare makes: the tests' way to hold a
// hand-written program to the VM on one backend.
func CheckFile(path string, seed uint64, sets int, prepare func(*lang.Program) (backend.Runner, error)) (mismatch string, refused error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return randprog.CheckSource(string(src), seed, sets, func(p *lang.Program) (randprog.Target, error) {
		r, err := prepare(p)
		if err != nil {
			return nil, err
		}
		return FromRunner(r), nil
	})
}

// TestFile is CheckFile on the registered target named target, prepared
// (as the driver hands it a program) with each option set of opts in turn,
// or once with none: a refusal ends t, a disagreement with the VM is an
// error, each named by its options.
func TestFile(t *testing.T, target, path string, seed uint64, sets int, opts ...backend.Options) {
	t.Helper()
	tg, ok := backend.Lookup(target)
	if !ok {
		t.Fatalf("no target %s", target)
	}
	if len(opts) == 0 {
		opts = []backend.Options{{}}
	}
	for _, o := range opts {
		msg, refused := CheckFile(path, seed, sets, func(p *lang.Program) (backend.Runner, error) {
			return tg.Prepare(backendtest.Input(target, p), o)
		})
		if refused != nil {
			t.Fatalf("%s: %v", OptionsName(o), refused)
		}
		if msg != "" {
			t.Errorf("%s: %s", OptionsName(o), msg)
		}
	}
}

// OptionsName names the options a test compiles with, as on the command
// line (--hw, --opt, --no-int), or "default options".
func OptionsName(o backend.Options) string {
	var s []string
	if o.HW != "" {
		s = append(s, "--hw "+o.HW)
	}
	if o.Opt != "" {
		s = append(s, "--opt "+o.Opt)
	}
	if o.NoInt {
		s = append(s, "--no-int")
	}
	if len(s) == 0 {
		return "default options"
	}
	return strings.Join(s, " ")
}
