// Pass expand rewrites, after legalization, the limb operations a target
// cannot select (Options.Expand) into ones it can:
//
//   - divu/remu by a divisor that is not a constant: a shift-and-subtract
//     loop, one step per bit, with constant shifts only;
//   - rotl/rotr by an amount that is not a constant: two shifts and an or;
//   - mulw (the double-width product of two limbs): four products of
//     half-limbs, which fit a limb, and their carries.
//
// Requires: legalize. Preserves: the meaning.
package ir

import "fmt"

// Expand is a set of operations a target wants expanded (pass expand).
type Expand uint8

const (
	ExpandDiv    Expand = 1 << iota // divu/remu by a non-constant divisor
	ExpandRotate                    // rotl/rotr by a non-constant amount
	ExpandMulW                      // mulw
)

func expand(m *Module, o *Options) error {
	if o.Expand == 0 {
		return nil
	}
	w := m.W
	if w == 0 {
		w = 64
	}
	wt := WordType(w) // the limb type, for loop indexes
	rewrite(m, func(nb *Builder, in *Instr) []*Value {
		_, constArg := ConstOf(argOr(in, 1))
		switch {
		case o.Expand&ExpandDiv != 0 && (in.Op == OpDivU || in.Op == OpRemU) && !constArg:
			q, r := divide(nb, wt, in.Args[0], in.Args[1])
			if in.Op == OpDivU {
				return []*Value{q}
			}
			return []*Value{r}
		case o.Expand&ExpandRotate != 0 && (in.Op == OpRotl || in.Op == OpRotr) && !constArg:
			return []*Value{rotateByShifts(nb, in.Op, in.Args[0], in.Args[1])}
		case o.Expand&ExpandMulW != 0 && in.Op == OpMulW:
			lo, hi := mulHalves(nb, in.Args[0], in.Args[1])
			return []*Value{lo, hi}
		}
		return nil
	})
	return nil
}

func argOr(in *Instr, i int) *Value {
	if i < len(in.Args) {
		return in.Args[i]
	}
	return nil
}

// divide emits a / b and a % b of one type by shift and subtract: each
// step shifts the next bit of a into the remainder and subtracts b when
// it fits (or when the shifted remainder overflowed, which only a divisor
// above 2^(n-1) allows). b = 0 gives all ones and a, as divu and remu say.
func divide(b *Builder, wt Type, a, d *Value) (q, r *Value) {
	t := a.Type
	n := t.Bits()
	zero := b.Const(t, 0)
	res := b.For(wt, b.Const(wt, 0), b.Const(wt, uint64(n)), []*Value{zero, zero, a},
		func(l *Builder, _ *Value, it []*Value) []*Value {
			q, r, x := it[0], it[1], it[2]
			top := l.Shr(x, l.Const(t, uint64(n-1)))
			out := l.Ne(l.Shr(r, l.Const(t, uint64(n-1))), l.Const(t, 0))
			r2 := l.Or(l.Shl(r, l.Const(t, 1)), top)
			ge := l.Or(out, l.Not(l.Ult(r2, d)))
			r3 := l.Select(ge, l.Sub(r2, d), r2)
			q2 := l.Or(l.Shl(q, l.Const(t, 1)), l.Zext(t, ge))
			return []*Value{q2, r3, l.Shl(x, l.Const(t, 1))}
		})
	return res[0], res[1]
}

// rotateByShifts emits rotl/rotr of x by the amount k as two shifts by
// amounts below the width: rotl(x, k) = x << (k mod n) | x >> (-k mod n).
func rotateByShifts(b *Builder, op Op, x, k *Value) *Value {
	n := x.Type.Bits()
	mask := b.Const(k.Type, uint64(n-1))
	m := b.And(k, mask)
	neg := b.And(b.Sub(b.Const(k.Type, 0), k), mask)
	if op == OpRotl {
		return b.Or(b.Shl(x, m), b.Shr(x, neg))
	}
	return b.Or(b.Shr(x, m), b.Shl(x, neg))
}

// mulHalves emits mulw(a, b) from the four products of half-width pieces,
// each of which fits the type. The carries are addc's, not comparisons:
// a target lowers a comparison to a value with a branch (Java Card), and
// the time of mulw must not depend on its operands.
func mulHalves(b *Builder, x, y *Value) (lo, hi *Value) {
	t := x.Type
	h := t.Bits() / 2
	if h == 0 || t.Bits()%2 != 0 {
		panic(fmt.Sprintf("BUG: expand: mulw of %s", t))
	}
	mask := b.Const(t, uint64(1)<<h-1)
	sh := b.Const(t, uint64(h))
	no := b.Const(Bool, 0)
	x0, x1 := b.And(x, mask), b.Shr(x, sh)
	y0, y1 := b.And(y, mask), b.Shr(y, sh)
	p00, p01 := b.Mul(x0, y0), b.Mul(x0, y1)
	p10, p11 := b.Mul(x1, y0), b.Mul(x1, y1)
	mid, c1 := b.Pair(OpAddC, p01, p10, no)
	lo, c2 := b.Pair(OpAddC, p00, b.Shl(mid, sh), no)
	hi = b.Add(b.Add(p11, b.Shr(mid, sh)), b.Add(b.Shl(b.Zext(t, c1), sh), b.Zext(t, c2)))
	return lo, hi
}
