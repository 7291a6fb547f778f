package amd64

import (
	"fmt"

	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

// The emitter turns a legalized module (W = 64) into an LLVM module. Each
// export becomes one LLVM function per variant (hw.go) whose body is the
// export's structured IR turned into basic blocks and phis; everything
// else (register allocation, scheduling, vectorization) is LLVM's job.

// modGen holds what the functions of one LLVM module share.
type modGen struct {
	m       *ir.Module
	hw      hwConfig
	out     *llir.Module
	globals map[*ir.Array]*llir.Global
	traps   *trapTable
	decls   map[string]*llir.Func // intrinsics and helpers, by name
}

// builtinUse says which builtin families a function uses; haveSHA that
// it asks `have sha` (it then gets a SHA-NI variant even when the SHA-256
// builtins it guards were deleted as dead, so that `have sha` is true on
// a CPU with the SHA extensions).
type builtinUse struct{ clmul, aes, sha, haveSHA bool }

func usesOf(f *ir.Function) builtinUse {
	var u builtinUse
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		for _, in := range b.Instrs {
			switch in.Op {
			case ir.OpClmulLo, ir.OpClmulHi:
				u.clmul = true
			case ir.OpAESEnc, ir.OpAESEncLast:
				u.aes = true
			case ir.OpSHA256Rnds2, ir.OpSHA256Msg1, ir.OpSHA256Msg2:
				u.sha = true
			case ir.OpHave:
				u.haveSHA = u.haveSHA || lang.Feature(in.Aux) == lang.FeatSHA
			}
			for _, blk := range in.Blocks {
				walk(blk)
			}
		}
	}
	walk(f.Body)
	return u
}

// buildModule emits every export of m.
func buildModule(m *ir.Module, hw hwConfig, traps *trapTable) (*llir.Module, error) {
	if m.W != 64 {
		return nil, fmt.Errorf("BUG: amd64 needs IR legalized at W=64, got W=%d", m.W)
	}
	g := &modGen{m: m, hw: hw, out: llir.NewModule(), globals: map[*ir.Array]*llir.Global{},
		traps: traps, decls: map[string]*llir.Func{}}
	g.out.SourceFilename = m.Name + ".lw"
	g.out.TargetTriple = "x86_64-pc-linux-gnu"
	g.out.DataLayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
	for _, a := range m.Globals {
		g.global(a)
	}
	for _, f := range m.Funcs {
		if !f.Export {
			continue
		}
		if err := g.export(f); err != nil {
			return nil, err
		}
	}
	return g.out, nil
}

// global emits a read-only constant table.
func (g *modGen) global(a *ir.Array) *llir.Global {
	if gl, ok := g.globals[a]; ok {
		return gl
	}
	et := storageType(a.Elem)
	elems := make([]constant.Constant, len(a.Data))
	for i, x := range a.Data {
		elems[i] = constant.NewInt(et, int64(x))
	}
	gl := g.out.NewGlobalDef("lowentc."+g.m.Name+"."+a.Name, constant.NewArray(types.NewArray(uint64(len(elems)), et), elems...))
	gl.Immutable = true
	gl.Linkage = enum.LinkagePrivate
	gl.UnnamedAddr = enum.UnnamedAddrUnnamedAddr
	g.globals[a] = gl
	return gl
}

// export emits f as two functions: its kernel, kernelName(name) (the
// variants of f and, when there are several, the dispatcher), which
// reports a failed requires clause k as status -1-k; and the public C
// function name, the ABI entry, which refuses overlapping buffers
// (abi.go) and maps every requires status to StatusFault. The kernel has
// hidden visibility: the runner's driver calls it to learn which clause
// failed, and it is no part of the C API.
func (g *modGen) export(f *ir.Function) error {
	name := SymbolName(g.m.Name, f.Name)
	use := usesOf(f)
	vs := g.hw.variants
	if use.sha || use.haveSHA {
		vs = shaVariants(g.hw)
	}
	var kernel *llir.Func
	if len(vs) == 1 {
		fn, err := g.function(f, kernelName(name), vs[0], use, true)
		if err != nil {
			return err
		}
		kernel = fn
	} else {
		var impls []*llir.Func
		for _, v := range vs {
			fn, err := g.function(f, name+"."+v.name, v, use, false)
			if err != nil {
				return err
			}
			impls = append(impls, fn)
		}
		kernel = g.dispatcher(kernelName(name), impls, vs)
	}
	kernel.Visibility = enum.VisibilityHidden
	g.entry(f, name, kernel)
	return nil
}

// kernelName is the symbol of the kernel of the export whose C name is name.
func kernelName(name string) string { return name + ".kernel" }

// SymbolName is the C name of export fn of module mod.
func SymbolName(mod, fn string) string { return "lowentc_" + mod + "_" + fn }

// storageType is the LLVM type of an array element of type t (bools are bytes).
func storageType(t ir.Type) *types.IntType {
	if t == ir.Bool {
		return types.I8
	}
	return valueType(t)
}

// valueType is the LLVM type of an SSA value of type t.
func valueType(t ir.Type) *types.IntType {
	switch t {
	case ir.Bool:
		return types.I1
	case ir.U8:
		return types.I8
	case ir.U16:
		return types.I16
	case ir.U32:
		return types.I32
	case ir.U64:
		return types.I64
	}
	panic(fmt.Sprintf("BUG: amd64: no LLVM type for %s", t))
}

// arrInfo is how a function reaches one of its arrays.
type arrInfo struct {
	ptr value.Value // pointer to the first element (storage type)
	len value.Value // i32 element count of a slice parameter
}

// fgen emits one variant of one function.
type fgen struct {
	*modGen
	f     *ir.Function
	fn    *llir.Func
	v     variant
	cur   *llir.Block
	vals  map[*ir.Value]value.Value
	arrs  map[*ir.Array]arrInfo
	outs  []value.Value // pointers the scalar results are stored to
	fails map[int]*llir.Block
	nblk  int
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
	depth       int                  // for loops around the block being emitted
	defDepth    map[*ir.Value]int    // the loop depth each value is defined at
	consts      map[uint64]*ir.Value // synthetic constants of pairOp
	// The bitsliced computed AES (soft_emit.go): values held in a group's planes.
	sliced map[*ir.Value]sliceRef
}

func (g *fgen) newBlock() *llir.Block {
	g.nblk++
	return g.fn.NewBlock(fmt.Sprintf("b%d", g.nblk))
}

// function emits variant v of export f as an LLVM function with the C ABI
// of abi.go.
func (g *modGen) function(f *ir.Function, name string, v variant, use builtinUse, public bool) (*llir.Func, error) {
	sig := abiOf(f, nil)
	fn := g.out.NewFunc(name, types.I32, sig.llvmParams()...)
	if !public {
		fn.Linkage = enum.LinkageInternal
	}
	fn.FuncAttrs = append(fn.FuncAttrs, enum.FuncAttrNoUnwind)
	if fs := funcFeatures(v, use); fs != "" {
		fn.FuncAttrs = append(fn.FuncAttrs, llir.AttrPair{Key: "target-features", Value: fs})
	}
	fg := &fgen{modGen: g, f: f, fn: fn, v: v, vals: map[*ir.Value]value.Value{},
		arrs: map[*ir.Array]arrInfo{}, fails: map[int]*llir.Block{}, pairs: map[[2]value.Value]value.Value{},
		pairBlock: map[[2]value.Value]*llir.Block{}, lanes: map[*ir.Value]laneRef{}, laneOps: map[value.Value]vecOp{}, laneOpVec: map[vecOp]value.Value{}, laneOpBlock: map[vecOp]*llir.Block{},
		clmulPairs: map[[2]*ir.Value]value.Value{}, clmulBlock: map[[2]*ir.Value]*llir.Block{}, defDepth: map[*ir.Value]int{}, consts: map[uint64]*ir.Value{},
		sliced: map[*ir.Value]sliceRef{}}
	fg.cur = fg.newBlock()
	if err := fg.bindParams(sig); err != nil {
		return nil, err
	}
	for _, a := range f.Locals {
		fg.local(a)
	}
	term, err := fg.block(f.Body, nil)
	if err != nil {
		return nil, err
	}
	if term.Op != ir.OpReturn {
		return nil, fmt.Errorf("BUG: amd64: %s ends with %s", f.Name, term.Op)
	}
	for i, a := range term.Args {
		x := fg.val(a)
		if a.Type == ir.Bool {
			x = fg.cur.NewZExt(x, types.I8)
		}
		fg.cur.NewStore(x, fg.outs[i])
	}
	fg.cur.NewRet(constant.NewInt(types.I32, 0))
	return fn, nil
}

// local allocates a local array in the entry block, zeroed: lowered code
// writes before it reads, but a partial block's unused keystream bytes are
// computed from whatever the buffer holds, and zero keeps that defined.
func (g *fgen) local(a *ir.Array) {
	et := storageType(a.Elem)
	at := types.NewArray(uint64(a.Len), et)
	entry := g.fn.Blocks[0]
	al := entry.NewAlloca(at)
	al.Align = 16
	p := entry.NewBitCast(al, types.I8Ptr)
	size := int64(a.Len) * int64(et.BitSize/8)
	entry.NewCall(g.intrinsic("llvm.memset.p0i8.i64", types.Void, types.I8Ptr, types.I8, types.I64, types.I1),
		p, constant.NewInt(types.I8, 0), constant.NewInt(types.I64, size), constant.False)
	zero := constant.NewInt(types.I64, 0)
	g.arrs[a] = arrInfo{ptr: entry.NewGetElementPtr(at, al, zero, zero)}
}

// arr returns how to reach array a.
func (g *fgen) arr(a *ir.Array) arrInfo {
	if info, ok := g.arrs[a]; ok {
		return info
	}
	if a.Kind != ir.ArrGlobal {
		panic("BUG: amd64: unbound array " + a.Name)
	}
	gl := g.global(a)
	zero := constant.NewInt(types.I64, 0)
	info := arrInfo{ptr: constant.NewGetElementPtr(gl.ContentType, gl, zero, zero)}
	g.arrs[a] = info
	return info
}

func (g *fgen) val(v *ir.Value) value.Value {
	x, ok := g.vals[v]
	if !ok {
		panic(fmt.Sprintf("BUG: amd64: %s: value %%%d used before its definition", g.f.Name, v.ID))
	}
	return x
}

// block emits the instructions of b into the current LLVM block (which
// moves as control flow is emitted) and returns b's terminator; params are
// the LLVM values of b's parameters.
func (g *fgen) block(b *ir.Block, params []value.Value) (*ir.Instr, error) {
	for i, p := range b.Params {
		g.vals[p] = params[i]
		g.defDepth[p] = g.depth
	}
	var plan *blockPlan
	if g.v.hw {
		plan = g.planBlock(b)
	} else {
		plan = g.planSoft(b)
	}
	for _, in := range b.Instrs {
		switch in.Op {
		case ir.OpYield, ir.OpReturn:
			return in, nil
		case ir.OpIf:
			if err := g.ifInstr(in); err != nil {
				return nil, err
			}
		case ir.OpFor:
			if err := g.forInstr(in); err != nil {
				return nil, err
			}
		default:
			if !g.vecInstr(in, plan) && !g.softInstr(in, plan) {
				if err := g.instr(in); err != nil {
					return nil, err
				}
			}
		}
		for _, r := range in.Results {
			g.defDepth[r] = g.depth
		}
	}
	return nil, fmt.Errorf("BUG: amd64: %s: block without terminator", g.f.Name)
}

// ifInstr emits `if c {..} else {..}` as a diamond with a phi per result.
func (g *fgen) ifInstr(in *ir.Instr) error {
	if c := in.Args[0].Def; c != nil && c.Op == ir.OpHave {
		return g.haveIf(in, g.have(lang.Feature(c.Aux)))
	}
	thenB, elseB, join := g.newBlock(), g.newBlock(), g.newBlock()
	g.cur.NewCondBr(g.val(in.Args[0]), thenB, elseB)
	incs := make([][]*llir.Incoming, len(in.Results))
	for k, blk := range []*llir.Block{thenB, elseB} {
		g.cur = blk
		t, err := g.block(in.Blocks[k], nil)
		if err != nil {
			return err
		}
		for i, a := range t.Args {
			incs[i] = append(incs[i], llir.NewIncoming(g.val(a), g.cur))
		}
		g.cur.NewBr(join)
	}
	g.cur = join
	for i, r := range in.Results {
		g.vals[r] = join.NewPhi(incs[i]...)
	}
	return nil
}

// forInstr emits a counted loop: a header with phis for the index and the
// loop-carried values, the body, and a latch that increments the index.
func (g *fgen) forInstr(in *ir.Instr) error {
	body := in.Blocks[0]
	k := len(in.Results)
	n := len(body.Params) - k
	if n != 1 {
		return fmt.Errorf("BUG: amd64: loop index in %d limbs", n)
	}
	lo, hi := g.val(in.Args[0]), g.val(in.Args[1])
	pre := g.cur
	header, bodyB, exit := g.newBlock(), g.newBlock(), g.newBlock()
	pre.NewBr(header)
	idx := header.NewPhi(llir.NewIncoming(lo, pre))
	phis := make([]*llir.InstPhi, k)
	params := []value.Value{idx}
	for i := 0; i < k; i++ {
		phis[i] = header.NewPhi(llir.NewIncoming(g.val(in.Args[2+i]), pre))
		params = append(params, phis[i])
	}
	header.NewCondBr(header.NewICmp(enum.IPredULT, idx, hi), bodyB, exit)
	g.cur = bodyB
	g.depth++
	t, err := g.block(body, params)
	g.depth--
	if err != nil {
		return err
	}
	next := g.cur.NewAdd(idx, constant.NewInt(valueType(body.Params[0].Type), 1))
	idx.Incs = append(idx.Incs, llir.NewIncoming(next, g.cur))
	for i, a := range t.Args {
		phis[i].Incs = append(phis[i].Incs, llir.NewIncoming(g.val(a), g.cur))
	}
	g.cur.NewBr(header)
	g.cur = exit
	for i, r := range in.Results {
		g.vals[r] = phis[i]
	}
	return nil
}

// check branches to a block that returns the check's status code when
// cond is false.
func (g *fgen) check(in *ir.Instr) {
	code := g.traps.code(in.Check)
	fail, ok := g.fails[code]
	if !ok {
		fail = g.newBlock()
		fail.NewRet(constant.NewInt(types.I32, int64(code)))
		g.fails[code] = fail
	}
	cont := g.newBlock()
	g.cur.NewCondBr(g.val(in.Args[0]), cont, fail)
	g.cur = cont
}

// intrinsic declares (once) an external function such as an LLVM intrinsic.
func (g *modGen) intrinsic(name string, ret types.Type, params ...types.Type) *llir.Func {
	if f, ok := g.decls[name]; ok {
		return f
	}
	ps := make([]*llir.Param, len(params))
	for i, t := range params {
		ps[i] = llir.NewParam("", t)
	}
	f := g.out.NewFunc(name, ret, ps...)
	g.decls[name] = f
	return f
}
