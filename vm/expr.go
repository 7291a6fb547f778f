package vm

import (
	"fmt"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/sem"
)

// word compiles an expression of word or bool type (bools are 0 or 1).
func (c *fcomp) word(e lang.Expr) wordFn {
	if k, ok := constWord(e); ok {
		return func(*frame) uint64 { return k }
	}
	switch e := e.(type) {
	case *lang.ParenExpr:
		return c.word(e.X)
	case *lang.Ident:
		slot := c.slotOf(e)
		return func(fr *frame) uint64 { return fr.w[slot] }
	case *lang.IndexExpr:
		return c.indexWord(e)
	case *lang.CallExpr:
		if e.Func != nil {
			call := c.call(e)
			return func(fr *frame) uint64 { return call(fr).res[0] }
		}
		return c.builtinWord(e)
	case *lang.UnaryExpr:
		return c.unary(e)
	case *lang.BinaryExpr:
		return c.binary(e)
	case *lang.CastExpr:
		return c.cast(e)
	case *lang.HaveExpr:
		f := lang.FeatureSet(e.Feat)
		return func(fr *frame) uint64 {
			if fr.m.feats&f != 0 {
				return 1
			}
			return 0
		}
	}
	panic(fmt.Sprintf("BUG: vm: %v: %T is not a word expression", e.Position(), e))
}

// constWord reports the value of a literal or a word constant.
func constWord(e lang.Expr) (uint64, bool) {
	switch e := lang.Unparen(e).(type) {
	case *lang.IntLit:
		return e.Val & maskOf(e.Type()), true
	case *lang.BoolLit:
		if e.Val {
			return 1, true
		}
		return 0, true
	case *lang.Ident:
		if e.Sym != nil && e.Sym.Kind == lang.SymConst && !isArrayish(e.Sym.Type) {
			if e.Sym.Const == nil || e.Sym.Const.Val == nil {
				panic(fmt.Sprintf("BUG: vm: %v: constant %s has no value", e.Pos, e.Name))
			}
			return e.Sym.Const.Val.Word & maskOf(constType(e)), true
		}
	}
	return 0, false
}

// constType is the declared type of the constant id names.
func constType(id *lang.Ident) lang.Type {
	if t := id.Sym.Const.Type; t != nil {
		return t
	}
	return id.Sym.Type
}

func (c *fcomp) unary(e *lang.UnaryExpr) wordFn {
	x := c.word(e.X)
	f := sem.UnaryFunc(e.Op, bitsOf(e.Type()))
	return func(fr *frame) uint64 { return f(x(fr)) }
}

func (c *fcomp) cast(e *lang.CastExpr) wordFn {
	x := c.word(e.X)
	if _, ok := e.Type().(*lang.BoolType); ok {
		return func(fr *frame) uint64 { return b2u(x(fr) != 0) }
	}
	to := maskOf(e.Type())
	if maskOf(e.X.Type())&^to == 0 {
		return x // widening or same width: nothing to do
	}
	return func(fr *frame) uint64 { return x(fr) & to }
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func (c *fcomp) binary(e *lang.BinaryExpr) wordFn {
	l, r := c.word(e.L), c.word(e.R)
	switch e.Op {
	case sem.OpLogAnd:
		return func(fr *frame) uint64 {
			if l(fr) == 0 {
				return 0
			}
			return r(fr)
		}
	case sem.OpLogOr:
		return func(fr *frame) uint64 {
			if l(fr) != 0 {
				return 1
			}
			return r(fr)
		}
	}
	// The width is the result's (for shifts, the left operand's; the
	// amount may be of any word type), for comparisons the operands'.
	width := bitsOf(e.Type())
	if e.Op.IsCompare() {
		width = bitsOf(e.L.Type())
	}
	f := sem.BinaryFunc(e.Op, width)
	if e.Op.IsDivision() {
		return divide(f, l, r, e.Op.DivFault()+bugNote(e.Checked), e.Pos)
	}
	// Operands that are locals or constants (the bulk of hash rounds)
	// are read directly, without a closure of their own.
	ls, lSlot := c.wordSlot(e.L)
	rs, rSlot := c.wordSlot(e.R)
	k, rConst := constWord(e.R)
	switch {
	case lSlot && rSlot:
		return func(fr *frame) uint64 { return f(fr.w[ls], fr.w[rs]) }
	case lSlot && rConst:
		return func(fr *frame) uint64 { return f(fr.w[ls], k) }
	case rConst:
		return func(fr *frame) uint64 { return f(l(fr), k) }
	}
	return func(fr *frame) uint64 { return f(l(fr), r(fr)) }
}

// divide is l / r or l % r (f) that traps with the message what on a zero
// divisor.
func divide(f func(a, b uint64) uint64, l, r wordFn, what string, pos lang.Pos) wordFn {
	return func(fr *frame) uint64 {
		x, y := l(fr), r(fr)
		if y == 0 {
			trap(pos, "%s", what)
		}
		return f(x, y)
	}
}

// wordSlot reports the frame slot when e reads a word local, parameter or
// loop variable.
func (c *fcomp) wordSlot(e lang.Expr) (int, bool) {
	id, ok := lang.Unparen(e).(*lang.Ident)
	if !ok || id.Sym == nil || id.Sym.Kind == lang.SymConst || isArrayish(id.Sym.Type) {
		return 0, false
	}
	return c.slotOf(id), true
}
