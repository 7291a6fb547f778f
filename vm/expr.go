package vm

import (
	"fmt"
	"math/bits"

	"github.com/lowent/lowentc/lang"
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
	switch e := unparen(e).(type) {
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
	mask := maskOf(e.Type())
	switch e.Op {
	case "-":
		return func(fr *frame) uint64 { return -x(fr) & mask }
	case "~":
		return func(fr *frame) uint64 { return ^x(fr) & mask }
	case "!":
		return func(fr *frame) uint64 { return x(fr) ^ 1 }
	}
	panic(fmt.Sprintf("BUG: vm: %v: unary %q", e.Pos, e.Op))
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
	case "&&":
		return func(fr *frame) uint64 {
			if l(fr) == 0 {
				return 0
			}
			return r(fr)
		}
	case "||":
		return func(fr *frame) uint64 {
			if l(fr) != 0 {
				return 1
			}
			return r(fr)
		}
	}
	// The width is the result's (for shifts, the left operand's; the amount
	// may be of any word type). Comparisons do not mask.
	width := 64
	if !isCompare(e.Op) {
		width = bitsOf(e.Type())
	}
	ls, lSlot := c.wordSlot(e.L)
	rs, rSlot := c.wordSlot(e.R)
	k, rConst := constWord(e.R)
	switch {
	case lSlot && rSlot:
		if f := binopSlots(e.Op, width, ls, rs); f != nil {
			return f
		}
	case lSlot && rConst:
		if f := binopSlotConst(e.Op, width, ls, k); f != nil {
			return f
		}
	}
	if rConst {
		if f := binopConst(e.Op, width, l, k); f != nil {
			return f
		}
	}
	return binop(e.Op, width, l, r, e.Pos, e.Checked)
}

// wordSlot reports the frame slot when e reads a word local, parameter or
// loop variable.
func (c *fcomp) wordSlot(e lang.Expr) (int, bool) {
	id, ok := unparen(e).(*lang.Ident)
	if !ok || id.Sym == nil || id.Sym.Kind == lang.SymConst || isArrayish(id.Sym.Type) {
		return 0, false
	}
	return c.slotOf(id), true
}

// binopSlots specialises the bitwise and additive operators on two locals,
// the bulk of hash rounds; nil means no specialisation.
func binopSlots(op string, width int, a, b int) wordFn {
	mask := maskBits(width)
	switch op {
	case "+":
		return func(fr *frame) uint64 { return (fr.w[a] + fr.w[b]) & mask }
	case "^":
		return func(fr *frame) uint64 { return fr.w[a] ^ fr.w[b] }
	case "&":
		return func(fr *frame) uint64 { return fr.w[a] & fr.w[b] }
	case "|":
		return func(fr *frame) uint64 { return fr.w[a] | fr.w[b] }
	}
	return nil
}

// binopSlotConst specialises rotations and shifts of a local by a constant.
func binopSlotConst(op string, width int, a int, k uint64) wordFn {
	mask := maskBits(width)
	w := uint64(width)
	switch op {
	case "<<<", ">>>":
		n := k % w
		if op == ">>>" {
			n = (w - n) % w
		}
		return func(fr *frame) uint64 { return rotl(fr.w[a], n, w, mask) }
	case ">>":
		if k < w {
			return func(fr *frame) uint64 { return fr.w[a] >> k }
		}
	case "<<":
		if k < w {
			return func(fr *frame) uint64 { return fr.w[a] << k & mask }
		}
	}
	return nil
}

func isCompare(op string) bool {
	switch op {
	case "==", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

// binop builds L op R for words of the given width.
func binop(op string, width int, l, r wordFn, pos lang.Pos, checked bool) wordFn {
	mask := maskBits(width)
	w := uint64(width)
	switch op {
	case "+":
		if width == 64 {
			return func(fr *frame) uint64 { return l(fr) + r(fr) }
		}
		return func(fr *frame) uint64 { return (l(fr) + r(fr)) & mask }
	case "-":
		return func(fr *frame) uint64 { return (l(fr) - r(fr)) & mask }
	case "*":
		return func(fr *frame) uint64 { return (l(fr) * r(fr)) & mask }
	case "&":
		return func(fr *frame) uint64 { return l(fr) & r(fr) }
	case "|":
		return func(fr *frame) uint64 { return l(fr) | r(fr) }
	case "^":
		return func(fr *frame) uint64 { return l(fr) ^ r(fr) }
	case "<<":
		return func(fr *frame) uint64 {
			x, s := l(fr), r(fr)
			if s >= w {
				return 0
			}
			return x << s & mask
		}
	case ">>":
		return func(fr *frame) uint64 {
			x, s := l(fr), r(fr)
			if s >= w {
				return 0
			}
			return x >> s
		}
	case "<<<":
		if width == 64 {
			return func(fr *frame) uint64 { x := l(fr); return bits.RotateLeft64(x, int(r(fr)%64)) }
		}
		return func(fr *frame) uint64 { x := l(fr); return rotl(x, r(fr)%w, w, mask) }
	case ">>>":
		if width == 64 {
			return func(fr *frame) uint64 { x := l(fr); return bits.RotateLeft64(x, -int(r(fr)%64)) }
		}
		return func(fr *frame) uint64 { x := l(fr); return rotl(x, (w-r(fr)%w)%w, w, mask) }
	case "/":
		note := bugNote(checked)
		return func(fr *frame) uint64 {
			x, y := l(fr), r(fr)
			if y == 0 {
				trap(pos, "division by zero%s", note)
			}
			return x / y
		}
	case "%":
		note := bugNote(checked)
		return func(fr *frame) uint64 {
			x, y := l(fr), r(fr)
			if y == 0 {
				trap(pos, "remainder by zero%s", note)
			}
			return x % y
		}
	case "==":
		return func(fr *frame) uint64 { return b2u(l(fr) == r(fr)) }
	case "!=":
		return func(fr *frame) uint64 { return b2u(l(fr) != r(fr)) }
	case "<":
		return func(fr *frame) uint64 { return b2u(l(fr) < r(fr)) }
	case "<=":
		return func(fr *frame) uint64 { return b2u(l(fr) <= r(fr)) }
	case ">":
		return func(fr *frame) uint64 { return b2u(l(fr) > r(fr)) }
	case ">=":
		return func(fr *frame) uint64 { return b2u(l(fr) >= r(fr)) }
	}
	panic(fmt.Sprintf("BUG: vm: %v: binary %q", pos, op))
}

// binopConst specialises the frequent operators with a constant right
// operand (rotations by constants, masks, increments); nil means no
// specialisation.
func binopConst(op string, width int, l wordFn, k uint64) wordFn {
	mask := maskBits(width)
	w := uint64(width)
	switch op {
	case "+":
		return func(fr *frame) uint64 { return (l(fr) + k) & mask }
	case "&":
		return func(fr *frame) uint64 { return l(fr) & k }
	case "^":
		return func(fr *frame) uint64 { return l(fr) ^ k }
	case "<<":
		if k >= w {
			return func(fr *frame) uint64 { l(fr); return 0 }
		}
		return func(fr *frame) uint64 { return l(fr) << k & mask }
	case ">>":
		if k >= w {
			return func(fr *frame) uint64 { l(fr); return 0 }
		}
		return func(fr *frame) uint64 { return l(fr) >> k }
	case "<<<", ">>>":
		n := k % w
		if op == ">>>" {
			n = (w - n) % w
		}
		return func(fr *frame) uint64 { return rotl(l(fr), n, w, mask) }
	}
	return nil
}

// rotl rotates the width-bit word x left by n < width.
func rotl(x, n, width, mask uint64) uint64 {
	return (x<<n | x>>(width-n)) & mask
}

// arith is op as a function of two operands, for compound assignments to
// array elements.
func arith(op string, width int, pos lang.Pos) func(a, b uint64) uint64 {
	mask := maskBits(width)
	w := uint64(width)
	switch op {
	case "+":
		return func(a, b uint64) uint64 { return (a + b) & mask }
	case "-":
		return func(a, b uint64) uint64 { return (a - b) & mask }
	case "*":
		return func(a, b uint64) uint64 { return (a * b) & mask }
	case "&":
		return func(a, b uint64) uint64 { return a & b }
	case "|":
		return func(a, b uint64) uint64 { return a | b }
	case "^":
		return func(a, b uint64) uint64 { return a ^ b }
	case "<<":
		return func(a, b uint64) uint64 {
			if b >= w {
				return 0
			}
			return a << b & mask
		}
	case ">>":
		return func(a, b uint64) uint64 {
			if b >= w {
				return 0
			}
			return a >> b
		}
	case "<<<":
		return func(a, b uint64) uint64 { return rotl(a, b%w, w, mask) }
	case ">>>":
		return func(a, b uint64) uint64 { return rotl(a, (w-b%w)%w, w, mask) }
	case "/":
		return func(a, b uint64) uint64 {
			if b == 0 {
				trap(pos, "division by zero")
			}
			return a / b
		}
	case "%":
		return func(a, b uint64) uint64 {
			if b == 0 {
				trap(pos, "remainder by zero")
			}
			return a % b
		}
	}
	panic(fmt.Sprintf("BUG: vm: %v: compound operator %q", pos, op))
}
