package arm64

import (
	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/backend/llvm"
)

// --hw auto: an export that uses a builtin (or asks `have`) is compiled
// twice, and its kernel is a dispatcher that calls the crypto version when
// the CPU has the extensions it needs. The CPU's extensions are asked once
// from the C library, getauxval(AT_HWCAP) (Linux: the kernel's answer,
// since user code cannot read the ID registers), masked to those the
// builtins use and cached in a module global; racing first calls compute
// and store the same value.

const atHWCAP = 16 // AT_HWCAP

// capsFunc returns the module's internal query of the AT_HWCAP bits in
// use (hwcapAll at most), found once. Exported beside it:
// lowentc_MODULE_cpu_level(void), 1 when any bit is in use, else 0;
// lowentc_MODULE_cpu_flags(void), the bits; lowentc_MODULE_force_level(n),
// which keeps no bit for n = 0 and the CPU's for n = 1 and returns the
// level in effect; any other n returns -1 and changes nothing.
func (g modGen) capsFunc() *llir.Func {
	const name = "caps"
	if f, ok := g.Decls[name]; ok {
		return f
	}
	i32 := func(x int64) constant.Constant { return constant.NewInt(types.I32, x) }
	cache := g.Out.NewGlobalDef("lowentc."+g.M.Name+".hwcap", i32(-1))
	cache.Linkage = enum.LinkageInternal

	getauxval := g.Decls["getauxval"]
	if getauxval == nil {
		getauxval = g.Out.NewFunc("getauxval", types.I64, llir.NewParam("type", types.I64))
		getauxval.FuncAttrs = append(getauxval.FuncAttrs, enum.FuncAttrNoUnwind)
		g.Decls["getauxval"] = getauxval
	}
	detect := g.Out.NewFunc("lowentc."+g.M.Name+".detect", types.I32)
	detect.Linkage = enum.LinkageInternal
	detect.FuncAttrs = append(detect.FuncAttrs, enum.FuncAttrNoUnwind, enum.FuncAttrNoInline)
	db := detect.NewBlock("entry")
	hw := db.NewCall(getauxval, llvm.Cint(types.I64, atHWCAP))
	db.NewRet(db.NewTrunc(db.NewAnd(hw, llvm.Cint(types.I64, hwcapAll)), types.I32))

	f := g.Out.NewFunc("lowentc."+g.M.Name+".caps", types.I32)
	f.Linkage = enum.LinkageInternal
	f.FuncAttrs = append(f.FuncAttrs, enum.FuncAttrNoUnwind)
	g.Decls[name] = f
	entry, slow, done := f.NewBlock("entry"), f.NewBlock("detect"), f.NewBlock("done")
	ld := entry.NewLoad(types.I32, cache)
	ld.Atomic, ld.Ordering, ld.Align = true, enum.AtomicOrderingMonotonic, 4
	entry.NewCondBr(entry.NewICmp(enum.IPredSGE, ld, i32(0)), done, slow)
	caps := slow.NewCall(detect)
	st := slow.NewStore(caps, cache)
	st.Atomic, st.Ordering, st.Align = true, enum.AtomicOrderingMonotonic, 4
	slow.NewBr(done)
	done.NewRet(done.NewPhi(llir.NewIncoming(ld, entry), llir.NewIncoming(caps, slow)))

	levelOf := func(b *llir.Block, caps value.Value) value.Value {
		return b.NewZExt(b.NewICmp(enum.IPredNE, caps, i32(0)), types.I32)
	}
	lf := g.Out.NewFunc(llvm.SymbolName(g.M.Name, "cpu_level"), types.I32)
	lf.FuncAttrs = append(lf.FuncAttrs, enum.FuncAttrNoUnwind)
	lb := lf.NewBlock("entry")
	lb.NewRet(levelOf(lb, lb.NewCall(f)))
	ff := g.Out.NewFunc(llvm.SymbolName(g.M.Name, "cpu_flags"), types.I32)
	ff.FuncAttrs = append(ff.FuncAttrs, enum.FuncAttrNoUnwind)
	fb := ff.NewBlock("entry")
	fb.NewRet(fb.NewCall(f))

	n := llir.NewParam("n", types.I32)
	force := g.Out.NewFunc(llvm.SymbolName(g.M.Name, "force_level"), types.I32, n)
	force.FuncAttrs = append(force.FuncAttrs, enum.FuncAttrNoUnwind)
	check, b, reject := force.NewBlock("entry"), force.NewBlock("force"), force.NewBlock("reject")
	check.NewCondBr(check.NewICmp(enum.IPredULE, n, i32(levelCrypto)), b, reject)
	reject.NewRet(i32(-1))
	keep := b.NewSelect(b.NewICmp(enum.IPredEQ, n, i32(levelBase)), i32(0), b.NewCall(detect))
	fst := b.NewStore(keep, cache)
	fst.Atomic, fst.Ordering, fst.Align = true, enum.AtomicOrderingMonotonic, 4
	b.NewRet(levelOf(b, keep))
	return f
}

// dispatcher emits the function name (an export's kernel), which calls
// impls[0], the crypto version, when the CPU has every AT_HWCAP bit of
// need, and impls[1], the computed one, otherwise.
func (g modGen) dispatcher(name string, impls []*llir.Func, need uint64) *llir.Func {
	caps := g.capsFunc()
	f, b, args := g.Dispatcher(name, impls)
	c := b.NewCall(caps)
	want := constant.NewInt(types.I32, int64(need))
	ok := b.NewICmp(enum.IPredEQ, b.NewAnd(c, want), want)
	llvm.Dispatch(b, b.NewSelect(ok, impls[0], impls[1]), args)
	return f
}
