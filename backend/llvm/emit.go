package llvm

import (
	"fmt"

	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

// The emitter turns a legalized module (W = 64) into an LLVM module. Each
// export becomes one LLVM function per variant (Config.Variants) whose
// body is the export's structured IR turned into basic blocks and phis;
// everything else (register allocation, scheduling, vectorization) is
// LLVM's job.

// Module holds what the functions of one LLVM module share.
type Module struct {
	M       *ir.Module
	Out     *llir.Module
	Decls   map[string]*llir.Func // intrinsics and helpers, by name
	IntPtr  *types.IntType        // the target's pointer-sized integer (IntPtr)
	target  Target
	cfg     Config
	globals map[*ir.Array]*llir.Global
	traps   *trapTable
}

// buildModule emits every export of m.
func buildModule(t Target, m *ir.Module, cfg Config, traps *trapTable) (*llir.Module, error) {
	if m.W != 64 {
		return nil, fmt.Errorf("BUG: %s needs IR legalized at W=64, got W=%d", t.Name(), m.W)
	}
	g := &Module{M: m, target: t, cfg: cfg, Out: llir.NewModule(), globals: map[*ir.Array]*llir.Global{},
		traps: traps, Decls: map[string]*llir.Func{}, IntPtr: IntPtr(t)}
	g.Out.SourceFilename = m.Name + ".lw"
	g.Out.TargetTriple = t.Triple()
	g.Out.DataLayout = t.DataLayout()
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
	if fin, ok := cfg.(Finisher); ok {
		fin.Finish(g)
	}
	return g.Out, nil
}

// global emits a read-only constant table.
func (g *Module) global(a *ir.Array) *llir.Global {
	if gl, ok := g.globals[a]; ok {
		return gl
	}
	et := StorageType(a.Elem)
	elems := make([]constant.Constant, len(a.Data))
	for i, x := range a.Data {
		elems[i] = constant.NewInt(et, int64(x))
	}
	gl := g.Out.NewGlobalDef("lowentc."+g.M.Name+"."+a.Name, constant.NewArray(types.NewArray(uint64(len(elems)), et), elems...))
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
func (g *Module) export(f *ir.Function) error {
	name := SymbolName(g.M.Name, f.Name)
	vs := g.cfg.Variants(f)
	var kernel *llir.Func
	if len(vs) == 1 {
		fn, err := g.function(f, kernelName(name), vs[0], true)
		if err != nil {
			return err
		}
		kernel = fn
	} else {
		var impls []*llir.Func
		for _, v := range vs {
			fn, err := g.function(f, name+"."+v.Suffix(), v, false)
			if err != nil {
				return err
			}
			impls = append(impls, fn)
		}
		kernel = g.cfg.Dispatcher(g, kernelName(name), impls, vs)
	}
	kernel.Visibility = enum.VisibilityHidden
	g.entry(f, name, kernel)
	return nil
}

// kernelName is the symbol of the kernel of the export whose C name is name.
func kernelName(name string) string { return name + ".kernel" }

// SymbolName is the C name of export fn of module mod.
func SymbolName(mod, fn string) string { return "lowentc_" + mod + "_" + fn }

// StorageType is the LLVM type of an array element of type t (bools are bytes).
func StorageType(t ir.Type) *types.IntType {
	if t == ir.Bool {
		return types.I8
	}
	return ValueType(t)
}

// ValueType is the LLVM type of an SSA value of type t.
func ValueType(t ir.Type) *types.IntType {
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
	panic(fmt.Sprintf("BUG: llvm: no LLVM type for %s", t))
}

// arrInfo is how a function reaches one of its arrays.
type arrInfo struct {
	ptr value.Value // pointer to the first element (storage type)
	len value.Value // i32 element count of a slice parameter
}

// Func emits one variant of one function. Its exported fields and
// methods are what a target's Selector works with.
type Func struct {
	*Module
	F        *ir.Function
	Fn       *llir.Func
	Cur      *llir.Block               // the block being emitted
	Vals     map[*ir.Value]value.Value // the LLVM value of each IR value emitted
	Depth    int                       // for loops around the block being emitted
	DefDepth map[*ir.Value]int         // the loop depth each value is defined at
	sel      Selector
	arrs     map[*ir.Array]arrInfo
	outs     []value.Value // pointers the scalar results are stored to
	fails    map[int]*llir.Block
	nblk     int
}

// NewBlock appends a new basic block to the function.
func (g *Func) NewBlock() *llir.Block {
	g.nblk++
	return g.Fn.NewBlock(fmt.Sprintf("b%d", g.nblk))
}

// function emits variant v of export f as an LLVM function with the C ABI
// of abi.go.
func (g *Module) function(f *ir.Function, name string, v Variant, public bool) (*llir.Func, error) {
	sig := abiOf(f, nil, g.IntPtr)
	fn := g.Out.NewFunc(name, types.I32, sig.llvmParams()...)
	if !public {
		fn.Linkage = enum.LinkageInternal
	}
	fn.FuncAttrs = append(fn.FuncAttrs, enum.FuncAttrNoUnwind)
	if fs := v.Features(); fs != "" {
		fn.FuncAttrs = append(fn.FuncAttrs, llir.AttrPair{Key: "target-features", Value: fs})
	}
	fg := &Func{Module: g, F: f, Fn: fn, Vals: map[*ir.Value]value.Value{},
		arrs: map[*ir.Array]arrInfo{}, fails: map[int]*llir.Block{}, DefDepth: map[*ir.Value]int{}}
	fg.sel = v.Selector(fg)
	fg.Cur = fg.NewBlock()
	if err := fg.bindParams(sig); err != nil {
		return nil, err
	}
	for _, a := range f.Locals {
		fg.local(a)
	}
	term, err := fg.Block(f.Body, nil)
	if err != nil {
		return nil, err
	}
	if term.Op != ir.OpReturn {
		return nil, fmt.Errorf("BUG: %s: %s ends with %s", g.target.Name(), f.Name, term.Op)
	}
	for i, a := range term.Args {
		x := fg.Val(a)
		if a.Type == ir.Bool {
			x = fg.Cur.NewZExt(x, types.I8)
		}
		fg.Cur.NewStore(x, fg.outs[i])
	}
	fg.Cur.NewRet(constant.NewInt(types.I32, 0))
	return fn, nil
}

// Unzeroed is implemented by a Selector that knows of local arrays whose
// initial contents no load reads (backend/amd64's word buffers): local
// leaves those unzeroed.
type Unzeroed interface {
	Unzeroed(a *ir.Array) bool
}

// local allocates a local array in the entry block, zeroed: lowered code
// writes before it reads, but a partial block's unused keystream bytes are
// computed from whatever the buffer holds, and zero keeps that defined.
func (g *Func) local(a *ir.Array) {
	et := StorageType(a.Elem)
	at := types.NewArray(uint64(a.Len), et)
	entry := g.Fn.Blocks[0]
	al := entry.NewAlloca(at)
	al.Align = 16
	zero := constant.NewInt(g.IntPtr, 0)
	if u, ok := g.sel.(Unzeroed); ok && u.Unzeroed(a) {
		g.arrs[a] = arrInfo{ptr: entry.NewGetElementPtr(at, al, zero, zero)}
		return
	}
	p := entry.NewBitCast(al, types.I8Ptr)
	size := int64(a.Len) * int64(et.BitSize/8)
	entry.NewCall(g.Intrinsic(fmt.Sprintf("llvm.memset.p0i8.i%d", g.IntPtr.BitSize), types.Void, types.I8Ptr, types.I8, g.IntPtr, types.I1),
		p, constant.NewInt(types.I8, 0), constant.NewInt(g.IntPtr, size), constant.False)
	g.arrs[a] = arrInfo{ptr: entry.NewGetElementPtr(at, al, zero, zero)}
}

// arr returns how to reach array a.
func (g *Func) arr(a *ir.Array) arrInfo {
	if info, ok := g.arrs[a]; ok {
		return info
	}
	if a.Kind != ir.ArrGlobal {
		panic("BUG: " + g.target.Name() + ": unbound array " + a.Name)
	}
	gl := g.global(a)
	zero := constant.NewInt(g.IntPtr, 0)
	info := arrInfo{ptr: constant.NewGetElementPtr(gl.ContentType, gl, zero, zero)}
	g.arrs[a] = info
	return info
}

// Val is the LLVM value of v, which must have been emitted.
func (g *Func) Val(v *ir.Value) value.Value {
	x, ok := g.Vals[v]
	if !ok {
		panic(fmt.Sprintf("BUG: %s: %s: value %%%d used before its definition", g.target.Name(), g.F.Name, v.ID))
	}
	return x
}

// Block emits the instructions of b into the current LLVM block (which
// moves as control flow is emitted) and returns b's terminator; params are
// the LLVM values of b's parameters.
func (g *Func) Block(b *ir.Block, params []value.Value) (*ir.Instr, error) {
	for i, p := range b.Params {
		g.Vals[p] = params[i]
		g.DefDepth[p] = g.Depth
	}
	plan := g.sel.Plan(b)
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
			if !g.sel.Select(in, plan) {
				if err := g.Instr(in); err != nil {
					return nil, err
				}
			}
		}
		for _, r := range in.Results {
			g.DefDepth[r] = g.Depth
		}
	}
	return nil, fmt.Errorf("BUG: %s: %s: block without terminator", g.target.Name(), g.F.Name)
}

// ifInstr emits `if c {..} else {..}` as a diamond with a phi per result.
func (g *Func) ifInstr(in *ir.Instr) error {
	if c := in.Args[0].Def; c != nil && c.Op == ir.OpHave {
		return g.haveIf(in, g.sel.Have(sem.Feature(c.Aux)))
	}
	thenB, elseB, join := g.NewBlock(), g.NewBlock(), g.NewBlock()
	g.Cur.NewCondBr(g.Val(in.Args[0]), thenB, elseB)
	incs := make([][]*llir.Incoming, len(in.Results))
	for k, blk := range []*llir.Block{thenB, elseB} {
		g.Cur = blk
		t, err := g.Block(in.Blocks[k], nil)
		if err != nil {
			return err
		}
		for i, a := range t.Args {
			incs[i] = append(incs[i], llir.NewIncoming(g.Val(a), g.Cur))
		}
		g.Cur.NewBr(join)
	}
	g.Cur = join
	for i, r := range in.Results {
		g.Vals[r] = join.NewPhi(incs[i]...)
	}
	return nil
}

// haveIf emits only the branch of `if have F` that this variant takes.
func (g *Func) haveIf(in *ir.Instr, taken bool) error {
	k := 1
	if taken {
		k = 0
	}
	t, err := g.Block(in.Blocks[k], nil)
	if err != nil {
		return err
	}
	for i, r := range in.Results {
		g.Vals[r] = g.Val(t.Args[i])
	}
	return nil
}

// forInstr emits a counted loop: a header with phis for the index and the
// loop-carried values, the body, and a latch that increments the index.
func (g *Func) forInstr(in *ir.Instr) error {
	// A lane loop may be one step on eight lanes (lanes52.go).
	if g.laneLoopInstr(in) {
		return nil
	}
	body := in.Blocks[0]
	k := len(in.Results)
	n := len(body.Params) - k
	if n != 1 {
		return fmt.Errorf("BUG: %s: loop index in %d limbs", g.target.Name(), n)
	}
	lo, hi := g.Val(in.Args[0]), g.Val(in.Args[1])
	inits := make([]value.Value, k)
	for i := range inits {
		inits[i] = g.Val(in.Args[2+i])
	}
	// A chunk loop may run L iterations at a time first, then fewer
	// (chunkvec.go); this loop then does the rest.
	var pairs [][2]int
	pc, isPC := g.sel.(PairCarrier)
	if vlo, vinits := g.vecChunkLoops(in, lo, inits); vlo != lo {
		lo, inits = vlo, vinits
	} else if isPC {
		pairs = pc.CarriedPairs(in)
	}
	// pairOf[i] is the pair loop-carried value i belongs to, or -1.
	pairOf := make([]int, k)
	for i := range pairOf {
		pairOf[i] = -1
	}
	vinit := make([]value.Value, len(pairs))
	for n, pr := range pairs {
		pairOf[pr[0]], pairOf[pr[1]] = n, n
		vinit[n] = pc.PairVec(in.Args[2+pr[0]], in.Args[2+pr[1]])
	}
	pre := g.Cur
	header, bodyB, exit := g.NewBlock(), g.NewBlock(), g.NewBlock()
	pre.NewBr(header)
	idx := header.NewPhi(llir.NewIncoming(lo, pre))
	phis := make([]*llir.InstPhi, k)
	params := make([]value.Value, 1+k)
	params[0] = idx
	for i := 0; i < k; i++ {
		if pairOf[i] < 0 {
			phis[i] = header.NewPhi(llir.NewIncoming(inits[i], pre))
			params[1+i] = phis[i]
		}
	}
	vphis := make([]*llir.InstPhi, len(pairs))
	for n := range pairs {
		vphis[n] = header.NewPhi(llir.NewIncoming(vinit[n], pre))
	}
	g.Cur = header
	for n, pr := range pairs {
		p0, p1 := body.Params[1+pr[0]], body.Params[1+pr[1]]
		pc.BindPair(vphis[n], p0, p1)
		params[1+pr[0]], params[1+pr[1]] = g.Vals[p0], g.Vals[p1]
	}
	header.NewCondBr(header.NewICmp(enum.IPredULT, idx, hi), bodyB, exit)
	g.Cur = bodyB
	g.Depth++
	t, err := g.Block(body, params)
	g.Depth--
	if err != nil {
		return err
	}
	next := g.Cur.NewAdd(idx, constant.NewInt(ValueType(body.Params[0].Type), 1))
	idx.Incs = append(idx.Incs, llir.NewIncoming(next, g.Cur))
	for i, a := range t.Args {
		if pairOf[i] < 0 {
			phis[i].Incs = append(phis[i].Incs, llir.NewIncoming(g.Val(a), g.Cur))
		}
	}
	for n, pr := range pairs {
		v := pc.PairVec(t.Args[pr[0]], t.Args[pr[1]])
		vphis[n].Incs = append(vphis[n].Incs, llir.NewIncoming(v, g.Cur))
	}
	g.Cur.NewBr(header)
	g.Cur = exit
	for i, r := range in.Results {
		if pairOf[i] < 0 {
			g.Vals[r] = phis[i]
		}
	}
	for n, pr := range pairs {
		pc.BindPair(vphis[n], in.Results[pr[0]], in.Results[pr[1]])
	}
	return nil
}

// PairCarrier is implemented by a Selector that carries some pairs of a
// loop's u64 values in one <2 x i64> vector rather than two scalars: a
// value that the body only uses in vector registers (GHASH's running
// value, the operand of carry-less products) then stays in one across
// iterations instead of crossing to general registers and back each time.
type PairCarrier interface {
	// CarriedPairs returns the pairs (i, j) of loop-carried values of the
	// for instruction in to carry as lanes 0 and 1 of one vector; each
	// value in at most one pair.
	CarriedPairs(in *ir.Instr) [][2]int
	// PairVec emits the <2 x i64> vector (x, y) of two emitted values.
	PairVec(x, y *ir.Value) value.Value
	// BindPair defines x and y as lanes 0 and 1 of the vector v (in the
	// block being emitted).
	BindPair(v value.Value, x, y *ir.Value)
}

// check branches to a block that returns the check's status code when
// cond is false.
func (g *Func) check(in *ir.Instr) {
	code := g.traps.code(in.Check)
	fail, ok := g.fails[code]
	if !ok {
		fail = g.NewBlock()
		fail.NewRet(constant.NewInt(types.I32, int64(code)))
		g.fails[code] = fail
	}
	cont := g.NewBlock()
	g.Cur.NewCondBr(g.Val(in.Args[0]), cont, fail)
	g.Cur = cont
}

// Intrinsic declares (once) an external function such as an LLVM intrinsic.
func (g *Module) Intrinsic(name string, ret types.Type, params ...types.Type) *llir.Func {
	if f, ok := g.Decls[name]; ok {
		return f
	}
	ps := make([]*llir.Param, len(params))
	for i, t := range params {
		ps[i] = llir.NewParam("", t)
	}
	f := g.Out.NewFunc(name, ret, ps...)
	g.Decls[name] = f
	return f
}
