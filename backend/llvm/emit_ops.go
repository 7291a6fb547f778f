package amd64

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

func cint(t *types.IntType, x uint64) *constant.Int { return constant.NewInt(t, int64(x)) }

// instr emits one non-structured instruction.
func (g *fgen) instr(in *ir.Instr) error {
	b := func() *llir.Block { return g.cur }
	arg := func(i int) value.Value { return g.val(in.Args[i]) }
	set := func(x value.Value) { g.vals[in.Results[0]] = x }
	switch in.Op {
	case ir.OpConst:
		set(cint(valueType(in.Results[0].Type), in.Aux))
	case ir.OpCopy:
		set(arg(0))
	case ir.OpAdd:
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
		t := valueType(in.Results[0].Type)
		set(b().NewXor(arg(0), cint(t, in.Results[0].Type.Mask())))
	case ir.OpNeg:
		set(b().NewSub(cint(valueType(in.Results[0].Type), 0), arg(0)))
	case ir.OpDivU, ir.OpRemU:
		set(g.divRem(in))
	case ir.OpShl, ir.OpShr:
		set(g.shift(in))
	case ir.OpRotl, ir.OpRotr:
		set(g.rotate(in))
	case ir.OpFshl, ir.OpFshr:
		t := valueType(in.Results[0].Type)
		name := "llvm.fshl"
		if in.Op == ir.OpFshr {
			name = "llvm.fshr"
		}
		fn := g.intrinsic(fmt.Sprintf("%s.i%d", name, t.BitSize), t, t, t, t)
		set(b().NewCall(fn, arg(0), arg(1), cint(t, in.Aux)))
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
	case ir.OpClmulLo, ir.OpClmulHi:
		set(g.clmul(in.Op == ir.OpClmulHi, arg(0), arg(1)))
	case ir.OpAESEnc, ir.OpAESEncLast:
		return fmt.Errorf("BUG: amd64: %s: AES round left to the scalar selection", g.f.Name)
	case ir.OpHave:
		set(boolConst(g.have(sem.Feature(in.Aux))))
	case ir.OpSHA256Rnds2, ir.OpSHA256Msg1, ir.OpSHA256Msg2:
		return g.sha(in)
	case ir.OpLoad:
		et := storageType(in.Arr.Elem)
		x := value.Value(b().NewLoad(et, g.elem(in.Arr, arg(0))))
		if in.Arr.Elem == ir.Bool {
			x = b().NewICmp(enum.IPredNE, x, cint(types.I8, 0))
		}
		set(x)
	case ir.OpStore:
		x := arg(1)
		if in.Arr.Elem == ir.Bool {
			x = b().NewZExt(x, types.I8)
		}
		b().NewStore(x, g.elem(in.Arr, arg(0)))
	case ir.OpLen:
		info := g.arr(in.Arr)
		if info.len == nil {
			set(cint(types.I32, uint64(in.Arr.Len/in.Arr.Per)))
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
		return fmt.Errorf("BUG: amd64: %s: cannot select %s", g.f.Name, in.Op)
	}
	return nil
}

// convert zero-extends or truncates x from type from to type to.
func (g *fgen) convert(x value.Value, from, to ir.Type) value.Value {
	fb, tb := from.Bits(), to.Bits()
	switch {
	case fb == tb:
		return x
	case fb < tb:
		return g.cur.NewZExt(x, valueType(to))
	default:
		return g.cur.NewTrunc(x, valueType(to))
	}
}

// shift emits shl/shr, where an amount >= the width gives 0.
func (g *fgen) shift(in *ir.Instr) value.Value {
	t := in.Results[0].Type
	lt := valueType(t)
	x, amt := g.val(in.Args[0]), g.val(in.Args[1])
	at := in.Args[1].Type
	n := uint64(t.Bits())
	if c, ok := amt.(*constant.Int); ok {
		k := uint64(c.X.Int64())
		if k >= n {
			return cint(lt, 0)
		}
		if in.Op == ir.OpShl {
			return g.cur.NewShl(x, cint(lt, k))
		}
		return g.cur.NewLShr(x, cint(lt, k))
	}
	big := g.cur.NewICmp(enum.IPredUGE, amt, cint(valueType(at), n))
	k := g.cur.NewAnd(g.convert(amt, at, t), cint(lt, n-1))
	var s value.Value
	if in.Op == ir.OpShl {
		s = g.cur.NewShl(x, k)
	} else {
		s = g.cur.NewLShr(x, k)
	}
	return g.cur.NewSelect(big, cint(lt, 0), s)
}

// rotate emits rotl/rotr as a funnel shift of x with itself (which takes
// the amount modulo the width, as Lowent's rotates do).
func (g *fgen) rotate(in *ir.Instr) value.Value {
	t := in.Results[0].Type
	lt := valueType(t)
	x, amt := g.val(in.Args[0]), g.val(in.Args[1])
	at := in.Args[1].Type
	n := uint64(t.Bits())
	if at.Bits() > t.Bits() {
		amt = g.cur.NewAnd(amt, cint(valueType(at), n-1))
	}
	amt = g.convert(amt, at, t)
	name := "llvm.fshl"
	if in.Op == ir.OpRotr {
		name = "llvm.fshr"
	}
	fn := g.intrinsic(fmt.Sprintf("%s.i%d", name, n), lt, lt, lt, lt)
	return g.cur.NewCall(fn, x, x, amt)
}

// divRem emits divu/remu with Lowent's meaning for a zero divisor.
func (g *fgen) divRem(in *ir.Instr) value.Value {
	lt := valueType(in.Results[0].Type)
	x, y := g.val(in.Args[0]), g.val(in.Args[1])
	zero := g.cur.NewICmp(enum.IPredEQ, y, cint(lt, 0))
	d := g.cur.NewSelect(zero, cint(lt, 1), y)
	if in.Op == ir.OpDivU {
		return g.cur.NewSelect(zero, cint(lt, in.Results[0].Type.Mask()), g.cur.NewUDiv(x, d))
	}
	return g.cur.NewSelect(zero, x, g.cur.NewURem(x, d))
}

// wide emits addc, subb and mulw in the double-width integer type, which
// LLVM selects as add/adc, sub/sbb and one widening mul.
func (g *fgen) wide(in *ir.Instr) {
	t := in.Args[0].Type
	n := t.Bits()
	lt := valueType(t)
	wt := types.NewInt(uint64(2 * n))
	x := g.cur.NewZExt(g.val(in.Args[0]), wt)
	y := g.cur.NewZExt(g.val(in.Args[1]), wt)
	var r value.Value
	switch in.Op {
	case ir.OpAddC:
		r = g.cur.NewAdd(g.cur.NewAdd(x, y), g.cur.NewZExt(g.val(in.Args[2]), wt))
	case ir.OpSubB:
		r = g.cur.NewSub(g.cur.NewSub(x, y), g.cur.NewZExt(g.val(in.Args[2]), wt))
	default:
		r = g.cur.NewMul(x, y)
	}
	lo := g.cur.NewTrunc(r, lt)
	hi := g.cur.NewTrunc(g.cur.NewLShr(r, constant.NewInt(wt, int64(n))), lt)
	g.vals[in.Results[0]] = lo
	if in.Op == ir.OpMulW {
		g.vals[in.Results[1]] = hi
		return
	}
	g.vals[in.Results[1]] = g.cur.NewTrunc(hi, types.I1)
}

// elem returns a pointer to element idx (an i32) of array a.
func (g *fgen) elem(a *ir.Array, idx value.Value) value.Value {
	info := g.arr(a)
	i := g.cur.NewZExt(idx, types.I64)
	gep := g.cur.NewGetElementPtr(storageType(a.Elem), info.ptr, i)
	gep.InBounds = true
	return gep
}

// loadBytes loads a bits-wide word from the bytes of a at byte offset off:
// one unaligned load, byte-swapped for big-endian (movbe or bswap).
func (g *fgen) loadBytes(a *ir.Array, off value.Value, bits int, big bool) value.Value {
	t := types.NewInt(uint64(bits))
	p := g.elem(a, off)
	var x value.Value = p
	if bits > 8 {
		x = g.cur.NewBitCast(p, types.NewPointer(t))
	}
	ld := g.cur.NewLoad(t, x)
	ld.Align = 1
	if big && bits > 8 {
		return g.cur.NewCall(g.intrinsic(fmt.Sprintf("llvm.bswap.i%d", bits), t, t), ld)
	}
	return ld
}

// storeBytes stores a bits-wide word v at byte offset off of a.
func (g *fgen) storeBytes(a *ir.Array, off, v value.Value, bits int, big bool) {
	t := types.NewInt(uint64(bits))
	if big && bits > 8 {
		v = g.cur.NewCall(g.intrinsic(fmt.Sprintf("llvm.bswap.i%d", bits), t, t), v)
	}
	p := g.elem(a, off)
	var x value.Value = p
	if bits > 8 {
		x = g.cur.NewBitCast(p, types.NewPointer(t))
	}
	st := g.cur.NewStore(v, x)
	st.Align = 1
}
