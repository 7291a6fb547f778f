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
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
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

func init() {
	backend.Register(&backend.Target{
		Name:    "wasm32",
		Emits:   Emits,
		Compile: Compile,
		Prepare: func(in *backend.Input, opts backend.Options) (backend.Runner, error) {
			return Prepare(in, opts)
		},
		Validate: func(opts backend.Options) error {
			_, err := Target.Configure(opts)
			return err
		},
	})
}

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
	return &fgen{Func: fn, pairs: map[[2]value.Value][2]value.Value{}, pairBlock: map[[2]value.Value]*llir.Block{},
		sliced: map[*ir.Value]sliceRef{}}
}

// variant is the one variant of an export.
type variant struct{}

// fgen is the instruction selection of one function: the computed
// builtins.
type fgen struct {
	*llvm.Func
	pairs     map[[2]value.Value][2]value.Value // clmul products by operands
	pairBlock map[[2]value.Value]*llir.Block    // where each was computed
	sliced    map[*ir.Value]sliceRef            // AES states held in a group's planes
}

// Have: no feature is there.
func (g *fgen) Have(sem.Feature) bool { return false }

// aesPlan is the AES round groups of a block (llvm.PlanAESGroups).
type aesPlan struct {
	skip  map[*ir.Instr]bool
	group map[*ir.Instr][]*ir.Instr
}

// Plan groups the block's AES rounds four at a time: the bitsliced round
// holds four states in each 64-bit plane.
func (g *fgen) Plan(b *ir.Block) any {
	p := &aesPlan{skip: map[*ir.Instr]bool{}, group: map[*ir.Instr][]*ir.Instr{}}
	llvm.PlanAESGroups(b, 4, true, p.skip, p.group)
	return p
}

// Select emits the AES rounds, a group at its last round's place.
func (g *fgen) Select(in *ir.Instr, plan any) bool {
	if in.Op != ir.OpAESEnc && in.Op != ir.OpAESEncLast {
		return false
	}
	p := plan.(*aesPlan)
	if p.skip[in] {
		return true
	}
	grp, ok := p.group[in]
	if !ok {
		grp = []*ir.Instr{in}
	}
	g.aesGroup(grp)
	return true
}

// sliceGroup is a group of up to four AES states held as eight planes.
type sliceGroup struct {
	planes [8]value.Value
	n      int
}

// sliceRef says a value is word slot (2j + h: word h of state j) of grp.
type sliceRef struct {
	grp  *sliceGroup
	slot int
}

// aesGroup emits one bitsliced round of up to four states: bitsliced
// (unless they are exactly the previous group's results, whose planes it
// takes), the module's round function, and back to words (which LLVM
// deletes where the next group takes the planes).
func (g *fgen) aesGroup(grp []*ir.Instr) {
	o := llvm.IntOps{M: g.Module, B: &g.Cur}
	zero := llvm.Cint(types.I64, 0)
	planes, ok := g.slicedInput(grp)
	if !ok {
		var w [8]value.Value
		for i := range w {
			w[i] = zero
			if j := i / 2; j < len(grp) {
				w[i] = g.Val(grp[j].Args[i%2])
			}
		}
		planes = llvm.Pack4[value.Value](o, w)
	}
	var kw [8]value.Value
	for i := range kw {
		kw[i] = g.Val(grp[0].Args[2+i%2])
	}
	key := llvm.Pack4[value.Value](o, kw)
	args := append(planes[:], key[:]...)
	r := g.Cur.NewCall(g.roundFunc(grp[0].Op == ir.OpAESEncLast), args...)
	out := &sliceGroup{n: len(grp)}
	for i := range out.planes {
		out.planes[i] = g.Cur.NewExtractValue(r, uint64(i))
	}
	w := llvm.Unpack4[value.Value](o, out.planes)
	for j, in := range grp {
		for h := 0; h < 2; h++ {
			g.Vals[in.Results[h]] = w[2*j+h]
			g.sliced[in.Results[h]] = sliceRef{out, 2*j + h}
		}
	}
}

// slicedInput returns the planes of the previous group when grp's states
// are exactly its results, in order.
func (g *fgen) slicedInput(grp []*ir.Instr) ([8]value.Value, bool) {
	var src *sliceGroup
	for j, in := range grp {
		for h := 0; h < 2; h++ {
			ref, ok := g.sliced[in.Args[h]]
			if !ok || ref.slot != 2*j+h || (src != nil && ref.grp != src) {
				return [8]value.Value{}, false
			}
			src = ref.grp
		}
	}
	if src.n != len(grp) {
		return [8]value.Value{}, false
	}
	return src.planes, true
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
			pair = g.clmul(a, b)
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

// clmul returns the low and high words of the carry-less product.
func (g *fgen) clmul(a, b value.Value) [2]value.Value {
	o := llvm.IntOps{M: g.Module, B: &g.Cur}
	if k, ok := b.(*constant.Int); ok {
		if lo, hi, ok := llvm.ClmulConst[value.Value](o, a, uint64(k.X.Int64())); ok {
			return [2]value.Value{lo, hi}
		}
	}
	if k, ok := a.(*constant.Int); ok {
		if lo, hi, ok := llvm.ClmulConst[value.Value](o, b, uint64(k.X.Int64())); ok {
			return [2]value.Value{lo, hi}
		}
	}
	lo, hi := llvm.SoftClmul[value.Value](o, a, b)
	return [2]value.Value{lo, hi}
}

var planesType = types.NewStruct(types.I64, types.I64, types.I64, types.I64, types.I64, types.I64, types.I64, types.I64)

// roundFunc returns the module's bitsliced AES round function (state
// planes, key planes -> state planes) of backend/llvm's SliceRound on i64
// planes, one out-of-line copy per kind, since a cipher calls it ten times
// per group.
func (g *fgen) roundFunc(last bool) *llir.Func {
	name := "lowentc.soft.round"
	if last {
		name = "lowentc.soft.lastround"
	}
	if f, ok := g.Decls[name]; ok {
		return f
	}
	ps := make([]*llir.Param, 16)
	for i := range ps {
		ps[i] = llir.NewParam("", types.I64)
	}
	f := g.Out.NewFunc(name, planesType, ps...)
	f.Linkage = enum.LinkageInternal
	f.FuncAttrs = append(f.FuncAttrs, enum.FuncAttrNoUnwind, enum.FuncAttrReadNone, enum.FuncAttrNoInline)
	g.Decls[name] = f
	blk := f.NewBlock("entry")
	o := llvm.IntOps{M: g.Module, B: &blk}
	var st, k [8]value.Value
	for i := 0; i < 8; i++ {
		st[i], k[i] = ps[i], ps[8+i]
	}
	st = llvm.SliceRound[value.Value](o, last, st, k)
	var r value.Value = constant.NewUndef(planesType)
	for i, x := range st {
		r = blk.NewInsertValue(r, x, uint64(i))
	}
	blk.NewRet(r)
	return f
}
