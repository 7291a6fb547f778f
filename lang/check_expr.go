package lang

import (
	"fmt"
	"math/big"

	"github.com/lowent/lowentc/sem"
)

// expr checks e where its context gives it no type and returns its type:
// Untyped for an untyped constant expression (the caller converts it), nil
// after an error (already reported). It sets e's type.
func (c *checker) expr(e Expr) Type {
	if e == nil {
		return nil
	}
	t := c.expr0(e)
	e.SetType(t)
	return t
}

func (c *checker) expr0(e Expr) Type {
	switch e := e.(type) {
	case *IntLit:
		return c.setUntyped(e, new(big.Int).SetUint64(e.Val))
	case *BoolLit:
		return Bool
	case *HaveExpr:
		f, ok := FeatureByName(e.Feature)
		if !ok {
			c.errorf(e.Pos, "have %s: unknown hardware feature (known: %s)", e.Feature, FeatureSet(0xff))
			return nil
		}
		e.Feat = f
		return Bool
	case *Ident:
		return c.ident(e)
	case *ParenExpr:
		t := c.expr(e.X)
		if t == Untyped {
			return c.setUntyped(e, c.untyped[e.X].v)
		}
		return t
	case *ArrayLit:
		c.errorf(e.Pos, "an array literal is only allowed where an array type is expected")
		return nil
	case *IndexExpr:
		return c.index(e)
	case *CallExpr:
		t, ok := c.call(e)
		if !ok {
			return nil
		}
		switch t := t.(type) {
		case nil:
			c.errorf(e.Pos, "%s returns no value", calleeName(e))
			return nil
		case *TupleType:
			c.errorf(e.Pos, "%s returns %d values; bind them with let (a, b) = %s(...)", calleeName(e), len(t.Elems), calleeName(e))
			return nil
		}
		return t
	case *UnaryExpr:
		return c.unary(e)
	case *BinaryExpr:
		return c.binary(e)
	case *CastExpr:
		return c.cast(e)
	}
	c.errorf(e.Position(), "unexpected expression")
	return nil
}

// exprAs checks e where a value of type want is expected (ctx names the
// place, e.g. "assignment"), converting an untyped constant and accepting an
// array literal when want is an array type. It reports false after an error.
func (c *checker) exprAs(e Expr, want Type, ctx string) bool {
	if e == nil {
		return false
	}
	if want == nil {
		// The expected type is invalid (already reported): check e for its
		// own errors only.
		if _, ok := strip(e).(*ArrayLit); !ok && c.expr(e) == Untyped {
			c.dropUntyped(e)
		}
		return false
	}
	if lit, ok := strip(e).(*ArrayLit); ok {
		return c.arrayLit(e, lit, want, ctx)
	}
	t := c.expr(e)
	switch {
	case t == nil:
		return false
	case t == Untyped:
		w, ok := want.(*WordType)
		if !ok {
			c.errorf(startPos(e), "cannot use constant %s as %s in %s", exprString(e), want, ctx)
			c.dropUntyped(e)
			return false
		}
		return c.convert(e, w)
	case !Identical(t, want):
		c.errorf(startPos(e), "cannot use %s as %s in %s", t, want, ctx)
		return false
	}
	return true
}

// arrayLit checks an array literal (e, possibly parenthesised lit) of type want.
func (c *checker) arrayLit(e Expr, lit *ArrayLit, want Type, ctx string) bool {
	at, ok := want.(*ArrayType)
	if !ok {
		c.errorf(lit.Pos, "cannot use an array literal as %s in %s", want, ctx)
		return false
	}
	good := true
	for _, el := range lit.Elems {
		good = c.exprAs(el, at.Elem, "array element") && good
	}
	if len(lit.Elems) != at.Len {
		c.errorf(lit.Pos, "array literal has %d elements, %s needs %d", len(lit.Elems), at, at.Len)
		good = false
	}
	for x := e; ; {
		if good {
			x.SetType(want)
		} else {
			x.SetType(nil)
		}
		p, ok := x.(*ParenExpr)
		if !ok {
			break
		}
		x = p.X
	}
	return good
}

// ident resolves a name used as a value.
func (c *checker) ident(e *Ident) Type {
	var s *Symbol
	if e.Module != "" {
		m := c.importedModule(e.Module, e.Pos)
		if m == nil {
			return nil
		}
		s = m.scope[e.Name]
		if s == nil {
			c.errorf(e.Pos, "undefined: %s.%s", e.Module, e.Name)
			return nil
		}
	} else {
		if e.Name == "_" {
			c.errorf(e.Pos, "_ is not a value")
			return nil
		}
		s = c.lookup(e.Name)
		if s == nil {
			c.errorf(e.Pos, "undefined: %s", e.Name)
			return nil
		}
	}
	e.Sym = s
	switch s.Kind {
	case SymFunc:
		c.errorf(e.Pos, "function %s is not a value; call it", e.Name)
		return nil
	case SymConst:
		c.resolveConst(s.Const, e.Pos)
		s.Type = s.Const.Type
		return s.Const.Type
	}
	return s.Type
}

// unary checks -x, ~x and !x.
func (c *checker) unary(e *UnaryExpr) Type {
	t := c.expr(e.X)
	if t == nil {
		return nil
	}
	switch e.Op {
	case sem.OpNeg, sem.OpBitNot:
		if t == Untyped {
			// The value depends on the width the expression will get.
			return c.setUntyped(e, nil)
		}
		if !isWord(t) {
			c.errorf(e.Pos, "operator %s needs a word operand, not %s", e.Op, t)
			return nil
		}
		return t
	case sem.OpLogNot:
		if !isBool(t) {
			c.errorf(e.Pos, "operator ! needs a bool operand, not %s", typeName(t))
			c.dropUntyped(e.X)
			return nil
		}
		return Bool
	}
	c.errorf(e.Pos, "unknown operator %s", e.Op)
	return nil
}

// binary checks a binary operation.
func (c *checker) binary(e *BinaryExpr) Type {
	switch {
	case e.Op.IsLogical():
		l, r := c.expr(e.L), c.expr(e.R)
		good := l != nil && r != nil
		for _, x := range []struct {
			e Expr
			t Type
		}{{e.L, l}, {e.R, r}} {
			if x.t != nil && !isBool(x.t) {
				c.errorf(x.e.Position(), "operator %s needs bool operands, not %s", e.Op, x.t)
				c.dropUntyped(x.e)
				good = false
			}
		}
		if !good {
			return nil
		}
		return Bool
	case e.Op.IsShift():
		return c.shift(e)
	case e.Op.IsCompare():
		t := c.unifyPair(e.L, e.R, e.Op.String(), e.Pos)
		switch {
		case t == nil:
			return nil
		case t == Untyped:
			c.errorf(e.Pos, "cannot compare two untyped constants; give one a type (1 as u32)")
			c.dropUntyped(e.L)
			c.dropUntyped(e.R)
			return nil
		case isWord(t):
		case isBool(t) && (e.Op == sem.OpEq || e.Op == sem.OpNe):
		default:
			c.errorf(e.Pos, "operator %s is not defined on %s", e.Op, t)
			return nil
		}
		return Bool
	case e.Op.IsArith():
		t := c.unifyPair(e.L, e.R, e.Op.String(), e.Pos)
		switch {
		case t == nil:
			return nil
		case t == Untyped:
			v, ok := c.untypedArith(e, c.untyped[e.L].v, c.untyped[e.R].v)
			if !ok {
				c.dropUntyped(e.L)
				c.dropUntyped(e.R)
				return nil
			}
			return c.setUntyped(e, v)
		case !isWord(t):
			c.errorf(e.Pos, "operator %s is not defined on %s", e.Op, t)
			return nil
		}
		e.Checked = false
		if e.Op.IsDivision() {
			if !c.divisor(e.R, e.Pos) {
				return nil
			}
			e.Checked = c.divChecked(e.R, e.Pos)
		}
		return t
	}
	c.errorf(e.Pos, "unknown operator %s", e.Op)
	return nil
}

// unifyOne converts the untyped operand u to the type t of the other operand.
func (c *checker) unifyOne(op string, u Expr, t Type, p Pos) Type {
	w, ok := t.(*WordType)
	if !ok {
		c.errorf(p, "mismatched types %s and untyped integer in %s", t, op)
		c.dropUntyped(u)
		return nil
	}
	if !c.convert(u, w) {
		return nil
	}
	return t
}

// shift checks << >> <<< >>>: the amount is any word type (an untyped amount
// is u32), the result has the left operand's type.
func (c *checker) shift(e *BinaryExpr) Type {
	lt := c.expr(e.L)
	rt := c.expr(e.R)
	good := lt != nil
	switch {
	case rt == nil:
		good = false
	case rt == Untyped:
		good = c.convert(e.R, U32) && good
	case !isWord(rt):
		c.errorf(e.R.Position(), "shift amount must be a word, not %s", rt)
		good = false
	}
	if !good {
		c.dropUntyped(e.L)
		return nil
	}
	if lt == Untyped {
		var v *big.Int
		if amt, ok := c.constWord(e.R); ok && (e.Op == sem.OpShl || e.Op == sem.OpShr) {
			var ok bool
			if v, ok = c.untypedArith(e, c.untyped[e.L].v, new(big.Int).SetUint64(amt)); !ok {
				c.dropUntyped(e.L)
				return nil
			}
		}
		return c.setUntyped(e, v)
	}
	if !isWord(lt) {
		c.errorf(e.Pos, "operator %s is not defined on %s", e.Op, lt)
		return nil
	}
	return lt
}

// divisor rejects a constant zero divisor.
func (c *checker) divisor(r Expr, p Pos) bool {
	if v, ok := c.constWord(r); ok && v == 0 {
		c.errorf(r.Position(), "division by zero")
		return false
	}
	return true
}

// divChecked decides whether a division by r needs a run-time check, and
// records the trap when it does.
func (c *checker) divChecked(r Expr, p Pos) bool {
	if c.cur == nil || c.inRequires || c.rangeOf(r).lo > 0 {
		return false
	}
	c.trapSite(p, "divisor not proven non-zero (checked at run time)")
	return true
}

// cast checks `x as T`.
func (c *checker) cast(e *CastExpr) Type {
	to := c.resolveType(e.To, false)
	t := c.expr(e.X)
	if to == nil || t == nil {
		c.dropUntyped(e.X)
		return nil
	}
	switch {
	case !isWord(to) && !isBool(to):
		c.errorf(e.Pos, "cannot convert to %s: only word and bool conversions exist", to)
		c.dropUntyped(e.X)
		return nil
	case t == Untyped:
		w, ok := to.(*WordType)
		if !ok {
			c.errorf(e.Pos, "cannot convert constant %s to bool (compare it with 0)", exprString(e.X))
			c.dropUntyped(e.X)
			return nil
		}
		if !c.convert(e.X, w) {
			return nil
		}
	case isWord(t) && isBool(to):
		c.errorf(e.Pos, "cannot convert %s to bool (compare it with 0)", t)
		return nil
	case !isWord(t) && !isBool(t):
		c.errorf(e.Pos, "cannot convert %s to %s", t, to)
		return nil
	}
	return to
}

// index checks x[i].
func (c *checker) index(e *IndexExpr) Type {
	e.Checked = false
	xt := c.expr(e.X)
	it := c.expr(e.Index)
	good := true
	switch {
	case it == nil:
		good = false
	case it == Untyped:
		good = c.convert(e.Index, U32)
	case !isWord(it):
		c.errorf(e.Index.Position(), "index must be a word, not %s", it)
		good = false
	}
	if xt == nil {
		return nil
	}
	elem, ok := isArrayOrSlice(xt)
	if !ok {
		c.errorf(e.Pos, "cannot index %s", xt)
		return nil
	}
	if !good {
		return nil
	}
	if at, ok := xt.(*ArrayType); ok {
		if v, ok := c.constWord(e.Index); ok && v >= uint64(at.Len) {
			c.errorf(e.Index.Position(), "index %d out of bounds for %s", v, at)
			return nil
		}
	}
	if c.cur != nil && !c.inRequires && !c.indexProven(e.X, e.Index) {
		e.Checked = true
		c.trapSite(e.Pos, "index not proven in bounds (checked at run time)")
	}
	return elem
}

// exprString prints an expression for messages.
func exprString(e Expr) string {
	switch e := e.(type) {
	case nil:
		return "?"
	case *IntLit:
		if e.Text != "" {
			return e.Text
		}
		return fmt.Sprint(e.Val)
	case *BoolLit:
		return fmt.Sprint(e.Val)
	case *HaveExpr:
		return "have " + e.Feature
	case *Ident:
		if e.Module != "" {
			return e.Module + "." + e.Name
		}
		return e.Name
	case *ParenExpr:
		return "(" + exprString(e.X) + ")"
	case *ArrayLit:
		s := "["
		for i, x := range e.Elems {
			if i > 0 {
				s += ", "
			}
			s += exprString(x)
		}
		return s + "]"
	case *IndexExpr:
		return exprString(e.X) + "[" + exprString(e.Index) + "]"
	case *CallExpr:
		if e.Name == ViewName && e.Module == "" && len(e.Args) == 3 {
			return exprString(e.Args[0]) + "[" + exprString(e.Args[1]) + ".." + exprString(e.Args[2]) + "]"
		}
		s := calleeName(e) + "("
		for i, x := range e.Args {
			if i > 0 {
				s += ", "
			}
			s += exprString(x)
		}
		return s + ")"
	case *UnaryExpr:
		return e.Op.String() + exprString(e.X)
	case *BinaryExpr:
		return exprString(e.L) + " " + e.Op.String() + " " + exprString(e.R)
	case *CastExpr:
		return exprString(e.X) + " as " + typeExprString(e.To)
	}
	return "?"
}

func typeExprString(t *TypeExpr) string {
	switch {
	case t == nil:
		return "?"
	case t.Tuple != nil:
		s := "("
		for i, x := range t.Tuple {
			if i > 0 {
				s += ", "
			}
			s += typeExprString(x)
		}
		return s + ")"
	case t.Slice:
		return "[]" + typeExprString(t.Elem)
	case t.Len != nil:
		return "[" + exprString(t.Len) + "]" + typeExprString(t.Elem)
	}
	return t.Name
}

// startPos is where an expression's text begins (a binary expression's own
// position is its operator), for messages about the whole expression.
func startPos(e Expr) Pos {
	switch x := e.(type) {
	case *BinaryExpr:
		if x.L != nil {
			return startPos(x.L)
		}
	case *IndexExpr:
		if x.X != nil {
			return startPos(x.X)
		}
	case *CastExpr:
		if x.X != nil {
			return startPos(x.X)
		}
	}
	return e.Position()
}
