package ir

// Limb arithmetic for legalize: every helper takes and returns limb groups
// (least significant limb first) of one value and appends narrow
// instructions to the legalizer's output. A group of one limb is an
// ordinary value that fits W, and gets the ordinary op.

type limbs = []*Value

// constL appends the limbs of the constant c of type t.
func (lz *legalizer) constL(t Type, c uint64) limbs {
	n := lz.n(t)
	out := make(limbs, n)
	for i := range out {
		if n == 1 {
			out[i] = lz.b.Const(t, c)
		} else {
			out[i] = lz.b.Const(lz.wt, c>>uint(i*lz.w))
		}
	}
	return out
}

// zeros appends n zero limbs of type t.
func (lz *legalizer) zeros(t Type, n int) limbs {
	out := make(limbs, n)
	for i := range out {
		out[i] = lz.b.Const(t, 0)
	}
	return out
}

// mapL applies a limb-wise binary op.
func (lz *legalizer) mapL(op Op, a, b limbs) limbs {
	out := make(limbs, len(a))
	for i := range a {
		out[i] = lz.b.Bin(op, a[i], b[i])
	}
	return out
}

func (lz *legalizer) selectL(c *Value, a, b limbs) limbs {
	out := make(limbs, len(a))
	for i := range a {
		out[i] = lz.b.Op(OpSelect, a[i].Type, c, a[i], b[i])
	}
	return out
}

// addL adds with a carry chain.
func (lz *legalizer) addL(a, b limbs) limbs {
	if len(a) == 1 {
		return limbs{lz.b.Bin(OpAdd, a[0], b[0])}
	}
	out := make(limbs, len(a))
	carry := lz.b.Const(Bool, 0)
	for i := range a {
		out[i], carry = lz.b.Pair(OpAddC, a[i], b[i], carry)
	}
	return out
}

// subL subtracts with a borrow chain and returns the final borrow (a < b).
func (lz *legalizer) subL(a, b limbs) (limbs, *Value) {
	if len(a) == 1 {
		return limbs{lz.b.Bin(OpSub, a[0], b[0])}, nil
	}
	out := make(limbs, len(a))
	borrow := lz.b.Const(Bool, 0)
	for i := range a {
		out[i], borrow = lz.b.Pair(OpSubB, a[i], b[i], borrow)
	}
	return out, borrow
}

// ultL compares unsigned: the borrow out of a - b.
func (lz *legalizer) ultL(a, b limbs) *Value {
	if len(a) == 1 {
		return lz.b.Bin(OpUlt, a[0], b[0])
	}
	_, borrow := lz.subL(a, b)
	return borrow
}

// eqL compares limb by limb.
func (lz *legalizer) eqL(a, b limbs) *Value {
	eq := lz.b.Bin(OpEq, a[0], b[0])
	for i := 1; i < len(a); i++ {
		eq = lz.b.Bin(OpAnd, eq, lz.b.Bin(OpEq, a[i], b[i]))
	}
	return eq
}

// shiftConstL shifts or rotates (shl, shr, rotl, rotr) a value of bits bits
// by the constant s: whole limbs move (a rotate by a multiple of W is only a
// renaming), the rest is funnel shifts of neighbouring limbs.
func (lz *legalizer) shiftConstL(op Op, a limbs, s uint64, bits int) limbs {
	k := len(a)
	if k == 1 {
		return limbs{lz.b.Op(op, a[0].Type, a[0], lz.b.Const(a[0].Type, s))}
	}
	switch op {
	case OpRotr:
		op, s = OpRotl, uint64(bits)-s%uint64(bits)
		fallthrough
	case OpRotl:
		s %= uint64(bits)
	case OpShl, OpShr:
		if s >= uint64(bits) {
			return lz.zeros(lz.wt, k)
		}
	}
	q, r := int(s)/lz.w, int(s)%lz.w
	out := make(limbs, k)
	zero := func() *Value { return lz.b.Const(lz.wt, 0) }
	for j := range out {
		switch op {
		case OpRotl:
			hi, lo := a[((j-q)%k+k)%k], a[((j-q-1)%k+k)%k]
			if r == 0 {
				out[j] = hi
			} else {
				out[j] = lz.b.Fsh(OpFshl, hi, lo, r)
			}
		case OpShl:
			switch {
			case j < q:
				out[j] = zero()
			case r == 0:
				out[j] = a[j-q]
			case j-q-1 < 0:
				out[j] = lz.b.Bin(OpShl, a[j-q], lz.b.Const(lz.wt, uint64(r)))
			default:
				out[j] = lz.b.Fsh(OpFshl, a[j-q], a[j-q-1], r)
			}
		case OpShr:
			switch {
			case j+q >= k:
				out[j] = zero()
			case r == 0:
				out[j] = a[j+q]
			case j+q+1 >= k:
				out[j] = lz.b.Bin(OpShr, a[j+q], lz.b.Const(lz.wt, uint64(r)))
			default:
				out[j] = lz.b.Fsh(OpFshr, a[j+q+1], a[j+q], r)
			}
		}
	}
	return out
}

// shiftVarL shifts or rotates a wide value by a run-time amount: a barrel
// of constant shifts selected by the amount's low bits (all in its first
// limb, since W >= 8 > log2(64)); shifts by bits or more give zero.
func (lz *legalizer) shiftVarL(op Op, a limbs, amt limbs, amtType Type, bits int) limbs {
	cur := a
	a0 := amt[0]
	for b := 0; 1<<b < bits; b++ {
		shifted := lz.shiftConstL(op, cur, 1<<b, bits)
		bit := lz.b.Bin(OpNe, lz.b.Bin(OpAnd, a0, lz.b.Const(a0.Type, 1<<b)), lz.b.Const(a0.Type, 0))
		cur = lz.selectL(bit, shifted, cur)
	}
	if op == OpShl || op == OpShr {
		big := lz.bigAmount(amt, amtType, bits)
		cur = lz.selectL(big, lz.zeros(lz.wt, len(cur)), cur)
	}
	return cur
}

// bigAmount returns amount >= bits for a shift amount given as limbs.
func (lz *legalizer) bigAmount(amt limbs, amtType Type, bits int) *Value {
	if amtType.Bits() < 8 || amtType.Mask() < uint64(bits) {
		return lz.b.Const(Bool, 0)
	}
	lt := lz.ultL(amt, lz.constL(amtType, uint64(bits)))
	return lz.b.Op(OpNot, Bool, lt)
}

// mulL multiplies, keeping the low len(a) limbs: schoolbook rows of
// widening limb products, each row added with a carry chain.
func (lz *legalizer) mulL(a, b limbs) limbs {
	k := len(a)
	if k == 1 {
		return limbs{lz.b.Bin(OpMul, a[0], b[0])}
	}
	res := lz.zeros(lz.wt, k)
	for i := 0; i < k; i++ {
		row := make(limbs, k-i)
		var carry *Value
		for j := range row {
			lo, hi := lz.b.Pair(OpMulW, a[i], b[j])
			if carry != nil {
				var c *Value
				lo, c = lz.b.Pair(OpAddC, lo, carry, lz.b.Const(Bool, 0))
				// hi <= 2^W-2, so adding the carry cannot overflow.
				hi = lz.b.Bin(OpAdd, hi, lz.b.Op(OpZext, lz.wt, c))
			}
			row[j], carry = lo, hi
		}
		copy(res[i:], lz.addL(res[i:], row))
	}
	return res
}

// divL divides unsigned (rem: the remainder) by shift-and-subtract: a loop
// of one step per bit, with the quotient, the remainder and the dividend's
// remaining bits carried. A zero divisor gives all ones and a remainder of
// a, as divu and remu define.
func (lz *legalizer) divL(a, b limbs, rem bool) limbs {
	k := len(a)
	if k == 1 {
		op := OpDivU
		if rem {
			op = OpRemU
		}
		return limbs{lz.b.Bin(op, a[0], b[0])}
	}
	bits := k * lz.w
	loop := &Instr{Op: OpFor, Type: lz.wt, Pos: lz.b.Pos}
	loop.Args = append(limbs{lz.b.Const(lz.wt, 0), lz.b.Const(lz.wt, uint64(bits))}, lz.zeros(lz.wt, 2*k)...)
	loop.Args = append(loop.Args, a...)
	body := &Block{Params: limbs{lz.f.NewValue(lz.wt)}}
	for i := 0; i < 3*k; i++ {
		body.Params = append(body.Params, lz.f.NewValue(lz.wt))
		r := lz.f.NewValue(lz.wt)
		r.Def = loop
		loop.Results = append(loop.Results, r)
	}
	loop.Blocks = []*Block{body}
	q, r, x := body.Params[1:1+k], body.Params[1+k:1+2*k], body.Params[1+2*k:]

	saved := lz.b.Blk
	lz.b.Blk = body
	top := lz.b.Bin(OpShr, x[k-1], lz.b.Const(lz.wt, uint64(lz.w-1)))
	rOut := lz.b.Bin(OpNe, lz.b.Bin(OpShr, r[k-1], lz.b.Const(lz.wt, uint64(lz.w-1))), lz.b.Const(lz.wt, 0))
	r2 := lz.shiftConstL(OpShl, r, 1, bits)
	r2[0] = lz.b.Bin(OpOr, r2[0], top)
	x2 := lz.shiftConstL(OpShl, x, 1, bits)
	ge := lz.b.Bin(OpOr, rOut, lz.b.Op(OpNot, Bool, lz.ultL(r2, b)))
	diff, _ := lz.subL(r2, b)
	r3 := lz.selectL(ge, diff, r2)
	q2 := lz.shiftConstL(OpShl, q, 1, bits)
	q2[0] = lz.b.Bin(OpOr, q2[0], lz.b.Op(OpZext, lz.wt, ge))
	y := &Instr{Op: OpYield, Args: append(append(append(limbs{}, q2...), r3...), x2...), Pos: lz.b.Pos}
	lz.b.Emit(y)
	lz.b.Blk = saved
	lz.b.Emit(loop)
	if rem {
		return loop.Results[k : 2*k]
	}
	return loop.Results[:k]
}
