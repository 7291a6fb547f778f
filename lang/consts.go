package lang

import (
	"strings"

	"github.com/lowent/lowentc/sem"
)

// resolveConst checks and evaluates a constant declaration once; ref is the
// position of the reference that needs it (for a cycle message). It may run
// in the middle of checking anything else, so it saves the context.
func (c *checker) resolveConst(d *ConstDecl, ref Pos) {
	if d == nil {
		return
	}
	switch c.constState[d] {
	case constDone:
		return
	case constBusy:
		i := 0
		for i < len(c.constStack) && c.constStack[i] != d {
			i++
		}
		var names []string
		for _, x := range c.constStack[i:] {
			names = append(names, x.Name)
		}
		c.errorf(ref, "constant cycle: %s -> %s", strings.Join(names, " -> "), d.Name)
		return
	}
	m := c.constMod[d]
	if m == nil {
		return
	}
	c.constState[d] = constBusy
	c.constStack = append(c.constStack, d)
	saved := c.save()
	c.mod, c.cur, c.scopes, c.absorbs, c.inRequires = m, nil, nil, nil, false
	defer func() {
		c.restore(saved)
		c.constStack = c.constStack[:len(c.constStack)-1]
		c.constState[d] = constDone
	}()
	if d.TypeExpr == nil {
		c.errorf(d.Pos, "constant %s needs a type", d.Name)
	} else {
		d.Type = c.resolveType(d.TypeExpr, false)
	}
	if s := m.scope[d.Name]; s != nil && s.Const == d {
		s.Type = d.Type
	}
	if d.Value == nil {
		c.errorf(d.Pos, "constant %s needs a value", d.Name)
		return
	}
	if d.Type == nil {
		c.looseArgs([]Expr{d.Value})
		return
	}
	if !c.exprAs(d.Value, d.Type, "constant "+d.Name) {
		return
	}
	if v, ok := c.mustConst(d.Value, "the value of constant "+d.Name); ok {
		d.Val = v
	}
}

// context is what resolveConst saves and restores.
type context struct {
	mod        *module
	cur        *funcInfo
	scopes     []map[string]*Symbol
	absorbs    []*absorbInfo
	inRequires bool
}

func (c *checker) save() context {
	return context{c.mod, c.cur, c.scopes, c.absorbs, c.inRequires}
}

func (c *checker) restore(s context) {
	c.mod, c.cur, c.scopes, c.absorbs, c.inRequires = s.mod, s.cur, s.scopes, s.absorbs, s.inRequires
}

// constWord returns the value of a checked word or bool expression when it
// is a compile-time constant.
func (c *checker) constWord(e Expr) (uint64, bool) {
	v, _, _ := c.constEval(e)
	if v == nil || v.Elems != nil {
		return 0, false
	}
	return v.Word, true
}

// constEval evaluates a checked expression when it is constant: literals,
// constants, operators, casts, array literals, indexing of constant arrays
// and len of an array. Otherwise it returns the first part that is not
// constant and why, or an empty reason when an error was already reported.
func (c *checker) constEval(e Expr) (*ConstVal, Expr, string) {
	if e == nil {
		return nil, nil, ""
	}
	// The bounds analysis asks about every subexpression again and again:
	// remember the definite answers (a value, or a reason it has none).
	// A silent failure (an error already reported, or a constant not yet
	// evaluated) is not remembered.
	if r, ok := c.constMemo[e]; ok {
		return r.v, r.bad, r.msg
	}
	v, bad, msg := c.constEval0(e)
	if v != nil || msg != "" {
		c.constMemo[e] = constResult{v, bad, msg}
	}
	return v, bad, msg
}

type constResult struct {
	v   *ConstVal
	bad Expr
	msg string
}

func (c *checker) constEval0(e Expr) (*ConstVal, Expr, string) {
	t := e.Type()
	if t == nil || t == Untyped {
		return nil, nil, ""
	}
	switch x := e.(type) {
	case *IntLit:
		return &ConstVal{Word: x.Val & maskOf(t)}, nil, ""
	case *BoolLit:
		return &ConstVal{Word: b2u(x.Val)}, nil, ""
	case *ParenExpr:
		return c.constEval(x.X)
	case *Ident:
		switch {
		case x.Sym == nil:
			return nil, nil, ""
		case x.Sym.Kind == SymConst:
			if x.Sym.Const == nil || x.Sym.Const.Val == nil {
				return nil, nil, ""
			}
			return x.Sym.Const.Val, nil, ""
		}
		return nil, x, x.Name + " is not a constant"
	case *ArrayLit:
		v := &ConstVal{Elems: make([]*ConstVal, len(x.Elems))}
		for i, el := range x.Elems {
			ev, bad, msg := c.constEval(el)
			if ev == nil {
				return nil, bad, msg
			}
			v.Elems[i] = ev
		}
		return v, nil, ""
	case *IndexExpr:
		xv, bad, msg := c.constEval(x.X)
		if xv == nil {
			return nil, bad, msg
		}
		iv, bad, msg := c.constEval(x.Index)
		if iv == nil {
			return nil, bad, msg
		}
		if iv.Word >= uint64(len(xv.Elems)) {
			return nil, nil, ""
		}
		return xv.Elems[iv.Word], nil, ""
	case *UnaryExpr:
		v, bad, msg := c.constEval(x.X)
		if v == nil {
			return nil, bad, msg
		}
		if WidthOf(t) == 0 {
			return nil, nil, "" // not a word: an error reported elsewhere
		}
		return &ConstVal{Word: sem.EvalUnary(x.Op, WidthOf(t), v.Word)}, nil, ""
	case *BinaryExpr:
		l, bad, msg := c.constEval(x.L)
		if l == nil {
			return nil, bad, msg
		}
		r, bad, msg := c.constEval(x.R)
		if r == nil {
			return nil, bad, msg
		}
		w, ok := evalBinary(x.Op, l.Word, r.Word, x.L.Type())
		if !ok {
			return nil, nil, ""
		}
		return &ConstVal{Word: w}, nil, ""
	case *CastExpr:
		v, bad, msg := c.constEval(x.X)
		if v == nil {
			return nil, bad, msg
		}
		if isBool(t) {
			return &ConstVal{Word: v.Word}, nil, ""
		}
		return &ConstVal{Word: v.Word & maskOf(t)}, nil, ""
	case *CallExpr:
		if x.Builtin != nil && x.Builtin.ID == BLen && len(x.Args) == 1 && isStaticRef(x.Args[0]) {
			if at, ok := x.Args[0].Type().(*ArrayType); ok {
				return &ConstVal{Word: uint64(at.Len)}, nil, ""
			}
		}
		return nil, x, "a call of " + calleeName(x) + " is not constant"
	}
	return nil, e, exprString(e) + " is not constant"
}

// isStaticRef reports whether e names storage without calls or run-time
// indexes, so that len(e) may be folded without dropping anything.
func isStaticRef(e Expr) bool {
	switch x := e.(type) {
	case *Ident:
		return true
	case *ParenExpr:
		return isStaticRef(x.X)
	case *IndexExpr:
		_, isLit := strip(x.Index).(*IntLit)
		return isLit && isStaticRef(x.X)
	}
	return false
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// maskOf is the all-ones value of a word type (1 for bool).
func maskOf(t Type) uint64 {
	if w, ok := t.(*WordType); ok {
		return w.Mask()
	}
	if isBool(t) {
		return 1
	}
	return ^uint64(0)
}

// evalBinary applies a binary operator to operands of type t (the left
// operand's type): sem.EvalBinary at t's width. It fails on a division by
// zero.
func evalBinary(op BinOp, a, b uint64, t Type) (uint64, bool) {
	w := WidthOf(t)
	if w == 0 {
		return 0, false // not a word: an error reported elsewhere
	}
	return sem.EvalBinary(op, w, a, b)
}

// WidthOf is the width in bits at which the operators act on values of
// type t: a word type's bits, 1 for bool, 64 for an untyped constant; 0
// for a type that is not a word.
func WidthOf(t Type) int {
	switch t := t.(type) {
	case *WordType:
		return t.Bits
	case *BoolType:
		return 1
	case *UntypedInt:
		return 64
	}
	return 0
}
