// Package lower translates a checked Lowent program (package lang) into the
// IR of package ir, and runs the IR pipeline on it (Compile). It is the one
// place where the syntax tree meets the IR: package ir and the backends see
// the source only through package sem.
package lower

import (
	"fmt"

	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

// Compile lowers a checked program to IR and runs the pipeline
// (ir.Optimize) with opts; the lowered IR is dumped as the pass "lower".
func Compile(p *lang.Program, opts ir.Options) (m *ir.Module, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("internal compiler error: %v", r)
		}
	}()
	m, err = Program(p)
	if err != nil {
		return nil, err
	}
	if err := opts.AfterPass(m, "lower", true); err != nil {
		return nil, err
	}
	if err := ir.Optimize(m, opts); err != nil {
		return nil, err
	}
	return m, nil
}
