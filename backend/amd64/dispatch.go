package amd64

import (
	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/backend/llvm"
)

// --hw auto: every export is compiled once per variant, and its public
// symbol is a dispatcher that calls the best variant the CPU allows. The
// CPU's level is found once, by CPUID and XGETBV as inline assembly (no
// libgcc), and cached in a module global; racing first calls compute and
// store the same value.

var cpuidResult = types.NewStruct(types.I32, types.I32, types.I32, types.I32)

// cpuLevelFunc returns the module's internal level query: the level (0-3)
// with the flag levelSHA, detected once. Exported beside it:
// lowentc_MODULE_cpu_level(void), the level alone (which variant family
// auto picks; 0-3 as before the flags existed), lowentc_MODULE_cpu_flags(void),
// the flags alone, and lowentc_MODULE_force_level(n), which lowers the
// level to min(n, detected), keeps a flag only when n has it too, and
// returns the level and flags in effect (the tests run every variant so);
// an n that is not a level 0-3 with or without levelSHA and levelIFMA
// returns -1 and changes nothing.
func (g modGen) cpuLevelFunc() *llir.Func {
	const name = "cpu"
	if f, ok := g.Decls[name]; ok {
		return f
	}
	cache := g.Out.NewGlobalDef("lowentc."+g.M.Name+".level", constant.NewInt(types.I32, -1))
	cache.Linkage = enum.LinkageInternal

	detect := g.detectFunc()
	f := g.Out.NewFunc("lowentc."+g.M.Name+".cpu", types.I32)
	f.Linkage = enum.LinkageInternal
	f.FuncAttrs = append(f.FuncAttrs, enum.FuncAttrNoUnwind)
	g.Decls[name] = f
	entry, slow, done := f.NewBlock("entry"), f.NewBlock("detect"), f.NewBlock("done")
	ld := entry.NewLoad(types.I32, cache)
	ld.Atomic, ld.Ordering, ld.Align = true, enum.AtomicOrderingMonotonic, 4
	entry.NewCondBr(entry.NewICmp(enum.IPredSGE, ld, constant.NewInt(types.I32, 0)), done, slow)
	lvl := slow.NewCall(detect)
	st := slow.NewStore(lvl, cache)
	st.Atomic, st.Ordering, st.Align = true, enum.AtomicOrderingMonotonic, 4
	slow.NewBr(done)
	done.NewRet(done.NewPhi(llir.NewIncoming(ld, entry), llir.NewIncoming(lvl, slow)))

	for _, q := range []struct {
		name string
		mask int64
	}{{"cpu_level", levelMask}, {"cpu_flags", ^int64(levelMask)}} {
		qf := g.Out.NewFunc(llvm.SymbolName(g.M.Name, q.name), types.I32)
		qf.FuncAttrs = append(qf.FuncAttrs, enum.FuncAttrNoUnwind)
		qb := qf.NewBlock("entry")
		qb.NewRet(qb.NewAnd(qb.NewCall(f), constant.NewInt(types.I32, q.mask)))
	}

	n := llir.NewParam("n", types.I32)
	force := g.Out.NewFunc(llvm.SymbolName(g.M.Name, "force_level"), types.I32, n)
	force.FuncAttrs = append(force.FuncAttrs, enum.FuncAttrNoUnwind)
	check, b, reject := force.NewBlock("entry"), force.NewBlock("force"), force.NewBlock("reject")
	// n is a level 0-3, optionally with levelSHA and levelIFMA; anything
	// else (a negative n, a level above 3, another bit) returns -1 and
	// leaves the level in effect alone.
	valid := check.NewICmp(enum.IPredULE, check.NewAnd(n, constant.NewInt(types.I32, ^int64(levelFlags))),
		constant.NewInt(types.I32, levelAVX512))
	check.NewCondBr(valid, b, reject)
	reject.NewRet(constant.NewInt(types.I32, -1))
	real := b.NewCall(detect)
	// The level part is the smaller of the two; a flag stays only when
	// both have it.
	mask := constant.NewInt(types.I32, levelMask)
	nl, rl := b.NewAnd(n, mask), b.NewAnd(real, mask)
	lower := b.NewICmp(enum.IPredSLT, nl, rl)
	flags := b.NewAnd(b.NewAnd(n, real), constant.NewInt(types.I32, levelFlags))
	l := b.NewOr(b.NewSelect(lower, nl, rl), flags)
	fst := b.NewStore(l, cache)
	fst.Atomic, fst.Ordering, fst.Align = true, enum.AtomicOrderingMonotonic, 4
	b.NewRet(l)
	return f
}

// detectFunc emits the CPUID probe: levelAVX512, levelAVX2, levelAES or
// levelBase, with the flag levelSHA when the CPU also has the SHA
// extensions, and levelIFMA when it has AVX-512 IFMA beside levelAVX512.
func (g modGen) detectFunc() *llir.Func {
	f := g.Out.NewFunc("lowentc."+g.M.Name+".detect", types.I32)
	f.Linkage = enum.LinkageInternal
	f.FuncAttrs = append(f.FuncAttrs, enum.FuncAttrNoUnwind, enum.FuncAttrNoInline)
	entry, xsave, leaf7, done := f.NewBlock("entry"), f.NewBlock("xsave"), f.NewBlock("leaf7"), f.NewBlock("done")
	cpuid := llir.NewInlineAsm(types.NewPointer(types.NewFunc(cpuidResult, types.I32, types.I32)), "cpuid",
		"={ax},={bx},={cx},={dx},{ax},{cx},~{dirflag},~{fpsr},~{flags}")
	i32 := func(x int64) value.Value { return constant.NewInt(types.I32, x) }
	bit := func(b *llir.Block, x value.Value, n uint) value.Value {
		return b.NewICmp(enum.IPredNE, b.NewAnd(x, i32(1<<n)), i32(0))
	}
	all := func(b *llir.Block, xs ...value.Value) value.Value {
		r := xs[0]
		for _, x := range xs[1:] {
			r = b.NewAnd(r, x)
		}
		return r
	}
	r0 := entry.NewCall(cpuid, i32(0), i32(0))
	maxLeaf := entry.NewExtractValue(r0, 0)
	r1 := entry.NewCall(cpuid, i32(1), i32(0))
	ecx1 := entry.NewExtractValue(r1, 2)
	// Leaf 1 ECX: 1 PCLMULQDQ, 9 SSSE3, 19 SSE4.1, 20 SSE4.2, 25 AES, 27 OSXSAVE, 28 AVX.
	aes := all(entry, bit(entry, ecx1, 1), bit(entry, ecx1, 9), bit(entry, ecx1, 19), bit(entry, ecx1, 20), bit(entry, ecx1, 25))
	aesLevel := entry.NewSelect(aes, i32(levelAES), i32(levelBase))
	// Leaf 7 EBX bit 29: SHA. Leaf 7 is asked only when it exists; a CPU
	// that answers an unknown leaf with another leaf's data is masked out.
	has7 := entry.NewICmp(enum.IPredUGE, maxLeaf, i32(7))
	sha7 := entry.NewExtractValue(entry.NewCall(cpuid, i32(7), i32(0)), 1)
	shaFlag := entry.NewSelect(all(entry, aes, has7, bit(entry, sha7, 29)), i32(levelSHA), i32(0))
	canAVX := all(entry, aes, bit(entry, ecx1, 27), bit(entry, ecx1, 28),
		entry.NewICmp(enum.IPredUGE, maxLeaf, i32(7)))
	entry.NewCondBr(canAVX, xsave, done)
	// XGETBV is only defined when OSXSAVE is set: XCR0 bits 1 and 2 say the
	// OS saves the XMM and YMM registers.
	xgetbv := llir.NewInlineAsm(types.NewPointer(types.NewFunc(types.NewStruct(types.I32, types.I32), types.I32)), "xgetbv",
		"={ax},={dx},{cx},~{dirflag},~{fpsr},~{flags}")
	xr := xsave.NewCall(xgetbv, i32(0))
	xcr0 := xsave.NewExtractValue(xr, 0)
	ymm := xsave.NewICmp(enum.IPredEQ, xsave.NewAnd(xcr0, i32(6)), i32(6))
	xsave.NewCondBr(ymm, leaf7, done)
	r7 := leaf7.NewCall(cpuid, i32(7), i32(0))
	ebx7, ecx7 := leaf7.NewExtractValue(r7, 1), leaf7.NewExtractValue(r7, 2)
	// Leaf 7 EBX: 3 BMI1, 5 AVX2, 8 BMI2; ECX: 9 VAES, 10 VPCLMULQDQ.
	avx2 := all(leaf7, bit(leaf7, ebx7, 3), bit(leaf7, ebx7, 5), bit(leaf7, ebx7, 8), bit(leaf7, ecx7, 9), bit(leaf7, ecx7, 10))
	// AVX-512: leaf 7 EBX 16 F, 17 DQ, 30 BW, 31 VL; XCR0 bits 5..7 say the
	// OS saves the opmask and ZMM registers.
	zmmState := leaf7.NewICmp(enum.IPredEQ, leaf7.NewAnd(xcr0, i32(0xe6)), i32(0xe6))
	avx512 := all(leaf7, avx2, zmmState, bit(leaf7, ebx7, 16), bit(leaf7, ebx7, 17), bit(leaf7, ebx7, 30), bit(leaf7, ebx7, 31))
	// Leaf 7 EBX 21: AVX512_IFMA, counted only with AVX-512 itself.
	ifma := leaf7.NewSelect(bit(leaf7, ebx7, 21), i32(levelAVX512|levelIFMA), i32(levelAVX512))
	l7 := leaf7.NewSelect(avx512, ifma, leaf7.NewSelect(avx2, i32(levelAVX2), i32(levelAES)))
	leaf7.NewBr(done)
	lvl := done.NewPhi(llir.NewIncoming(aesLevel, entry), llir.NewIncoming(aesLevel, xsave), llir.NewIncoming(l7, leaf7))
	done.NewRet(done.NewOr(lvl, shaFlag))
	return f
}

// dispatcher emits the function name (an export's kernel), which calls
// the first of impls (best first) whose variant the CPU's level allows.
func (g modGen) dispatcher(name string, impls []*llir.Func, vs []variant) *llir.Func {
	level := g.cpuLevelFunc()
	f, b, args := g.Dispatcher(name, impls)
	lvl := b.NewCall(level)
	base := b.NewAnd(lvl, constant.NewInt(types.I32, levelMask))
	hasSHA := b.NewICmp(enum.IPredNE, b.NewAnd(lvl, constant.NewInt(types.I32, levelSHA)), constant.NewInt(types.I32, 0))
	var hasIFMA value.Value // asked only by an export with an IFMA variant
	// The last variant is the computed one: always allowed.
	var callee value.Value = impls[len(impls)-1]
	for i := len(impls) - 2; i >= 0; i-- {
		ok := value.Value(b.NewICmp(enum.IPredSGE, base, constant.NewInt(types.I32, int64(vs[i].level))))
		if vs[i].sha {
			ok = b.NewAnd(ok, hasSHA)
		}
		if vs[i].ifma {
			if hasIFMA == nil {
				hasIFMA = b.NewICmp(enum.IPredNE, b.NewAnd(lvl, constant.NewInt(types.I32, levelIFMA)), constant.NewInt(types.I32, 0))
			}
			ok = b.NewAnd(ok, hasIFMA)
		}
		callee = b.NewSelect(ok, impls[i], callee)
	}
	llvm.Dispatch(b, callee, args)
	return f
}
