package lang

import (
	"math/big"

	"github.com/lowent/lowentc/sem"
)

// MaxArrayLen is the largest length of a fixed array.
const MaxArrayLen = 65536

// MaxFlatLen is the most words an array type may hold, all dimensions
// multiplied: 2^24. Its flat index, and its byte offset even for u64
// elements (2^27), then fit every target's 32-bit index arithmetic with
// room to spare, so no index wraps (docs/language.md).
const MaxFlatLen = 1 << 24

// resolveType turns a written type into a Type, or nil after an error.
// slices says whether `[]T` is allowed (parameters only). An array type
// holding more than MaxFlatLen words in all is an error at its position.
func (c *checker) resolveType(te *TypeExpr, slices bool) Type {
	t := c.resolveTypeExpr(te, slices)
	if a, ok := t.(*ArrayType); ok {
		// The product of the lengths, in big integers: up to 65536^depth.
		n := big.NewInt(1)
		for t := Type(a); t != nil; t = arrayElem(t) {
			n.Mul(n, big.NewInt(int64(t.(*ArrayType).Len)))
		}
		if n.Cmp(big.NewInt(MaxFlatLen)) > 0 {
			c.errorf(te.Pos, "array of %s elements is larger than the limit of %d", n, MaxFlatLen)
			return nil
		}
	}
	return t
}

// arrayElem is the element type of array type t when that is an array
// too, else nil.
func arrayElem(t Type) Type {
	if e, ok := t.(*ArrayType).Elem.(*ArrayType); ok {
		return e
	}
	return nil
}

// resolveTypeExpr is resolveType without the size limit.
func (c *checker) resolveTypeExpr(te *TypeExpr, slices bool) Type {
	if te == nil {
		return nil
	}
	switch {
	case te.Tuple != nil:
		c.errorf(te.Pos, "a tuple type is only allowed as the result of a function")
		return nil
	case te.Slice:
		elem := c.resolveTypeExpr(te.Elem, false)
		if elem == nil {
			return nil
		}
		if _, ok := elem.(*WordType); !ok {
			c.errorf(te.Pos, "slice element type must be a word type, not %s", elem)
			return nil
		}
		if !slices {
			c.errorf(te.Pos, "slice type []%s is only allowed for parameters", elem)
			return nil
		}
		return &SliceType{Elem: elem}
	case te.Len != nil:
		n, ok := c.arrayLen(te.Len)
		elem := c.resolveTypeExpr(te.Elem, false)
		if !ok || elem == nil {
			return nil
		}
		switch elem.(type) {
		case *WordType, *ArrayType:
		default:
			c.errorf(te.Elem.Pos, "array element type must be a word or array type, not %s", elem)
			return nil
		}
		return &ArrayType{Len: n, Elem: elem}
	}
	switch te.Name {
	case "u8":
		return U8
	case "u16":
		return U16
	case "u32":
		return U32
	case "u64":
		return U64
	case "bool":
		return Bool
	case "":
		c.errorf(te.Pos, "missing type")
	default:
		c.errorf(te.Pos, "unknown type %s", te.Name)
	}
	return nil
}

// arrayLen evaluates the length of an array type: a constant in 1..65536.
func (c *checker) arrayLen(e Expr) (int, bool) {
	t := c.expr(e)
	if t == nil {
		return 0, false
	}
	if t == Untyped {
		// Check the exact value first for a clearer message than an overflow.
		if u := c.untyped[e]; u != nil && u.v != nil && (u.v.Sign() <= 0 || u.v.Cmp(big.NewInt(MaxArrayLen)) > 0) {
			c.errorf(e.Position(), "array length must be between 1 and %d, not %s", MaxArrayLen, u.v)
			return 0, false
		}
		if !c.convert(e, U32) {
			return 0, false
		}
	} else if _, ok := t.(*WordType); !ok {
		c.errorf(e.Position(), "array length must be a word constant, not %s", t)
		return 0, false
	}
	v, ok := c.mustConst(e, "an array length")
	if !ok {
		return 0, false
	}
	if v.Word < 1 || v.Word > MaxArrayLen {
		c.errorf(e.Position(), "array length must be between 1 and %d, not %d", MaxArrayLen, v.Word)
		return 0, false
	}
	return int(v.Word), true
}

// mustConst evaluates a checked word expression that must be constant,
// reporting the first non-constant part.
func (c *checker) mustConst(e Expr, what string) (*ConstVal, bool) {
	v, bad, msg := c.constEval(e)
	if v == nil {
		if msg != "" {
			c.errorf(bad.Position(), "%s must be constant: %s", what, msg)
		}
		return nil, false
	}
	return v, true
}

// ---------------------------------------------------------------- untyped constants

// untypedVal is the exact value of an untyped constant expression; v is nil
// when the value depends on the width the expression will get (~, unary -,
// rotates, shifts by a non-constant amount, select).
type untypedVal struct{ v *big.Int }

// setUntyped marks e as an untyped expression with exact value v (or nil).
func (c *checker) setUntyped(e Expr, v *big.Int) Type {
	c.untyped[e] = &untypedVal{v}
	return Untyped
}

// fits reports whether v is a value of type w.
func fits(v *big.Int, w *WordType) bool {
	return v.Sign() >= 0 && v.BitLen() <= w.Bits
}

// convert gives the untyped expression e the word type w: every part of it
// gets type w (shift amounts are already u32), and every part with an exact
// value must fit w, so that evaluating the typed tree with wrapping gives
// the exact value. It reports the innermost part that does not fit.
func (c *checker) convert(e Expr, w *WordType) bool {
	if e == nil {
		return false
	}
	u, ok := c.untyped[e]
	if !ok {
		// Already typed (a shift amount, a select condition): leave it.
		return e.Type() != nil
	}
	good := true
	switch x := e.(type) {
	case *ParenExpr:
		good = c.convert(x.X, w)
	case *UnaryExpr:
		good = c.convert(x.X, w)
	case *BinaryExpr:
		good = c.convert(x.L, w)
		if !x.Op.IsShift() {
			good = c.convert(x.R, w) && good
		}
	case *CallExpr:
		for _, a := range x.Args {
			if _, ok := c.untyped[a]; ok {
				good = c.convert(a, w) && good
			}
		}
	}
	delete(c.untyped, e)
	if !good {
		e.SetType(nil)
		return false
	}
	if u.v != nil && !fits(u.v, w) {
		c.errorf(startPos(e), "constant %s overflows %s", u.v, w)
		e.SetType(nil)
		return false
	}
	e.SetType(w)
	// A division of untyped operands that are not constant (a select, a
	// shift by a variable) gets its divisor check only now that it has
	// a type.
	if b, ok := e.(*BinaryExpr); ok && b.Op.IsDivision() {
		b.Checked = false
		if !c.divisor(b.R, b.Pos) {
			e.SetType(nil)
			return false
		}
		b.Checked = c.divChecked(b.R, b.Pos)
	}
	return true
}

// dropUntyped gives an untyped expression that found no type an invalid type.
func (c *checker) dropUntyped(e Expr) {
	if e == nil {
		return
	}
	if _, ok := c.untyped[e]; !ok {
		return
	}
	delete(c.untyped, e)
	e.SetType(nil)
	switch x := e.(type) {
	case *ParenExpr:
		c.dropUntyped(x.X)
	case *UnaryExpr:
		c.dropUntyped(x.X)
	case *BinaryExpr:
		c.dropUntyped(x.L)
		c.dropUntyped(x.R)
	case *CallExpr:
		for _, a := range x.Args {
			c.dropUntyped(a)
		}
	}
}

// untypedArith computes the exact value of an untyped binary operation, or
// nil when it depends on a width. It reports division by zero.
func (c *checker) untypedArith(e *BinaryExpr, a, b *big.Int) (*big.Int, bool) {
	if a == nil || b == nil {
		return nil, true
	}
	r := new(big.Int)
	switch e.Op {
	case sem.OpAdd:
		r.Add(a, b)
	case sem.OpSub:
		r.Sub(a, b)
	case sem.OpMul:
		r.Mul(a, b)
	case sem.OpDiv, sem.OpRem:
		if b.Sign() == 0 {
			c.errorf(e.R.Position(), "division by zero")
			return nil, false
		}
		if a.Sign() < 0 || b.Sign() < 0 {
			return nil, true
		}
		if e.Op == sem.OpDiv {
			r.Quo(a, b)
		} else {
			r.Rem(a, b)
		}
	case sem.OpAnd:
		r.And(a, b)
	case sem.OpOr:
		r.Or(a, b)
	case sem.OpXor:
		r.Xor(a, b)
	case sem.OpShl, sem.OpShr:
		if b.Sign() < 0 || !b.IsUint64() {
			return nil, true
		}
		n := b.Uint64()
		if e.Op == sem.OpShr {
			r.Rsh(a, uint(min(n, 1<<16)))
		} else if a.Sign() == 0 {
			r.SetInt64(0)
		} else if n > 128 {
			c.errorf(e.Position(), "constant shift by %d overflows every word type", n)
			return nil, false
		} else {
			r.Lsh(a, uint(n))
		}
	default:
		return nil, true
	}
	return r, true
}

// ---------------------------------------------------------------- helpers

func isWord(t Type) bool {
	_, ok := t.(*WordType)
	return ok
}

func isBool(t Type) bool {
	_, ok := t.(*BoolType)
	return ok
}

// isArrayOrSlice reports whether t is an array or a slice, and its element.
func isArrayOrSlice(t Type) (Type, bool) {
	switch t := t.(type) {
	case *ArrayType:
		return t.Elem, true
	case *SliceType:
		return t.Elem, true
	}
	return nil, false
}

// typeName prints a type for messages, tolerating nil.
func typeName(t Type) string {
	if t == nil {
		return "invalid type"
	}
	return t.String()
}

// strip removes parentheses.
func strip(e Expr) Expr {
	for {
		p, ok := e.(*ParenExpr)
		if !ok || p.X == nil {
			return e
		}
		e = p.X
	}
}
