package jcvm

import (
	"fmt"

	"github.com/lowent/lowentc/ir"
)

// The lowering of each IR operation. A u8 lives in a short as 0..255, a u16
// as its bit pattern in a short, a u32 in an int, a bool as 0 or 1 in a
// short. Java Card arithmetic is signed, so unsigned comparisons flip the
// sign bits, logical shifts of shorts mask what sushr's sign extension
// brings in, and carries are computed branch-free from the sign bits.

// instr lowers one non-control instruction; it returns an expression per
// result (nil for an unused one) and emits statements for effects.
func (l *lowerer) instr(in *ir.Instr) []Expr {
	arg := func(i int) Expr { return l.get(in.Args[i]) }
	one := func(e Expr) []Expr { return []Expr{e} }
	var t ir.Type
	if len(in.Results) > 0 {
		t = in.Results[0].Type
	}
	switch in.Op {
	case ir.OpConst:
		return one(l.constOf(t, in.Aux))
	case ir.OpCopy:
		return one(arg(0))
	case ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpAnd, ir.OpOr, ir.OpXor:
		op := map[ir.Op]BinOp{ir.OpAdd: OAdd, ir.OpSub: OSub, ir.OpMul: OMul, ir.OpAnd: OAnd, ir.OpOr: OOr, ir.OpXor: OXor}[in.Op]
		e := bin(op, l.kindOf(t), arg(0), arg(1))
		if in.Op == ir.OpAdd || in.Op == ir.OpSub || in.Op == ir.OpMul {
			e = l.wrap(e, t)
		}
		return one(e)
	case ir.OpNot:
		return one(bin(OXor, l.kindOf(t), arg(0), l.constOf(t, t.Mask())))
	case ir.OpNeg:
		return one(l.wrap(bin(OSub, l.kindOf(t), kconst(l.kindOf(t), 0), arg(0)), t))
	case ir.OpShl, ir.OpShr:
		return one(l.shift(in.Op, t, arg(0), in.Args[1], arg(1)))
	case ir.OpRotl, ir.OpRotr:
		c, ok := arg(1).(*EConst)
		if !ok {
			l.fail("BUG: rotate by a variable amount left by pass expand")
		}
		n := int(uint32(c.V)) % t.Bits()
		if in.Op == ir.OpRotr {
			n = (t.Bits() - n) % t.Bits()
		}
		if n == 0 {
			return one(arg(0))
		}
		x := l.atom(arg(0))
		return one(l.funnel(t, x, x, n))
	case ir.OpFshl:
		return one(l.funnel(t, arg(0), arg(1), int(in.Aux)))
	case ir.OpFshr:
		return one(l.funnel(t, arg(0), arg(1), t.Bits()-int(in.Aux)))
	case ir.OpEq, ir.OpNe:
		rel := REq
		if in.Op == ir.OpNe {
			rel = RNe
		}
		return one(flag(Cond{Rel: rel, X: arg(0), Y: arg(1)}))
	case ir.OpUlt:
		return one(flag(l.ult(arg(0), arg(1), in.Args[0].Type)))
	case ir.OpUle:
		c := l.ult(arg(1), arg(0), in.Args[0].Type)
		c.Rel = c.Rel.negate()
		return one(flag(c))
	case ir.OpZext:
		e := arg(0)
		if t == ir.U32 && in.Args[0].Type == ir.U16 {
			return one(bin(OAnd, KInt, conv(e, KInt), iconst(0xffff)))
		}
		return one(conv(e, l.kindOf(t)))
	case ir.OpTrunc:
		e := conv(arg(0), l.kindOf(t))
		if t == ir.U8 && in.Args[0].Type != ir.U8 {
			e = bin(OAnd, KShort, e, sconst(0xff))
		}
		if t == ir.Bool {
			e = bin(OAnd, KShort, e, sconst(1))
		}
		return one(e)
	case ir.OpSelect:
		// b ^ ((a ^ b) & -c): no branch on the condition.
		k := l.kindOf(t)
		a, b := arg(1), l.atom(arg(2))
		mask := bin(OSub, k, kconst(k, 0), conv(arg(0), k))
		return one(bin(OXor, k, b, bin(OAnd, k, bin(OXor, k, a, b), mask)))
	case ir.OpAddC, ir.OpSubB:
		return l.carryOp(in)
	case ir.OpDivU, ir.OpRemU:
		return one(l.divu(in.Op == ir.OpRemU, t, arg(0), arg(1)))
	case ir.OpClmulLo, ir.OpClmulHi, ir.OpAESEnc, ir.OpAESEncLast:
		return l.builtin(in)
	case ir.OpLoad:
		return one(l.load(l.arr(in.Arr), in.Arr, l.index(in.Args), t))
	case ir.OpStore:
		n := len(in.Args) - 1
		l.store(l.arr(in.Arr), l.index(in.Args[:n]), arg(n), in.Args[n].Type)
		return nil
	case ir.OpLen:
		a := l.arr(in.Arr)
		if a.LenV == nil {
			l.fail("len of fixed array %s", a.Name)
		}
		n := Expr(&EVar{V: a.LenV})
		if l.w == 32 {
			return one(conv(n, KInt))
		}
		return []Expr{n, sconst(0)}
	case ir.OpLoadLE, ir.OpLoadBE:
		return one(l.loadBytes(in, t))
	case ir.OpStoreLE, ir.OpStoreBE:
		l.storeBytes(in)
		return nil
	case ir.OpCheck:
		c := condOf(arg(0))
		c.Rel = c.Rel.negate()
		l.emit(&SIf{C: c, Then: []Stmt{&SThrow{SW: 0x6f00 + int32(in.Check.Kind), Check: in.Check}}})
		return nil
	case ir.OpTrace:
		return nil
	case ir.OpCall:
		return l.call(in)
	}
	l.fail("operation %s is not supported", in.Op)
	return nil
}

// constOf is the constant x of IR type t.
func (l *lowerer) constOf(t ir.Type, x uint64) Expr {
	return kconst(l.kindOf(t), int64(x))
}

// wrap reduces an arithmetic result to its type: only u8 needs it, shorts
// and ints wrap by themselves.
func (l *lowerer) wrap(e Expr, t ir.Type) Expr {
	if t == ir.U8 {
		return bin(OAnd, KShort, e, sconst(0xff))
	}
	if t == ir.Bool {
		return bin(OAnd, KShort, e, sconst(1))
	}
	return e
}

// lshr is the logical right shift of x (of type t) by the constant n.
func (l *lowerer) lshr(t ir.Type, x Expr, n int) Expr {
	if n == 0 {
		return x
	}
	if n >= t.Bits() {
		return l.constOf(t, 0)
	}
	switch t {
	case ir.U32:
		return bin(OUshr, KInt, x, iconst(int32(n)))
	case ir.U16:
		return bin(OAnd, KShort, bin(OShr, KShort, x, sconst(int32(n))), sconst(int32(0xffff>>uint(n))))
	}
	return bin(OShr, KShort, x, sconst(int32(n)))
}

// shl is x << n for a constant n, wrapped to t.
func (l *lowerer) shl(t ir.Type, x Expr, n int) Expr {
	if n >= t.Bits() {
		return l.constOf(t, 0)
	}
	return l.wrap(bin(OShl, l.kindOf(t), x, kconst(l.kindOf(t), int64(n))), t)
}

// funnel is the high word of (hi:lo) << n.
func (l *lowerer) funnel(t ir.Type, hi, lo Expr, n int) Expr {
	return bin(OOr, l.kindOf(t), l.shl(t, hi, n), l.lshr(t, lo, t.Bits()-n))
}

// shift lowers shl/shr; an amount of the value's width or more gives 0.
func (l *lowerer) shift(op ir.Op, t ir.Type, x Expr, amtV *ir.Value, amt Expr) Expr {
	if c, ok := amt.(*EConst); ok {
		n := int(uint32(c.V))
		if amtV.Type != ir.U32 {
			n = int(uint16(c.V))
		}
		if op == ir.OpShl {
			return l.shl(t, x, n)
		}
		return l.lshr(t, x, n)
	}
	k := l.kindOf(t)
	amt = l.atom(amt)
	in := l.ult(amt, l.constOf(amtV.Type, uint64(t.Bits())), amtV.Type)
	n := conv(amt, k)
	var e Expr
	if op == ir.OpShl {
		e = l.wrap(bin(OShl, k, x, n), t)
	} else if t == ir.U16 {
		// sushr sign-extends: mask with 0xffff >>> n, computed in shorts.
		x = l.atom(x)
		mask := bin(OXor, KShort, bin(OShl, KShort, sconst(-1), bin(OSub, KShort, sconst(16), n)), sconst(-1))
		e = bin(OAnd, KShort, bin(OShr, KShort, x, n), mask)
	} else if t == ir.U32 {
		e = bin(OUshr, KInt, x, n)
	} else {
		e = bin(OShr, KShort, x, n)
	}
	return &ECond{C: in, T: e, F: kconst(k, 0)}
}

// ult is x < y unsigned for values of IR type t.
func (l *lowerer) ult(x, y Expr, t ir.Type) Cond {
	if t == ir.U8 || t == ir.Bool {
		return Cond{Rel: RLt, X: x, Y: y}
	}
	k := l.kindOf(t)
	return Cond{Rel: RLt, X: bin(OXor, k, x, minOf(k)), Y: bin(OXor, k, y, minOf(k))}
}

// carryOp lowers addc and subb: the carry (borrow) out is the top bit of
// (a & b) | ((a | b) & ~s) (of (~a & b) | (~(a ^ b) & d)), shifted down.
func (l *lowerer) carryOp(in *ir.Instr) []Expr {
	t := in.Results[0].Type
	k := l.kindOf(t)
	a, b, c := l.get(in.Args[0]), l.get(in.Args[1]), conv(l.get(in.Args[2]), k)
	op := OAdd
	if in.Op == ir.OpSubB {
		op = OSub
	}
	if l.uses[in.Results[1]] == 0 {
		return []Expr{bin(op, k, bin(op, k, a, b), c), nil}
	}
	a, b = l.atom(a), l.atom(b)
	s := l.atom(bin(op, k, bin(op, k, a, b), c))
	var top Expr
	if op == OAdd {
		top = bin(OOr, k, bin(OAnd, k, a, b), bin(OAnd, k, bin(OOr, k, a, b), bin(OXor, k, s, kconst(k, -1))))
	} else {
		top = bin(OOr, k, bin(OAnd, k, bin(OXor, k, a, kconst(k, -1)), b),
			bin(OAnd, k, bin(OXor, k, bin(OXor, k, a, b), kconst(k, -1)), s))
	}
	var co Expr
	if k == KInt {
		co = conv(bin(OUshr, KInt, top, iconst(31)), KShort)
	} else {
		co = bin(OAnd, KShort, bin(OShr, KShort, top, sconst(15)), sconst(1))
	}
	return []Expr{s, co}
}

// builtin calls the software clmul or AES round; results come back through
// the carry array.
func (l *lowerer) builtin(in *ir.Instr) []Expr {
	name := map[ir.Op]string{ir.OpClmulLo: "clmul", ir.OpClmulHi: "clmul", ir.OpAESEnc: "enc", ir.OpAESEncLast: "enclast"}[in.Op]
	m := l.rt[name]
	if m == nil {
		panic("BUG: jcvm: no runtime method " + name)
	}
	args := make([]Expr, len(in.Args))
	key := ""
	for i, a := range in.Args {
		args[i] = l.get(a)
		key += fmt.Sprintf("%p,", a)
	}
	limbs := 64 / l.w
	k := l.kindOf(ir.WordType(l.w))
	ck := clmulKey{l.cur, key}
	all := l.clmul[ck]
	if all == nil {
		l.emit(&SCall{C: &ECall{M: m, Args: args}})
		idx := 0
		for i := 0; i < 2*limbs; i++ {
			var e Expr
			e, idx = l.loadCarry(idx, k)
			all = append(all, e)
		}
		if name == "clmul" {
			for i, e := range all {
				all[i] = &EVar{V: l.assign(e)}
			}
			if l.clmul == nil {
				l.clmul = map[clmulKey][]Expr{}
			}
			l.clmul[ck] = all
		}
	}
	res := make([]Expr, len(in.Results))
	for i := range res {
		j := i
		if in.Op == ir.OpClmulHi {
			j += limbs
		}
		if l.uses[in.Results[i]] > 0 {
			res[i] = &EVar{V: l.assign(all[j])}
		}
	}
	return res
}

// divu is x / c or x % c unsigned for a constant c (pass expand rewrites
// the other divisions). A u8 divides as a short. Below the sign bit, from
// the JCVM's signed division: q = ((x >>> 1) / c) << 1, then one
// correction step when the remainder is still at least c. With the sign
// bit set the quotient is 0 or 1. By zero, as the IR defines it: the
// quotient is all ones and the remainder x (the language's check traps
// before, so this only keeps dead code well-defined).
func (l *lowerer) divu(rem bool, t ir.Type, x, y Expr) Expr {
	c, ok := y.(*EConst)
	k := l.kindOf(t)
	if !ok {
		l.fail("BUG: division by a non-constant left by pass expand")
	}
	switch {
	case c.V == 0 && rem:
		return x
	case c.V == 0:
		return l.constOf(t, t.Mask())
	case t == ir.U8 && rem:
		return bin(ORem, KShort, x, y)
	case t == ir.U8:
		return bin(ODiv, KShort, x, y)
	case c.V < 0:
		x = l.atom(x)
		ge := l.ult(x, y, t)
		ge.Rel = ge.Rel.negate()
		if rem {
			return &ECond{C: ge, T: bin(OSub, k, x, y), F: x}
		}
		return conv(flag(ge), k)
	}
	x = l.atom(x)
	q := l.atom(bin(OShl, k, bin(ODiv, k, l.lshr(t, x, 1), y), kconst(k, 1)))
	r := l.atom(bin(OSub, k, x, bin(OMul, k, q, y)))
	ge := l.ult(r, y, t)
	ge.Rel = ge.Rel.negate()
	if rem {
		return &ECond{C: ge, T: bin(OSub, k, r, y), F: r}
	}
	return bin(OAdd, k, q, conv(flag(ge), k))
}
