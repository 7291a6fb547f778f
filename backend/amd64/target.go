// Package amd64 is lowentc's native x86-64 backend: the x86-64 target of
// the LLVM path (backend/llvm), which turns legalized IR at W=64 into LLVM
// IR, compiles it with the machine's LLVM 14 and runs it through a C
// driver. This package holds what is x86's: the triple and data layout,
// --hw and the CPU levels (hw.go), the CPUID dispatcher (dispatch.go), the
// selection of `have F` and of the clmul, AES and SHA-256 builtins
// (builtins.go, vec.go, sha.go; llvm.x86.* intrinsics); their computed
// fallback is backend/llvm's (soft*.go), selected here (soft.go). docs/amd64.md is the user's guide.
package amd64

import (
	"fmt"
	"strings"

	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

// Emits are the artifact kinds, the default first (the driver adds ir).
var Emits = llvm.Emits

// Status codes of the C ABI (docs/amd64.md).
const (
	StatusOK    = llvm.StatusOK
	StatusFault = llvm.StatusFault
)

// Target is the x86-64 LLVM target.
var Target llvm.Target = x86{}

func init() { llvm.Register(Target, Emits, Compile) }

// Compile produces the artifact opts.Emit of the program in.
func Compile(in *backend.Input, opts backend.Options) ([]byte, error) {
	return llvm.Compile(Target, in, opts)
}

// Runner runs the exports of one program natively (llvm.Runner), and
// under --hw auto can lower the CPU level the dispatcher sees.
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

// ForceLevel limits a --hw auto program to CPU level n (0 computed, 1
// AES-NI, 2 AVX2 with VAES, 3 AVX-512; the flags levelSHA and levelIFMA
// kept only where the CPU has them) and returns the level in effect.
func (r *Runner) ForceLevel(n int) (int, error) {
	return r.Runner.ForceLevel(n, "a CPU level 0-3 (with or without the flags 0x100 SHA, 0x200 IFMA)")
}

// SymbolName is the C name of export fn of module mod.
func SymbolName(mod, fn string) string { return llvm.SymbolName(mod, fn) }

// x86 is the llvm.Target of x86-64 Linux.
type x86 struct{}

func (x86) Name() string   { return "amd64" }
func (x86) Triple() string { return "x86_64-pc-linux-gnu" }
func (x86) DataLayout() string {
	return "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
}

// Configure reads --hw.
func (x86) Configure(opts backend.Options) (llvm.Config, error) {
	hw, err := parseHW(opts.HW)
	if err != nil {
		return nil, err
	}
	return hw, nil
}

// builtinUse says which builtin families a function uses; haveSHA that
// it asks `have sha` (it then gets a SHA-NI variant even when the SHA-256
// builtins it guards were deleted as dead, so that `have sha` is true on
// a CPU with the SHA extensions).
type builtinUse struct{ clmul, aes, sha, haveSHA, haveIFMA bool }

func usesOf(f *ir.Function) builtinUse {
	var u builtinUse
	ir.WalkInstrs(f.Body, func(in *ir.Instr) {
		switch in.Op {
		case ir.OpClmulLo, ir.OpClmulHi:
			u.clmul = true
		case ir.OpAESEnc, ir.OpAESEncLast:
			u.aes = true
		case ir.OpSHA256Rnds2, ir.OpSHA256Msg1, ir.OpSHA256Msg2:
			u.sha = true
		case ir.OpHave:
			u.haveSHA = u.haveSHA || sem.Feature(in.Aux) == sem.FeatSHA
			u.haveIFMA = u.haveIFMA || sem.Feature(in.Aux) == sem.FeatIFMA
		}
	})
	return u
}

// Variants returns the variants of export f: those of --hw, or of
// shaVariants when f uses the SHA-256 builtins or asks `have sha`, with
// the IFMA variant first under auto when f asks `have ifma`.
func (h hwConfig) Variants(f *ir.Function) []llvm.Variant {
	use := usesOf(f)
	vs := h.variants
	if use.sha || use.haveSHA {
		vs = shaVariants(h)
	}
	if use.haveIFMA {
		vs = ifmaVariants(h, vs)
	}
	out := make([]llvm.Variant, len(vs))
	for i, v := range vs {
		out[i] = funcVariant{v, use}
	}
	return out
}

// Dispatcher emits the CPUID dispatcher of an export (dispatch.go).
func (h hwConfig) Dispatcher(m *llvm.Module, name string, impls []*llir.Func, vs []llvm.Variant) *llir.Func {
	xs := make([]variant, len(vs))
	for i, v := range vs {
		xs[i] = v.(funcVariant).variant
	}
	return modGen{m}.dispatcher(name, impls, xs)
}

// LaneLoops: --hw auto (its IFMA variant) and a list naming ifma select
// lane loops, so the IR keeps them rolled (backend/llvm.LaneConfig).
func (h hwConfig) LaneLoops() bool {
	return h.mode == "auto" || len(h.variants) == 1 && h.variants[0].ifma
}

// Dispatched says whether --hw auto compiles several variants.
func (h hwConfig) Dispatched() bool { return len(h.variants) > 1 }

// Describe names the setting for stats: the mode and, for a list, its
// features.
func (h hwConfig) Describe() string { return h.describe() }

// Header declares the CPU level queries of --hw auto.
func (h hwConfig) Header(mod string) string {
	if !h.Dispatched() {
		return ""
	}
	return "\n/* --hw auto: the CPU level in use (0 computed, 1 AES-NI + PCLMULQDQ,\n" +
		"   2 the same with AVX2, VAES, VPCLMULQDQ, 3 with AVX-512), the flags in\n" +
		"   use (0x100: the SHA extensions; 0x200: AVX-512 IFMA, with level 3), and\n" +
		"   a way to lower them: force_level(n), n a level 0-3 optionally with the\n" +
		"   flags 0x100 and 0x200, keeps the smaller level and a flag only if the\n" +
		"   CPU has it too, and returns the level and flags in effect; any other n\n" +
		"   (a negative one, a level above 3, another bit)\n" +
		"   returns -1 and changes nothing. */\n" +
		fmt.Sprintf("int %s(void);\n", llvm.SymbolName(mod, "cpu_level")) +
		fmt.Sprintf("int %s(void);\n", llvm.SymbolName(mod, "cpu_flags")) +
		fmt.Sprintf("int %s(int level);\n", llvm.SymbolName(mod, "force_level"))
}

// funcVariant is a variant of one export, with the builtins it uses.
type funcVariant struct {
	variant
	use builtinUse
}

func (v funcVariant) Suffix() string   { return v.name }
func (v funcVariant) Features() string { return funcFeatures(v.variant, v.use) }

func (v funcVariant) Selector(fn *llvm.Func) llvm.Selector {
	return &fgen{Func: fn, v: v.variant, pairs: map[[2]value.Value]value.Value{},
		pairBlock: map[[2]value.Value]*llir.Block{}, lanes: map[*ir.Value]laneRef{}, laneOps: map[value.Value]vecOp{}, laneOpVec: map[vecOp]value.Value{}, laneOpBlock: map[vecOp]*llir.Block{},
		clmulPairs: map[[2]*ir.Value]value.Value{}, clmulBlock: map[[2]*ir.Value]*llir.Block{}, consts: map[uint64]*ir.Value{},
		soft: llvm.NewSoftAES()}
}

// modGen is a module being emitted, for the module-level helpers of this
// target (the CPU level queries, the bitsliced AES round functions).
type modGen struct{ *llvm.Module }

// fgen is the x86 instruction selection of one variant of one function.
type fgen struct {
	*llvm.Func
	v     variant
	pairs map[[2]value.Value]value.Value // clmul products by operands
	// pairBlock is where each pair was computed: only reused there.
	pairBlock map[[2]value.Value]*llir.Block
	// Vector selection of the hardware variants (vec.go).
	lanes       map[*ir.Value]laneRef
	laneOps     map[value.Value]vecOp // how laneOp made a vector (vecStoreRun widens it)
	laneOpVec   map[vecOp]value.Value // ... and the other way round, per block
	laneOpBlock map[vecOp]*llir.Block
	clmulPairs  map[[2]*ir.Value]value.Value
	clmulBlock  map[[2]*ir.Value]*llir.Block
	consts      map[uint64]*ir.Value // synthetic constants of pairOp
	// The bitsliced computed AES of a computed variant (backend/llvm).
	soft *llvm.SoftAES
	// Word buffers (wordbuf.go): the function's, and those stored to
	// since their last fence.
	wbufs  map[*ir.Array]bool
	dirty  map[*ir.Array]bool
	wpairs map[[2]*ir.Value]value.Value // word pairs formed (wordPair)
	wlanes map[*ir.Value]laneRef        // ... and where each value sits
	wblock *llir.Block                  // ... in this LLVM block
}

// Plan plans a block: the vector selection of a hardware variant, the
// bitsliced AES groups of a computed one.
func (g *fgen) Plan(b *ir.Block) any {
	if g.v.hw {
		return g.planBlock(b)
	}
	return g.planSoft(b)
}

// Select emits in when the block's plan covers it.
func (g *fgen) Select(in *ir.Instr, plan any) bool {
	p := plan.(*blockPlan)
	if g.zeroStore(in) {
		return true
	}
	g.fenceWordBuf(in)
	if g.wordBufAccess(in, p) {
		return true
	}
	return g.vecInstr(in, p) || g.softInstr(in, p)
}

// ChunkLanes is how many iterations of a chunk loop the variant runs at
// once (backend/llvm/chunkvec.go): one per 32-bit lane of its widest
// vectors, 16 with AVX-512, 8 with AVX2, 4 with SSE in the other hardware
// variants; the computed variant keeps its loops scalar.
func (g *fgen) ChunkLanes() int {
	switch {
	case !g.v.hw && !strings.Contains(g.v.features, "+avx"):
		return 0
	case g.v.zmm || strings.Contains(g.v.features, "+avx512f"):
		return 16
	case strings.Contains(g.v.features, "+avx2"):
		return 8
	}
	return 4
}

// Builtin emits a clmul or SHA-256 builtin the plan left to the scalar
// selection (the AES rounds never are).
func (g *fgen) Builtin(in *ir.Instr) error {
	switch in.Op {
	case ir.OpClmulLo, ir.OpClmulHi:
		g.Vals[in.Results[0]] = g.clmul(in.Op == ir.OpClmulHi, g.Val(in.Args[0]), g.Val(in.Args[1]))
		return nil
	case ir.OpAESEnc, ir.OpAESEncLast:
		return fmt.Errorf("BUG: amd64: %s: AES round left to the scalar selection", g.F.Name)
	}
	return g.sha(in)
}

// LanesIFMA: the IFMA variant runs lane loops on eight 64-bit lanes with
// VPMADD52LUQ/VPMADD52HUQ (backend/llvm/lanes52.go).
func (g *fgen) LanesIFMA() bool { return g.v.ifma }

// RotatesPairs: the AVX-512 variant rotates 64-bit lanes with VPROLQ,
// which runs beside the shuffles (backend/llvm.ChunkRotator).
func (g *fgen) RotatesPairs() bool {
	return g.ChunkLanes() == 16
}
