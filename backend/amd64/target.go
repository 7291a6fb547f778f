// Package amd64 is lowentc's native x86-64 backend: legalized IR at W=64
// becomes LLVM IR (built with github.com/llir/llvm), which the machine's
// LLVM 14 (opt -O3, llc -O3 -relocation-model=pic) compiles to an object,
// a static library and a C header. --hw chooses how the clmul and AES
// builtins are computed (hw.go); the runner links a generated C driver
// with gcc and runs it natively (runner.go). docs/amd64.md is the user's
// guide.
package amd64

import (
	"fmt"
	"os"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
)

// Emits are the artifact kinds, the default first.
var Emits = []string{"ll", "asm", "obj", "lib", "h", "ir"}

func init() {
	backend.Register(&backend.Target{
		Name:    "amd64",
		Width:   64,
		Emits:   Emits,
		Compile: Compile,
		Prepare: func(p *lang.Program, opts backend.Options) (backend.Runner, error) {
			return Prepare(p, opts)
		},
		Validate: func(opts backend.Options) error {
			_, err := parseHW(opts.HW)
			return err
		},
	})
}

// build is one program compiled to LLVM IR under one --hw setting.
type build struct {
	m     *ir.Module
	hw    hwConfig
	traps *trapTable
	ll    string
}

// translate runs the IR pipeline and the emitter.
func translate(p *lang.Program, opts backend.Options) (*build, error) {
	hw, err := parseHW(opts.HW)
	if err != nil {
		return nil, err
	}
	if err := checkStack(p); err != nil {
		return nil, err
	}
	m, err := lower.Compile(p, ir.Options{W: 64, Unroll: ir.DefaultUnroll, KeepHave: true, DumpAfter: opts.DumpAfter, Dump: opts.Dump})
	if err != nil {
		return nil, err
	}
	traps := newTrapTable()
	mod, err := buildModuleSafe(m, hw, traps)
	if err != nil {
		return nil, err
	}
	return &build{m: m, hw: hw, traps: traps, ll: mod}, nil
}

// buildModuleSafe emits the module as text, turning an internal panic
// (ours or llir's) into an error.
func buildModuleSafe(m *ir.Module, hw hwConfig, traps *trapTable) (ll string, err error) {
	defer func() {
		if r := recover(); r != nil {
			ll, err = "", fmt.Errorf("amd64: internal compiler error: %v", r)
		}
	}()
	mod, err := buildModule(m, hw, traps)
	if err != nil {
		return "", err
	}
	return mod.String(), nil
}

// Compile produces the artifact opts.Emit of p.
func Compile(p *lang.Program, opts backend.Options) ([]byte, error) {
	b, err := translate(p, opts)
	if err != nil {
		return nil, err
	}
	switch opts.Emit {
	case "", "ll":
		return []byte(b.ll), nil
	case "ir":
		return []byte(b.m.String()), nil
	case "h":
		return []byte(header(b.m, b.traps, b.hw)), nil
	}
	dir, err := os.MkdirTemp("", "lowentc-amd64-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path, err := b.native(dir, opts.Emit)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}

// native writes the asm, obj or lib artifact into dir and returns its path.
func (b *build) native(dir, kind string) (string, error) {
	switch kind {
	case "asm":
		return codegen(dir, b.m.Name, b.ll, "asm")
	case "obj", "lib":
		obj, err := codegen(dir, b.m.Name, b.ll, "obj")
		if err != nil || kind == "obj" {
			return obj, err
		}
		return archive(dir, b.m.Name, obj)
	}
	return "", fmt.Errorf("amd64: cannot emit %q (kinds: ll, asm, obj, lib, h, ir)", kind)
}

// maxStackArrays is the most bytes of local arrays a call of an export may
// keep on the stack: its own and those of the deepest chain of calls below
// it (local arrays live in the stack frame). 1 MiB leaves room in a
// thread's stack (8 MiB by default for glibc's threads and main thread);
// more would overflow it, a crash rather than an answer.
const maxStackArrays = 1 << 20

// checkStack refuses a program one of whose exports would need more than
// maxStackArrays bytes of stack for its arrays, at the largest of them.
func checkStack(p *lang.Program) error {
	for _, f := range p.Exports() {
		c := lang.LocalArrayChain(f, lang.ArrayBytes)
		if c.Bytes > maxStackArrays {
			return &lang.Diag{Pos: c.Largest.Sym.Pos, Msg: fmt.Sprintf("amd64: a call of %s keeps %s bytes of local arrays on the stack (%s); the limit is %s (1 MiB)",
				f.Name, lang.Thousands(c.Bytes), c.Describe("bytes"), lang.Thousands(maxStackArrays))}
		}
	}
	return nil
}
