// Package llvm is the target-independent part of lowentc's LLVM path:
// legalized IR at W=64 becomes LLVM IR (built with github.com/llir/llvm)
// for a Target, which supplies the triple, the data layout and the
// selection of `have F` and the builtins; the machine's LLVM 14 (opt -O3,
// llc -O3 -relocation-model=pic) compiles it to an object, a static
// library and a C header (abi.go). The runner links a generated C driver
// with gcc and runs it natively (runner.go). backend/amd64 is the x86-64
// target; docs/architecture.md says how to add another.
package llvm

import (
	"fmt"
	"os"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

// Emits are the artifact kinds, the default first (the driver adds ir).
var Emits = []string{"ll", "asm", "obj", "lib", "h"}

// build is one program compiled to LLVM IR under one configuration of
// its target.
type build struct {
	t     Target
	m     *ir.Module
	cfg   Config
	traps *trapTable
	ll    string
}

// plan is the IR the backend compiles: legalized at W=64, fully unrolled
// and inlined, with `have` kept for the target's variants.
var plan = ir.Options{W: 64, Unroll: ir.DefaultUnroll, KeepHave: true}

// LaneConfig is implemented by a Config that has a variant selecting
// lane loops (lanes52.go): LaneLoops reports whether it does, and the plan
// then keeps those loops rolled (ir.Options.LaneLoops). Every other
// configuration compiles the IR it compiled before.
type LaneConfig interface {
	LaneLoops() bool
}

// planFor is plan under opts: with LaneLoops when t's configuration asks.
func planFor(t Target, opts backend.Options) ir.Options {
	p := plan
	if cfg, err := t.Configure(opts); err == nil {
		if lc, ok := cfg.(LaneConfig); ok && lc.LaneLoops() {
			p.LaneLoops = true
		}
	}
	return p
}

// module checks the program's stack needs and returns its module under
// the plan of opts.
func module(t Target, in *backend.Input, opts backend.Options) (*ir.Module, error) {
	if err := checkStack(t, in); err != nil {
		return nil, err
	}
	m, err := in.Module(planFor(t, opts))
	if err != nil {
		return nil, err
	}
	in.Use(m)
	return m, nil
}

// translate runs the emitter on m.
func translate(t Target, m *ir.Module, opts backend.Options) (*build, error) {
	cfg, err := t.Configure(opts)
	if err != nil {
		return nil, err
	}
	traps := newTrapTable()
	mod, err := buildModuleSafe(t, m, cfg, traps)
	if err != nil {
		return nil, err
	}
	return &build{t: t, m: m, cfg: cfg, traps: traps, ll: mod}, nil
}

// buildModuleSafe emits the module as text, turning an internal panic
// (ours or llir's) into an error.
func buildModuleSafe(t Target, m *ir.Module, cfg Config, traps *trapTable) (ll string, err error) {
	defer func() {
		if r := recover(); r != nil {
			ll, err = "", fmt.Errorf("%s: internal compiler error: %v", t.Name(), r)
		}
	}()
	mod, err := buildModule(t, m, cfg, traps)
	if err != nil {
		return "", err
	}
	return mod.String(), nil
}

// Compile produces the artifact opts.Emit of the program in for target t.
func Compile(t Target, in *backend.Input, opts backend.Options) ([]byte, error) {
	if _, err := t.Configure(opts); err != nil {
		return nil, err
	}
	m, err := module(t, in, opts)
	if err != nil {
		return nil, err
	}
	b, err := translate(t, m, opts)
	if err != nil {
		return nil, err
	}
	switch opts.Emit {
	case "", "ll":
		return []byte(b.ll), nil
	case "h":
		return []byte(header(b.m, b.traps, b.cfg)), nil
	}
	dir, err := os.MkdirTemp("", "lowentc-"+t.Name()+"-")
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
		return codegen(b.t, dir, b.m.Name, b.ll, "asm")
	case "obj", "lib":
		obj, err := codegen(b.t, dir, b.m.Name, b.ll, "obj")
		if err != nil || kind == "obj" {
			return obj, err
		}
		return archive(b.t, dir, b.m.Name, obj)
	}
	return "", fmt.Errorf("%s: cannot emit %q (kinds: ll, asm, obj, lib, h)", b.t.Name(), kind)
}

// maxStackArrays is the most bytes of local arrays a call of an export may
// keep on the stack: its own and those of the deepest chain of calls below
// it (local arrays live in the stack frame). 1 MiB leaves room in a
// thread's stack (8 MiB by default for glibc's threads and main thread);
// more would overflow it, a crash rather than an answer.
const maxStackArrays = 1 << 20

// checkStack refuses a program one of whose exports would need more than
// maxStackArrays bytes of stack for its arrays, at the largest of them.
func checkStack(t Target, in *backend.Input) error {
	for _, c := range in.Chains {
		if c.Bytes > maxStackArrays {
			return &sem.Diag{Pos: c.Pos, Msg: fmt.Sprintf("%s: a call of %s keeps %s bytes of local arrays on the stack (%s); the limit is %s (1 MiB)",
				t.Name(), c.Export, sem.Thousands(c.Bytes), c.Where, sem.Thousands(maxStackArrays))}
		}
	}
	return nil
}

// Built is a program compiled to an object file, for a target that makes
// artifacts of its own from it (wasm32 links it into a module and writes
// the JavaScript that calls it).
type Built struct {
	Module *ir.Module // the IR compiled
	Object string     // the object file's path
	b      *build
}

// Build compiles the program in for t into an object file in dir.
func Build(t Target, in *backend.Input, opts backend.Options, dir string) (*Built, error) {
	m, err := module(t, in, opts)
	if err != nil {
		return nil, err
	}
	b, err := translate(t, m, opts)
	if err != nil {
		return nil, err
	}
	obj, err := b.native(dir, "obj")
	if err != nil {
		return nil, err
	}
	return &Built{Module: m, Object: obj, b: b}, nil
}

// Requires returns the errors of the requires clauses export f's kernel
// checks, by the status the kernel returns for each (-1-k for clause k).
func (b *Built) Requires(f *ir.Function) map[int]error {
	out := map[int]error{}
	ir.WalkInstrs(f.Body, func(in *ir.Instr) {
		if c := in.Check; c != nil && c.Kind == ir.CheckEntry {
			out[-1-c.Clause] = c.Err()
		}
	})
	return out
}

// Traps returns the errors of the module's run-time checks by status
// (2 and up), as the runner reports them.
func (b *Built) Traps() map[int]error {
	out := map[int]error{}
	for i, c := range b.b.traps.infos {
		out[firstTrap+i] = c.Err()
	}
	return out
}

// Header is the C header of the compiled program.
func (b *Built) Header() string { return header(b.b.m, b.b.traps, b.b.cfg) }

// KernelName is the symbol of the kernel of export fn of module mod: the
// function the C entry calls, which returns -1-k when requires clause k
// fails (the C entry returns StatusFault for all of them).
func KernelName(mod, fn string) string { return kernelName(SymbolName(mod, fn)) }
