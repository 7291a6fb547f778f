// Package wasm32 is lowentc's WebAssembly backend: the wasm32 target of
// the LLVM path (backend/llvm). LLVM 14's llc compiles the program for
// wasm32-unknown-unknown, wasm-ld (lld-14) links it into a module with one
// export per Lowent export and its memory, and the JavaScript this package
// writes (js.go) calls it over Uint8Arrays; the runner drives it under
// Node through a JavaScript driver speaking the C driver's protocol
// (driver.go). There is one hardware level, none: `have F` is false and
// the clmul and AES builtins are computed (backend/llvm's soft*.go).
// docs/wasm32.md is the user's guide.
package wasm32

import (
	"fmt"
	"os"
	"path/filepath"

	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

// Emits are the artifact kinds, the default first (the driver adds ir):
// LLVM IR, wasm assembly, the object, the linked module, the ES module
// that embeds it, its TypeScript declarations, and the C header of the
// object's C ABI.
var Emits = []string{"ll", "asm", "obj", "wasm", "js", "dts", "h"}

// Target is the wasm32 LLVM target.
var Target llvm.Target = wasm{}

func init() { llvm.Register(Target, Emits, Compile) }

// Compile produces the artifact opts.Emit of the program in.
func Compile(in *backend.Input, opts backend.Options) ([]byte, error) {
	switch opts.Emit {
	case "wasm", "js", "dts":
	default:
		return llvm.Compile(Target, in, opts)
	}
	if _, err := Target.Configure(opts); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "lowentc-wasm32-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	b, err := llvm.Build(Target, in, opts, dir)
	if err != nil {
		return nil, err
	}
	if opts.Emit == "dts" {
		return []byte(declarations(b.Module)), nil
	}
	wasmPath := filepath.Join(dir, b.Module.Name+".wasm")
	if err := link(dir, b.Module, b.Object, wasmPath); err != nil {
		return nil, err
	}
	bin, err := os.ReadFile(wasmPath)
	if err != nil {
		return nil, err
	}
	if opts.Emit == "wasm" {
		return bin, nil
	}
	return []byte(jsModule(b, bin)), nil
}

// Runner runs the exports of one program under Node (llvm.Runner).
type Runner struct{ *llvm.Runner }

// Prepare compiles the program in (or reuses the cached build) and
// returns its runner.
func Prepare(in *backend.Input, opts backend.Options) (*Runner, error) {
	r, err := llvm.Prepare(Target, in, opts)
	if err != nil {
		return nil, err
	}
	return &Runner{r}, nil
}

// wasm is the llvm.Target of wasm32-unknown-unknown.
type wasm struct{}

func (wasm) Name() string       { return "wasm32" }
func (wasm) Triple() string     { return "wasm32-unknown-unknown" }
func (wasm) DataLayout() string { return "e-m:e-p:32:32-i64:64-n32:64-S128" }

// PointerBits: wasm32 addresses its memory with 32-bit pointers.
func (wasm) PointerBits() int { return 32 }

// LLCArgs: no -relocation-model=pic (the module is linked whole, at fixed
// addresses); bulk memory for the memset of local arrays (memory.fill,
// rather than a call of a C library's memset) and sign extension, both in
// every engine of the last years (Node 16 and later).
func (wasm) LLCArgs() []string {
	return []string{"-O3", "-mattr=+bulk-memory,+sign-ext"}
}

// Configure reads --hw: only none (the default). simd128 may come later.
func (wasm) Configure(opts backend.Options) (llvm.Config, error) {
	switch opts.HW {
	case "", "none":
		return config{}, nil
	}
	return nil, fmt.Errorf("wasm32: --hw %s: the wasm32 target has one level, none (`have F` is false; the builtins are computed)", opts.HW)
}

// config is the one configuration: one variant per export.
type config struct{}

func (config) Variants(f *ir.Function) []llvm.Variant { return []llvm.Variant{variant{}} }
func (config) Dispatcher(m *llvm.Module, name string, impls []*llir.Func, vs []llvm.Variant) *llir.Func {
	panic("BUG: wasm32: one variant per export, no dispatcher")
}
func (config) Dispatched() bool         { return false }
func (config) Header(mod string) string { return "" }
func (config) Describe() string         { return "none" }
func (variant) Suffix() string          { return "none" }
func (variant) Features() string        { return "" }
func (variant) Selector(fn *llvm.Func) llvm.Selector {
	return &fgen{Func: fn, soft: llvm.NewScalarSoftAES(), pairs: map[[2]value.Value][2]value.Value{}, pairBlock: map[[2]value.Value]*llir.Block{}}
}

// variant is the one variant of an export.
type variant struct{}

// fgen is the instruction selection of one function: the computed
// builtins.
type fgen struct {
	*llvm.Func
	soft      *llvm.SoftAES                     // the bitsliced AES, four states on i64 planes
	pairs     map[[2]value.Value][2]value.Value // clmul products by operands
	pairBlock map[[2]value.Value]*llir.Block    // where each was computed
}

// Have: no feature is there.
func (g *fgen) Have(sem.Feature) bool { return false }

// Plan groups the block's AES rounds four at a time: the bitsliced round
// holds four states in each 64-bit plane.
func (g *fgen) Plan(b *ir.Block) any { return g.soft.Plan(b) }

// Select emits the AES rounds, a group at its last round's place.
func (g *fgen) Select(in *ir.Instr, plan any) bool {
	return g.soft.Select(g.Func, in, plan.(*llvm.AESPlan))
}

// Builtin computes clmul_lo/hi and the AES rounds with 64-bit integer
// operations: no tables, no data-dependent branches.
func (g *fgen) Builtin(in *ir.Instr) error {
	switch in.Op {
	case ir.OpClmulLo, ir.OpClmulHi:
		a, b := g.Val(in.Args[0]), g.Val(in.Args[1])
		key := [2]value.Value{a, b}
		pair, ok := g.pairs[key]
		if !ok || g.pairBlock[key] != g.Cur {
			lo, hi := g.SoftClmul(a, b)
			pair = [2]value.Value{lo, hi}
			g.pairs[key], g.pairBlock[key] = pair, g.Cur
		}
		if in.Op == ir.OpClmulHi {
			g.Vals[in.Results[0]] = pair[1]
		} else {
			g.Vals[in.Results[0]] = pair[0]
		}
		return nil
	case ir.OpAESEnc, ir.OpAESEncLast:
		return fmt.Errorf("BUG: wasm32: %s: AES round left to the scalar selection", g.F.Name)
	}
	return fmt.Errorf("BUG: wasm32: %s: %s outside `if have`", g.F.Name, in.Op)
}
