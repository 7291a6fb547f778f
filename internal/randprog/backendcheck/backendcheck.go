// Package backendcheck holds backend runners to the reference VM with package
// randprog's differential checks. It is apart from randprog, which the IR's
// own tests use, because package backend depends on the IR.
package backendcheck

import (
	"os"

	"github.com/lowent/lowentc/backend"
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
