package llvm

import (
	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

// Target is what the target-independent part of the LLVM path needs to
// know of one LLVM target: its triple and data layout, and, through the
// Config its options select, how each export is compiled (its variants,
// their features, how `have F` and the builtins are selected, and how a
// variant is picked at run time). backend/amd64 is the x86-64 Target.
type Target interface {
	// Name names the target in messages and temporary files ("amd64").
	Name() string
	// Triple and DataLayout are the LLVM module's target triple and data
	// layout.
	Triple() string
	DataLayout() string
	// Configure reads the options the target cares about (amd64: --hw)
	// into a Config, or refuses them.
	Configure(opts backend.Options) (Config, error)
}

// Config is one configuration of a target: the variants of every export.
type Config interface {
	// Variants returns the variants export f is compiled to, best first.
	// With one, the variant is the export's kernel; with several, each is
	// an internal function NAME.SUFFIX and the kernel is a dispatcher
	// (Dispatcher) that picks one at run time.
	Variants(f *ir.Function) []Variant
	// Dispatcher emits the function name that calls the first of impls
	// (compiled from vs, best first) that the machine allows.
	Dispatcher(m *Module, name string, impls []*llir.Func, vs []Variant) *llir.Func
	// Dispatched says whether exports may have several variants: the
	// runner's driver then serves requests to force the dispatch level
	// (Runner.ForceDispatch; the module exports NAME_force_level).
	Dispatched() bool
	// Header returns what the C header of module mod declares after the
	// exports ("" for nothing).
	Header(mod string) string
	// Describe names the configuration in the runner's stats (key hw) and
	// in its build cache.
	Describe() string
}

// Finisher is implemented by a Config that emits module-level code after
// the exports (arm64: the dispatch level queries of --hw auto, which the
// header declares even when no export of the module is dispatched).
type Finisher interface {
	Finish(m *Module)
}

// Variant is one compiled version of an export.
type Variant interface {
	// Suffix is the variant's symbol suffix when the export is dispatched.
	Suffix() string
	// Features is the "target-features" attribute of the variant's
	// function ("" for none).
	Features() string
	// Selector returns the target's instruction selection for fn, the
	// function being emitted in this variant.
	Selector(fn *Func) Selector
}

// Selector is a target's part of the instruction selection of one
// function: the ops whose lowering is the target's (`have F`, the
// builtins), and any selection it does ahead of the scalar one (vector
// lanes, for instance).
type Selector interface {
	// Have answers `have f` for the variant.
	Have(f sem.Feature) bool
	// Plan is called at the start of each block the function emits, before
	// its instructions; Select gets its result.
	Plan(b *ir.Block) any
	// Select may emit in (a non-structured instruction of the block plan
	// was made for) and report true; false leaves in to the scalar
	// selection.
	Select(in *ir.Instr, plan any) bool
	// Builtin emits a builtin left to the scalar selection: clmul_lo,
	// clmul_hi, the AES rounds and the SHA-256 ops.
	Builtin(in *ir.Instr) error
}

// Host is implemented by a Target whose code does not run on this
// machine as it is (compiled for another instruction set, or for a
// virtual machine): it builds the runner's driver its own way and says
// how to start it. A Target without it has the C driver (driver.c, the
// protocol in driver.go) linked by gcc with the module's object and the
// executable started directly.
type Host interface {
	// BuildDriver builds the driver of d and returns the command line
	// that starts it.
	BuildDriver(d DriverBuild) (argv []string, err error)
}

// DriverBuild is what Host.BuildDriver gets: the build directory and
// what is already written in it.
type DriverBuild struct {
	Dir     string     // the build directory
	Module  *ir.Module // the module compiled
	Object  string     // its object file (llc's output)
	Header  string     // its C header
	CSource string     // the C driver (driver.c)
}

// Codegen is implemented by a Target whose objects need llc options of
// their own in place of llcArgs (-O3 -relocation-model=pic).
type Codegen interface {
	LLCArgs() []string
}

// Pointers is implemented by a Target whose pointers are not 64 bits wide
// (wasm32): the emitter then uses an integer of that width for sizes
// (the C ABI's size_t of a slice's length) and for element indices. A
// Target without it has 64-bit pointers.
type Pointers interface {
	PointerBits() int
}

// IntPtr is the integer type of t's pointers (size_t, uintptr_t).
func IntPtr(t Target) *types.IntType {
	if p, ok := t.(Pointers); ok && p.PointerBits() != 64 {
		return types.NewInt(uint64(p.PointerBits()))
	}
	return types.I64
}
