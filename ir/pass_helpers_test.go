package ir_test

import (
	"fmt"
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

// applyPass runs one pass on m and checks that m still verifies and gives
// the same results (and argument updates) as before on every input set.
func applyPass(t *testing.T, m *Module, pass func(*Module, *Options) error, o Options, export string, inputs ...[]lang.Value) {
	t.Helper()
	var before []string
	for _, in := range inputs {
		args := lang.CopyValues(in)
		res, err := Run(m, export, args)
		before = append(before, fmt.Sprint(res, err, args))
	}
	if err := pass(m, &o); err != nil {
		t.Fatalf("pass: %v", err)
	}
	if err := m.Verify(); err != nil {
		t.Fatalf("after the pass: %v\n%s", err, m)
	}
	for i, in := range inputs {
		args := lang.CopyValues(in)
		res, err := Run(m, export, args)
		if got := fmt.Sprint(res, err, args); got != before[i] {
			t.Fatalf("input %v: %s after the pass, %s before\n%s", in, got, before[i], m)
		}
	}
}

// countOps counts the instructions with op o in m.
func countOps(m *Module, o Op) int {
	n := 0
	for _, f := range m.Funcs {
		walkInstrs(f.Body, func(in *Instr) {
			if in.Op == o {
				n++
			}
		})
	}
	return n
}

func arrayArg(elems ...uint64) lang.Value { return lang.Value{IsArray: true, Elems: elems} }
