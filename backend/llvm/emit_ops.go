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

// Instruction selection for the straight-line ops. The meaning of each op
// is ir/eval.go's; LLVM's own ops differ where an operand is out of range
// (a shift by >= the width, a division by zero), so those get guards.

// Cint is the constant x of type t.
func Cint(t *types.IntType, x uint64) *constant.Int { return constant.NewInt(t, int64(x)) }

// Instr emits one non-structured instruction.
func (g *Func) Instr(in *ir.Instr) error {
	b := func() *llir.Block { return g.Cur }
	arg := func(i int) value.Value { return g.Val(in.Args[i]) }
	set := func(x value.Value) { g.Vals[in.Results[0]] = x }
	switch in.Op {
	case ir.OpConst:
		set(Cint(ValueType(in.Results[0].Type), in.Aux))
	case ir.OpCopy:
		set(arg(0))
	case ir.OpAdd:
		if m, ok := g.selectMaskedMul(in); ok {
			set(m)
			break
		}
		set(b().NewAdd(arg(0), arg(1)))
	case ir.OpSub:
		set(b().NewSub(arg(0), arg(1)))
	case ir.OpMul:
		set(b().NewMul(arg(0), arg(1)))
	case ir.OpAnd:
		set(b().NewAnd(arg(0), arg(1)))
	case ir.OpOr:
		set(b().NewOr(arg(0), arg(1)))
	case ir.OpXor:
		set(b().NewXor(arg(0), arg(1)))
	case ir.OpNot:
		t := ValueType(in.Results[0].Type)
		set(b().NewXor(arg(0), Cint(t, in.Results[0].Type.Mask())))
	case ir.OpNeg:
		set(b().NewSub(Cint(ValueType(in.Results[0].Type), 0), arg(0)))
	case ir.OpDivU, ir.OpRemU:
		set(g.divRem(in))
	case ir.OpShl, ir.OpShr:
		if c, ok := g.selectCarry(in); ok {
			set(c)
			break
		}
		set(g.shift(in))
	case ir.OpRotl, ir.OpRotr:
		set(g.rotate(in))
	case ir.OpFshl, ir.OpFshr:
		t := ValueType(in.Results[0].Type)
		name := "llvm.fshl"
		if in.Op == ir.OpFshr {
			name = "llvm.fshr"
		}
		fn := g.Intrinsic(fmt.Sprintf("%s.i%d", name, t.BitSize), t, t, t, t)
		set(b().NewCall(fn, arg(0), arg(1), Cint(t, in.Aux)))
	case ir.OpEq, ir.OpNe, ir.OpUlt, ir.OpUle:
		pred := map[ir.Op]enum.IPred{ir.OpEq: enum.IPredEQ, ir.OpNe: enum.IPredNE,
			ir.OpUlt: enum.IPredULT, ir.OpUle: enum.IPredULE}[in.Op]
		set(b().NewICmp(pred, arg(0), arg(1)))
	case ir.OpZext:
		set(g.convert(arg(0), in.Args[0].Type, in.Results[0].Type))
	case ir.OpTrunc:
		set(g.convert(arg(0), in.Args[0].Type, in.Results[0].Type))
	case ir.OpSelect:
		set(b().NewSelect(arg(0), arg(1), arg(2)))
	case ir.OpAddC, ir.OpSubB, ir.OpMulW:
		g.wide(in)
	case ir.OpClmulLo, ir.OpClmulHi, ir.OpAESEnc, ir.OpAESEncLast,
		ir.OpSHA256Rnds2, ir.OpSHA256Msg1, ir.OpSHA256Msg2:
		return g.sel.Builtin(in)
	case ir.OpHave:
		set(boolConst(g.sel.Have(sem.Feature(in.Aux))))
	case ir.OpLoad:
		et := StorageType(in.Arr.Elem)
		x := value.Value(b().NewLoad(et, g.Elem(in.Arr, arg(0))))
		if in.Arr.Elem == ir.Bool {
			x = b().NewICmp(enum.IPredNE, x, Cint(types.I8, 0))
		}
		set(x)
	case ir.OpStore:
		x := arg(1)
		if in.Arr.Elem == ir.Bool {
			x = b().NewZExt(x, types.I8)
		}
		b().NewStore(x, g.Elem(in.Arr, arg(0)))
	case ir.OpLen:
		info := g.arr(in.Arr)
		if info.len == nil {
			set(Cint(types.I32, uint64(in.Arr.Len/in.Arr.Per)))
		} else {
			set(info.len)
		}
	case ir.OpLoadLE, ir.OpLoadBE:
		set(g.loadBytes(in.Arr, arg(0), int(in.Aux), in.Op == ir.OpLoadBE))
	case ir.OpStoreLE, ir.OpStoreBE:
		g.storeBytes(in.Arr, arg(0), arg(1), int(in.Aux), in.Op == ir.OpStoreBE)
	case ir.OpCheck:
		g.check(in)
	case ir.OpTrace:
		// Host output: native code has no host to talk to.
	default:
		return fmt.Errorf("BUG: %s: %s: cannot select %s", g.target.Name(), g.F.Name, in.Op)
	}
	return nil
}

func boolConst(b bool) value.Value {
	if b {
		return constant.True
	}
	return constant.False
}

// convert zero-extends or truncates x from type from to type to.
func (g *Func) convert(x value.Value, from, to ir.Type) value.Value {
	fb, tb := from.Bits(), to.Bits()
	switch {
	case fb == tb:
		return x
	case fb < tb:
		return g.Cur.NewZExt(x, ValueType(to))
	default:
		return g.Cur.NewTrunc(x, ValueType(to))
	}
}

// shift emits shl/shr, where an amount >= the width gives 0.
func (g *Func) shift(in *ir.Instr) value.Value {
	t := in.Results[0].Type
	lt := ValueType(t)
	x, amt := g.Val(in.Args[0]), g.Val(in.Args[1])
	at := in.Args[1].Type
	n := uint64(t.Bits())
	if c, ok := amt.(*constant.Int); ok {
		k := uint64(c.X.Int64())
		if k >= n {
			return Cint(lt, 0)
		}
		if in.Op == ir.OpShl {
			return g.Cur.NewShl(x, Cint(lt, k))
		}
		return g.Cur.NewLShr(x, Cint(lt, k))
	}
	big := g.Cur.NewICmp(enum.IPredUGE, amt, Cint(ValueType(at), n))
	k := g.Cur.NewAnd(g.convert(amt, at, t), Cint(lt, n-1))
	var s value.Value
	if in.Op == ir.OpShl {
		s = g.Cur.NewShl(x, k)
	} else {
		s = g.Cur.NewLShr(x, k)
	}
	return g.Cur.NewSelect(big, Cint(lt, 0), s)
}

// rotate emits rotl/rotr as a funnel shift of x with itself (which takes
// the amount modulo the width, as Lowent's rotates do).
func (g *Func) rotate(in *ir.Instr) value.Value {
	t := in.Results[0].Type
	lt := ValueType(t)
	x, amt := g.Val(in.Args[0]), g.Val(in.Args[1])
	at := in.Args[1].Type
	n := uint64(t.Bits())
	if at.Bits() > t.Bits() {
		amt = g.Cur.NewAnd(amt, Cint(ValueType(at), n-1))
	}
	amt = g.convert(amt, at, t)
	name := "llvm.fshl"
	if in.Op == ir.OpRotr {
		name = "llvm.fshr"
	}
	fn := g.Intrinsic(fmt.Sprintf("%s.i%d", name, n), lt, lt, lt, lt)
	return g.Cur.NewCall(fn, x, x, amt)
}

// divRem emits divu/remu with Lowent's meaning for a zero divisor.
func (g *Func) divRem(in *ir.Instr) value.Value {
	lt := ValueType(in.Results[0].Type)
	x, y := g.Val(in.Args[0]), g.Val(in.Args[1])
	zero := g.Cur.NewICmp(enum.IPredEQ, y, Cint(lt, 0))
	d := g.Cur.NewSelect(zero, Cint(lt, 1), y)
	if in.Op == ir.OpDivU {
		return g.Cur.NewSelect(zero, Cint(lt, in.Results[0].Type.Mask()), g.Cur.NewUDiv(x, d))
	}
	return g.Cur.NewSelect(zero, x, g.Cur.NewURem(x, d))
}

// wide emits addc, subb and mulw in the double-width integer type, which
// LLVM selects as add/adc, sub/sbb and one widening mul.
func (g *Func) wide(in *ir.Instr) {
	t := in.Args[0].Type
	n := t.Bits()
	lt := ValueType(t)
	if in.Op == ir.OpMulW && n == 64 && g.IntPtr.BitSize < 64 {
		g.mulw64Split(in)
		return
	}
	wt := types.NewInt(uint64(2 * n))
	x := g.Cur.NewZExt(g.Val(in.Args[0]), wt)
	y := g.Cur.NewZExt(g.Val(in.Args[1]), wt)
	var r value.Value
	switch in.Op {
	case ir.OpAddC:
		r = g.Cur.NewAdd(g.Cur.NewAdd(x, y), g.Cur.NewZExt(g.Val(in.Args[2]), wt))
	case ir.OpSubB:
		r = g.Cur.NewSub(g.Cur.NewSub(x, y), g.Cur.NewZExt(g.Val(in.Args[2]), wt))
	default:
		r = g.Cur.NewMul(x, y)
	}
	lo := g.Cur.NewTrunc(r, lt)
	hi := g.Cur.NewTrunc(g.Cur.NewLShr(r, constant.NewInt(wt, int64(n))), lt)
	g.Vals[in.Results[0]] = lo
	if in.Op == ir.OpMulW {
		g.Vals[in.Results[1]] = hi
		return
	}
	g.Vals[in.Results[1]] = g.Cur.NewTrunc(hi, types.I1)
}

// mulw64Split emits mulw on u64 for a 32-bit target as four 32x32->64
// products: LLVM makes an i128 multiply a call of compiler-rt's __multi3
// there, which a program linked without a C library lacks.
func (g *Func) mulw64Split(in *ir.Instr) {
	x, y := g.Val(in.Args[0]), g.Val(in.Args[1])
	m32 := Cint(types.I64, 0xffffffff)
	c32 := Cint(types.I64, 32)
	b := g.Cur
	x0, x1 := b.NewAnd(x, m32), b.NewLShr(x, c32)
	y0, y1 := b.NewAnd(y, m32), b.NewLShr(y, c32)
	p00, p01 := b.NewMul(x0, y0), b.NewMul(x0, y1)
	p10, p11 := b.NewMul(x1, y0), b.NewMul(x1, y1)
	// mid < 3 * 2^32: the carries into the high word.
	mid := b.NewAdd(b.NewAdd(b.NewLShr(p00, c32), b.NewAnd(p01, m32)), b.NewAnd(p10, m32))
	lo := b.NewOr(b.NewAnd(p00, m32), b.NewShl(mid, c32))
	hi := b.NewAdd(b.NewAdd(p11, b.NewLShr(p01, c32)), b.NewAdd(b.NewLShr(p10, c32), b.NewLShr(mid, c32)))
	g.Vals[in.Results[0]] = lo
	g.Vals[in.Results[1]] = hi
}

// Elem returns a pointer to element idx (an i32) of array a.
func (g *Func) Elem(a *ir.Array, idx value.Value) value.Value {
	info := g.arr(a)
	i := idx
	if idx.Type().(*types.IntType).BitSize < g.IntPtr.BitSize {
		i = g.Cur.NewZExt(idx, g.IntPtr)
	}
	gep := g.Cur.NewGetElementPtr(StorageType(a.Elem), info.ptr, i)
	gep.InBounds = true
	return gep
}

// loadBytes loads a bits-wide word from the bytes of a at byte offset off:
// one unaligned load, byte-swapped for big-endian (movbe or bswap).
func (g *Func) loadBytes(a *ir.Array, off value.Value, bits int, big bool) value.Value {
	t := types.NewInt(uint64(bits))
	p := g.Elem(a, off)
	var x value.Value = p
	if bits > 8 {
		x = g.Cur.NewBitCast(p, types.NewPointer(t))
	}
	ld := g.Cur.NewLoad(t, x)
	ld.Align = 1
	if big && bits > 8 {
		return g.Cur.NewCall(g.Intrinsic(fmt.Sprintf("llvm.bswap.i%d", bits), t, t), ld)
	}
	return ld
}

// storeBytes stores a bits-wide word v at byte offset off of a.
func (g *Func) storeBytes(a *ir.Array, off, v value.Value, bits int, big bool) {
	t := types.NewInt(uint64(bits))
	if big && bits > 8 {
		v = g.Cur.NewCall(g.Intrinsic(fmt.Sprintf("llvm.bswap.i%d", bits), t, t), v)
	}
	p := g.Elem(a, off)
	var x value.Value = p
	if bits > 8 {
		x = g.Cur.NewBitCast(p, types.NewPointer(t))
	}
	st := g.Cur.NewStore(v, x)
	st.Align = 1
}
