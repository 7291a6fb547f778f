package lower

import (
	"fmt"
	"strings"

	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/sem"
)

// idx returns the IndexType constant c.
func (fl *fnLowerer) idx(c uint64) *ir.Value { return fl.b.Const(ir.IndexType, c) }

// addIdx adds two IndexType values, folding constants on the spot so that
// offsets stay readable before the fold pass.
func (fl *fnLowerer) addIdx(a, b *ir.Value) *ir.Value {
	x, okx := ir.ConstOf(a)
	y, oky := ir.ConstOf(b)
	switch {
	case okx && oky:
		return fl.idx(x + y)
	case okx && x == 0:
		return b
	case oky && y == 0:
		return a
	}
	return fl.b.Add(a, b)
}

// mulIdx multiplies an IndexType value by a constant.
func (fl *fnLowerer) mulIdx(a *ir.Value, c uint64) *ir.Value {
	if c == 1 {
		return a
	}
	if x, ok := ir.ConstOf(a); ok {
		return fl.idx(x * c)
	}
	return fl.b.Mul(a, fl.idx(c))
}

// toIndex converts a word to IndexType (an index already checked, or proven
// in range, fits).
func (fl *fnLowerer) toIndex(v *ir.Value) *ir.Value {
	switch {
	case v.Type == ir.IndexType:
		return v
	case v.Type.Bits() > ir.IndexType.Bits():
		return fl.b.Trunc(ir.IndexType, v)
	}
	return fl.b.Zext(ir.IndexType, v)
}

// below returns i < n for a word i of any width and an IndexType n.
func (fl *fnLowerer) below(i, n *ir.Value) *ir.Value {
	if i.Type.Bits() > ir.IndexType.Bits() {
		return fl.b.Ult(i, fl.b.Zext(i.Type, n))
	}
	return fl.b.Ult(fl.toIndex(i), n)
}

// element checks (when the checker asks) and converts index i of an
// array or slice with n elements.
func (fl *fnLowerer) element(i, n *ir.Value, checked bool, pos lang.Pos) *ir.Value {
	if checked {
		fl.b.Check(fl.below(i, n), ir.CheckBounds, pos, "index out of range")
	}
	return fl.toIndex(i)
}

// expr lowers an expression of word or bool type.
func (fl *fnLowerer) expr(e lang.Expr) *ir.Value {
	if e == nil {
		failf(lang.Pos{}, "missing expression")
	}
	saved := fl.b.Pos
	fl.b.Pos = e.Position()
	defer func() { fl.b.Pos = saved }()
	switch e := e.(type) {
	case *lang.ParenExpr:
		return fl.expr(e.X)
	case *lang.IntLit:
		return fl.b.Const(irType(e.Type(), e.Pos), e.Val)
	case *lang.BoolLit:
		return fl.b.Const(ir.Bool, b2u(e.Val))
	case *lang.HaveExpr:
		in := fl.b.Instr(ir.OpHave, []ir.Type{ir.Bool})
		in.Aux = uint64(e.Feat)
		return in.Results[0]
	case *lang.Ident:
		return fl.ident(e)
	case *lang.IndexExpr:
		r := fl.aexpr(e.X)
		if rowsOf(r.typ) {
			failf(e.Pos, "indexing %v gives an array, not a word", r.typ)
		}
		i := fl.element(fl.expr(e.Index), r.n, e.Checked, e.Pos)
		return fl.b.Load(r.arr, fl.addIdx(r.off, i))
	case *lang.CallExpr:
		vals := fl.call(e)
		if len(vals) != 1 || vals[0].v == nil {
			failf(e.Pos, "%s does not give one word", e.Name)
		}
		return vals[0].v
	case *lang.UnaryExpr:
		x := fl.expr(e.X)
		if op := ir.ForUnary(e.Op); op != ir.OpInvalid {
			return fl.b.Op(op, x.Type, x)
		}
	case *lang.BinaryExpr:
		return fl.binary(e)
	case *lang.CastExpr:
		x := fl.expr(e.X)
		to := irType(e.Type(), e.Pos)
		switch {
		case to == x.Type:
			return x
		case to == ir.Bool:
			return fl.b.Ne(x, fl.b.Const(x.Type, 0))
		case to.Bits() > x.Type.Bits():
			return fl.b.Zext(to, x)
		default:
			return fl.b.Trunc(to, x)
		}
	}
	failf(e.Position(), "cannot lower %T as a word", e)
	return nil
}

func (fl *fnLowerer) ident(e *lang.Ident) *ir.Value {
	s := e.Sym
	if s == nil {
		failf(e.Pos, "unresolved name %s", e.Name)
	}
	if s.Kind == lang.SymConst {
		if s.Const == nil || s.Const.Val == nil {
			failf(e.Pos, "constant %s has no value", e.Name)
		}
		t := s.Const.Type
		if t == nil {
			t = s.Type
		}
		return fl.b.Const(irType(t, e.Pos), s.Const.Val.Word)
	}
	bd, ok := fl.env[s]
	switch {
	case !ok:
		failf(e.Pos, "%s is not bound", e.Name)
	case bd.val != nil:
		return bd.val
	case bd.cell != nil:
		return fl.b.Load(bd.cell, fl.idx(0))
	}
	failf(e.Pos, "%s is an array, not a word", e.Name)
	return nil
}

// pure reports whether evaluating e can neither stop the program nor write
// memory, so `&&` and `||` may evaluate it unconditionally.
func pure(e lang.Expr) bool {
	switch e := e.(type) {
	case *lang.ParenExpr:
		return pure(e.X)
	case *lang.IntLit, *lang.BoolLit, *lang.Ident, *lang.HaveExpr:
		return true
	case *lang.IndexExpr:
		return !e.Checked && pure(e.X) && pure(e.Index)
	case *lang.UnaryExpr:
		return pure(e.X)
	case *lang.CastExpr:
		return pure(e.X)
	case *lang.BinaryExpr:
		return !e.Checked && pure(e.L) && pure(e.R)
	case *lang.CallExpr:
		if e.Func != nil || e.Builtin == nil || e.Checked {
			return false
		}
		switch e.Builtin.ID {
		case lang.BLen, lang.BRest, lang.BLoad, lang.BClmulLo, lang.BClmulHi, lang.BSelect:
			for _, a := range e.Args {
				if !pure(a) {
					return false
				}
			}
			return true
		}
	}
	return false
}

func (fl *fnLowerer) binary(e *lang.BinaryExpr) *ir.Value {
	if e.Op.IsLogical() {
		l := fl.expr(e.L)
		if pure(e.R) {
			op := ir.OpAnd
			if e.Op == sem.OpLogOr {
				op = ir.OpOr
			}
			return fl.b.Bin(op, l, fl.expr(e.R))
		}
		rhs := func(b *ir.Builder) []*ir.Value {
			return []*ir.Value{fl.in(b, func() *ir.Value { return fl.expr(e.R) })}
		}
		if e.Op == sem.OpLogAnd {
			return fl.b.If(l, []ir.Type{ir.Bool}, rhs, func(b *ir.Builder) []*ir.Value { return []*ir.Value{b.Const(ir.Bool, 0)} })[0]
		}
		return fl.b.If(l, []ir.Type{ir.Bool}, func(b *ir.Builder) []*ir.Value { return []*ir.Value{b.Const(ir.Bool, 1)} }, rhs)[0]
	}
	l := fl.expr(e.L)
	r := fl.expr(e.R)
	return fl.binop(e.Op, l, r, e.Checked, e.Pos)
}

// in runs fill with the builder moved to b's block.
func (fl *fnLowerer) in(b *ir.Builder, fill func() *ir.Value) *ir.Value {
	saved := fl.b
	fl.b = b
	defer func() { fl.b = saved }()
	return fill()
}

// binop lowers the word operator `l op r` (also the op of `OP=`).
func (fl *fnLowerer) binop(op sem.BinOp, l, r *ir.Value, checked bool, pos lang.Pos) *ir.Value {
	b := fl.b
	if op.IsDivision() && checked {
		b.Check(b.Ne(r, b.Const(r.Type, 0)), ir.CheckDiv, pos, op.DivFault())
	}
	o, swapped := ir.ForBinary(op)
	if o == ir.OpInvalid {
		failf(pos, "unknown operator %s", op)
	}
	if swapped {
		l, r = r, l
	}
	return b.Bin(o, l, r)
}

// operand is one result of a call: a word, or an array (in a temporary).
type operand struct {
	v *ir.Value
	r *aref
}

// call lowers a call of a function or builtin and returns its results.
func (fl *fnLowerer) call(e *lang.CallExpr) []operand {
	if e.Func == nil {
		return fl.builtin(e)
	}
	fd := e.Func
	callee := fl.funcs[fd]
	if callee == nil || len(e.Args) != len(fd.Params) {
		failf(e.Pos, "call of %s does not match its declaration", e.Name)
	}
	var args []ir.CallArg
	binds := map[*lang.Symbol]binding{}
	for i, p := range fd.Params {
		if isArrayish(p.Type) {
			r := fl.aexpr(e.Args[i])
			n := r.n
			if _, fixed := p.Type.(*lang.ArrayType); fixed {
				n = fl.idx(uint64(flatLen(p.Type)))
			}
			args = append(args, ir.CallArg{Arr: r.arr, Off: r.off, Len: n})
			binds[p.Sym] = binding{arr: &aref{arr: r.arr, off: r.off, n: r.n, typ: p.Type}}
		} else {
			v := fl.expr(e.Args[i])
			args = append(args, ir.CallArg{Val: v})
			binds[p.Sym] = binding{val: v}
		}
	}
	if e.CheckRequires {
		for k, req := range fd.Requires {
			for s, bd := range binds {
				fl.env[s] = bd
			}
			cond := fl.expr(req)
			for s := range binds {
				delete(fl.env, s)
			}
			fl.b.Check(cond, ir.CheckRequires, e.Pos, fmt.Sprintf("call of %s: requires clause %d (%s) does not hold", fd.QualName(), k+1, req.Position()))
		}
	}
	var outs []*aref
	for i, out := range fl.outs[fd] {
		if out == nil {
			continue
		}
		t := fd.ResultTypes[i]
		tmp := fl.f.NewLocal(fd.Name+".result", out.Elem, out.Len)
		r := &aref{arr: tmp, off: fl.idx(0), n: fl.idx(uint64(t.(*lang.ArrayType).Len)), typ: t}
		args = append(args, ir.CallArg{Arr: tmp, Off: r.off, Len: fl.idx(uint64(out.Len))})
		outs = append(outs, r)
	}
	res := fl.b.Call(callee, args)
	var ops []operand
	for _, out := range fl.outs[fd] {
		if out == nil {
			ops = append(ops, operand{v: res[0]})
			res = res[1:]
		} else {
			ops = append(ops, operand{r: outs[0]})
			outs = outs[1:]
		}
	}
	return ops
}

// builtin lowers a call of a builtin.
func (fl *fnLowerer) builtin(e *lang.CallExpr) []operand {
	bi := e.Builtin
	if bi == nil {
		failf(e.Pos, "call of %s is unresolved", e.Name)
	}
	a := e.Args
	one := func(v *ir.Value) []operand { return []operand{{v: v}} }
	switch bi.ID {
	case lang.BLen:
		return one(fl.aexpr(a[0]).n)
	case lang.BRest:
		return []operand{{r: fl.aexpr(e)}}
	case lang.BLoad:
		r := fl.aexpr(a[0])
		off := fl.expr(a[1])
		o := fl.byteOffset(r, off, bi, e)
		return one(fl.b.LoadBytes(bi.BigEndian, bi.Bits, r.arr, o))
	case lang.BStore:
		r := fl.aexpr(a[0])
		off := fl.expr(a[1])
		v := fl.expr(a[2])
		o := fl.byteOffset(r, off, bi, e)
		fl.b.StoreBytes(bi.BigEndian, r.arr, v, o)
		return nil
	case lang.BClmulLo, lang.BClmulHi:
		op := ir.OpClmulLo
		if bi.ID == lang.BClmulHi {
			op = ir.OpClmulHi
		}
		x := fl.expr(a[0])
		y := fl.expr(a[1])
		return one(fl.b.Op(op, ir.U64, x, y))
	case lang.BAESEnc, lang.BAESEncLast:
		op := ir.OpAESEnc
		if bi.ID == lang.BAESEncLast {
			op = ir.OpAESEncLast
		}
		var xs []*ir.Value
		for _, x := range a {
			xs = append(xs, fl.expr(x))
		}
		in := fl.b.Instr(op, []ir.Type{ir.U64, ir.U64}, xs...)
		return []operand{{v: in.Results[0]}, {v: in.Results[1]}}
	case lang.BMulW:
		x := fl.expr(a[0])
		y := fl.expr(a[1])
		lo, hi := fl.b.Pair(ir.OpMulW, x, y)
		return []operand{{v: lo}, {v: hi}}
	case lang.BSHA256Rnds2, lang.BSHA256Msg1, lang.BSHA256Msg2:
		op := ir.SHA256Op(bi.ID)
		var xs []*ir.Value
		for _, x := range a {
			xs = append(xs, fl.expr(x))
		}
		in := fl.b.Instr(op, []ir.Type{ir.U32, ir.U32, ir.U32, ir.U32}, xs...)
		ops := make([]operand, 4)
		for i, r := range in.Results {
			ops[i] = operand{v: r}
		}
		return ops
	case lang.BSelect:
		c := fl.expr(a[0])
		x := fl.expr(a[1])
		y := fl.expr(a[2])
		return one(fl.b.Select(c, x, y))
	case lang.BUncheckedGet:
		r := fl.aexpr(a[0])
		i := fl.toIndex(fl.expr(a[1]))
		if rowsOf(r.typ) {
			return []operand{{r: fl.row(r, i)}}
		}
		return one(fl.b.Load(r.arr, fl.addIdx(r.off, i)))
	case lang.BUncheckedSet:
		r := fl.aexpr(a[0])
		i := fl.toIndex(fl.expr(a[1]))
		if rowsOf(r.typ) {
			src := fl.aexpr(a[2])
			fl.copyArray(fl.row(r, i), src)
			return nil
		}
		v := fl.expr(a[2])
		fl.b.Store(r.arr, v, fl.addIdx(r.off, i))
		return nil
	case lang.BTrace:
		var vals []*ir.Value
		for _, x := range a {
			if isArrayish(x.Type()) {
				fl.aexpr(x)
				continue
			}
			vals = append(vals, fl.expr(x))
		}
		fl.b.Instr(ir.OpTrace, nil, vals...)
		return nil
	}
	failf(e.Pos, "builtin %s cannot be lowered here", bi.Name)
	return nil
}

// byteOffset checks (when asked) that bytes [off, off+bits/8) lie in r and
// returns the byte's index in r's array.
func (fl *fnLowerer) byteOffset(r *aref, off *ir.Value, bi *lang.Builtin, e *lang.CallExpr) *ir.Value {
	b := fl.b
	if e.Checked {
		n := r.n
		o := off
		if off.Type.Bits() > ir.IndexType.Bits() {
			n = b.Zext(off.Type, n)
		} else {
			o = fl.toIndex(off)
		}
		nb := b.Const(o.Type, uint64(bi.Bits/8))
		ok := b.And(b.Ule(o, n), b.Ule(nb, b.Sub(n, o)))
		b.Check(ok, ir.CheckBounds, e.Pos, strings.TrimSpace(bi.Name+": bytes out of range"))
	}
	return fl.addIdx(r.off, fl.toIndex(off))
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
