package llvm

import (
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/ir"
)

// Carries written with bitwise ops.
//
// Lowent code that must stay branch-free on every target computes the
// carry out of s = a + b from the top bits, ((a & b) | ((a | b) & ~s)) >>
// (n-1), and the carry out of s = a + c for a c of 0 or 1 as (a & ~s) >>
// (n-1): a comparison would be a branch on Java Card. Both equal the
// unsigned comparison s < a, which LLVM turns into the carry flag of the
// add (ADD, then ADC or SETB) instead of five bitwise ops; that is what
// selectCarry emits for them.

// carryOf reports whether in, a shift right by n-1 of an n-bit value, is
// the carry out of an addition s = a + ..., in one of the two forms
// above; it returns s and a.
func carryOf(in *ir.Instr) (s, a *ir.Value, ok bool) {
	if in.Op != ir.OpShr || len(in.Args) != 2 {
		return nil, nil, false
	}
	t := in.Results[0].Type
	if t != ir.U64 && t != ir.U32 {
		return nil, nil, false
	}
	if k, ok := constOf(in.Args[1]); !ok || k != uint64(t.Bits()-1) {
		return nil, nil, false
	}
	x := def(in.Args[0])
	if x == nil {
		return nil, nil, false
	}
	switch x.Op {
	case ir.OpOr:
		// (a & b) | ((a | b) & ~s), the operands of each op in any order.
		for _, p := range [][2]*ir.Value{{x.Args[0], x.Args[1]}, {x.Args[1], x.Args[0]}} {
			ab, rest := def(p[0]), def(p[1])
			if ab == nil || rest == nil || ab.Op != ir.OpAnd || rest.Op != ir.OpAnd {
				continue
			}
			for _, q := range [][2]*ir.Value{{rest.Args[0], rest.Args[1]}, {rest.Args[1], rest.Args[0]}} {
				or, not := def(q[0]), def(q[1])
				if or == nil || not == nil || or.Op != ir.OpOr || not.Op != ir.OpNot {
					continue
				}
				sum := def(not.Args[0])
				if sum == nil || sum.Op != ir.OpAdd {
					continue
				}
				if samePair(ab.Args, sum.Args) && samePair(or.Args, sum.Args) {
					return not.Args[0], sum.Args[0], true
				}
			}
		}
	case ir.OpAnd:
		// a & ~s with s = a + c, c a bit (itself a shift right by n-1).
		for _, p := range [][2]*ir.Value{{x.Args[0], x.Args[1]}, {x.Args[1], x.Args[0]}} {
			not := def(p[1])
			if not == nil || not.Op != ir.OpNot {
				continue
			}
			sum := def(not.Args[0])
			if sum == nil || sum.Op != ir.OpAdd {
				continue
			}
			for _, q := range [][2]*ir.Value{{sum.Args[0], sum.Args[1]}, {sum.Args[1], sum.Args[0]}} {
				if q[0] == p[0] && isBit(q[1]) {
					return not.Args[0], p[0], true
				}
			}
		}
	}
	return nil, nil, false
}

// def is v's defining instruction, through copies; nil for a parameter.
func def(v *ir.Value) *ir.Instr {
	for v.Def != nil && v.Def.Op == ir.OpCopy {
		v = v.Def.Args[0]
	}
	return v.Def
}

func constOf(v *ir.Value) (uint64, bool) {
	if d := def(v); d != nil && d.Op == ir.OpConst {
		return d.Aux, true
	}
	return 0, false
}

// samePair reports whether x and y are the same two values, in either
// order.
func samePair(x, y []*ir.Value) bool {
	return len(x) == 2 && len(y) == 2 &&
		(x[0] == y[0] && x[1] == y[1] || x[0] == y[1] && x[1] == y[0])
}

// isBit reports whether v is known to be 0 or 1: a constant 0 or 1, or a
// shift right by one less than its width.
func isBit(v *ir.Value) bool {
	d := def(v)
	if d == nil {
		return false
	}
	if d.Op == ir.OpConst {
		return d.Aux <= 1
	}
	if d.Op == ir.OpShr {
		k, ok := constOf(d.Args[1])
		return ok && k == uint64(v.Type.Bits()-1)
	}
	return false
}

// selectCarry emits in as zext(s < a) when it is a carry (carryOf).
func (g *Func) selectCarry(in *ir.Instr) (value.Value, bool) {
	s, a, ok := carryOf(in)
	if !ok {
		return nil, false
	}
	lt := g.Cur.NewICmp(enum.IPredULT, g.Val(s), g.Val(a))
	return g.Cur.NewZExt(lt, ValueType(in.Results[0].Type)), true
}

// Small multiplies written as masked additions.
//
// A product of x and a small h that must not use a multiply on targets
// where one is slow or not constant time is written as a sum of x << k
// masked by bit k of h: (x & (0 - (h & 1))) + ((x << 1) & (0 - ((h >> 1) &
// 1))) + .... For distinct k the sum is x * (h & m), m having the bits k
// set, modulo 2^n; on amd64 that is one IMUL (constant time) instead of
// four or five ops a bit. selectMaskedMul emits an add tree whose every
// leaf is such a term, of the same x and h, as that product.

// maskedTerm reports whether v is (x << k) & (0 - ((h >> k) & 1)) (for k
// = 0: x & (0 - (h & 1))), the and's operands in either order; it returns
// x, h and k.
func maskedTerm(v *ir.Value) (x, h *ir.Value, k uint64, ok bool) {
	d := def(v)
	if d == nil || d.Op != ir.OpAnd {
		return nil, nil, 0, false
	}
	for _, p := range [][2]*ir.Value{{d.Args[0], d.Args[1]}, {d.Args[1], d.Args[0]}} {
		bh, bk, ok := maskOfBit(p[1])
		if !ok {
			continue
		}
		xv, xk := p[0], uint64(0)
		if s := def(p[0]); s != nil && s.Op == ir.OpShl {
			if c, ok := constOf(s.Args[1]); ok && c < uint64(v.Type.Bits()) {
				xv, xk = s.Args[0], c
			}
		}
		if xk == bk {
			return xv, bh, bk, true
		}
	}
	return nil, nil, 0, false
}

// maskOfBit reports whether v is 0 - ((h >> k) & 1) (or 0 - (h & 1), k =
// 0), all ones when bit k of h is set; it returns h and k.
func maskOfBit(v *ir.Value) (h *ir.Value, k uint64, ok bool) {
	d := def(v)
	var bit *ir.Value
	switch {
	case d == nil:
		return nil, 0, false
	case d.Op == ir.OpNeg:
		bit = d.Args[0]
	case d.Op == ir.OpSub:
		if c, ok := constOf(d.Args[0]); !ok || c != 0 {
			return nil, 0, false
		}
		bit = d.Args[1]
	default:
		return nil, 0, false
	}
	a := def(bit)
	if a == nil || a.Op != ir.OpAnd {
		return nil, 0, false
	}
	for _, p := range [][2]*ir.Value{{a.Args[0], a.Args[1]}, {a.Args[1], a.Args[0]}} {
		if c, ok := constOf(p[1]); !ok || c != 1 {
			continue
		}
		if s := def(p[0]); s != nil && s.Op == ir.OpShr {
			if c, ok := constOf(s.Args[1]); ok && c < uint64(v.Type.Bits()) {
				return s.Args[0], c, true
			}
		}
		return p[0], 0, true
	}
	return nil, 0, false
}

// maskedSum collects the leaves of the add tree at v into terms, each a
// masked term (maskedTerm) of x and h; it reports false at any other leaf
// or at a repeated bit.
func maskedSum(v *ir.Value, x, h **ir.Value, bits *uint64) bool {
	if d := def(v); d != nil && d.Op == ir.OpAdd {
		return maskedSum(d.Args[0], x, h, bits) && maskedSum(d.Args[1], x, h, bits)
	}
	tx, th, k, ok := maskedTerm(v)
	if !ok || k >= 64 || *bits&(1<<k) != 0 {
		return false
	}
	if *x == nil {
		*x, *h = tx, th
	}
	if tx != *x || th != *h {
		return false
	}
	*bits |= 1 << k
	return true
}

// selectMaskedMul emits the add in as x * (h & m) when it is a sum of
// masked terms of one x and h.
func (g *Func) selectMaskedMul(in *ir.Instr) (value.Value, bool) {
	t := in.Results[0].Type
	if in.Op != ir.OpAdd || (t != ir.U64 && t != ir.U32) {
		return nil, false
	}
	var x, h *ir.Value
	var bits uint64
	if !maskedSum(in.Results[0], &x, &h, &bits) {
		return nil, false
	}
	lt := ValueType(t)
	return g.Cur.NewMul(g.Val(x), g.Cur.NewAnd(g.Val(h), Cint(lt, bits))), true
}
