// Package mos6502 is lowentc's 6502 backend: legalized IR at W=8 becomes
// Turbo Macro Pro source (--emit asm), and
// its runner assembles the source with 64tass and runs it in a
// cycle-counting 6502 emulator. docs/mos6502.md describes the target.
package mos6502

import (
	"fmt"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

func init() {
	backend.Register(&backend.Target{
		Name:    "mos6502",
		Width:   8,
		Emits:   []string{"asm"},
		Compile: compileArtifact,
		Prepare: func(p *lang.Program, opts backend.Options) (backend.Runner, error) {
			prog, err := build(p, opts, layout{org: runOrg, linear: true})
			if err != nil {
				return nil, err
			}
			return &Runner{prog: prog}, nil
		},
	})
}

// runOrg is where runner programs start; the tables come first, so it is
// page aligned.
const runOrg = 0x0800

// Memory limits: the program (code, tables, variables) must end below
// codeLimit; --opt size aims at sizeLimit bytes.
const (
	codeLimit = 0xd000 // the C64 I/O area; arguments go after the program, up to $FF00
	sizeLimit = 8192
)

// unrollBudgets are the IR unroll budgets tried, largest first, until the
// program fits.
var unrollBudgets = []int{ir.DefaultUnroll, 8000, 4000, 2000, 1000, 500, 200, 0}

func compileArtifact(p *lang.Program, opts backend.Options) ([]byte, error) {
	switch opts.Emit {
	case "asm":
		prog, err := build(p, opts, layout{org: runOrg, linear: true})
		if err != nil {
			return nil, err
		}
		return []byte(prog.src), nil
	}
	return nil, fmt.Errorf("mos6502: cannot emit %q (asm)", opts.Emit)
}

// build compiles p with the largest unroll budget whose program fits.
func build(p *lang.Program, opts backend.Options, lay layout) (*program, error) {
	limit := codeLimit - lay.org
	budgets := unrollBudgets
	if opts.Opt == "size" {
		limit = sizeLimit
		budgets = []int{500, 200, 0}
	} else if opts.Opt != "" && opts.Opt != "speed" {
		return nil, fmt.Errorf("mos6502: --opt %q: want speed or size", opts.Opt)
	}
	var last error
	for _, u := range budgets {
		prog, err := buildWith(p, opts, lay, u)
		if err != nil {
			return nil, err
		}
		size := len(prog.img.data)
		if size <= limit && prog.img.labels != nil {
			return prog, nil
		}
		last = fmt.Errorf("mos6502: program is %d bytes, more than the %d available", size, limit)
	}
	return nil, last
}

func buildWith(p *lang.Program, opts backend.Options, lay layout, unroll int) (*program, error) {
	m, err := ir.Compile(p, ir.Options{W: 8, Unroll: unroll, DumpAfter: opts.DumpAfter, Dump: opts.Dump})
	if err != nil {
		return nil, err
	}
	src, abis, err := generate(m, lay, nil)
	if err != nil {
		return nil, err
	}
	if est := estimateSize(src); est > 0x10000-lay.org {
		// Too big to assemble at all: say so without running 64tass.
		return &program{mod: m, img: &image{org: lay.org, data: make([]byte, est)}, src: src}, nil
	}
	img, err := assemble64tass(src, false)
	if err != nil {
		return nil, err
	}
	img.org = lay.org
	prog := &program{mod: m, img: img, abis: map[string]*funcABI{}, src: src}
	for _, a := range abis {
		prog.abis[a.Name] = a
	}
	return prog, nil
}
