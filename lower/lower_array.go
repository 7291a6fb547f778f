package lower

import (
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

// aref is an array-valued expression: n elements of type typ's element,
// stored flattened in arr from word off on. Views, rows of nested arrays
// and rest(...) are arefs into their source, so they cost no copy.
type aref struct {
	arr *ir.Array
	off *ir.Value // IndexType: first word
	n   *ir.Value // IndexType: number of elements (of typ's element type)
	typ lang.Type // *lang.ArrayType or *lang.SliceType
}

// row returns element i (an array) of the array r.
func (fl *fnLowerer) row(r *aref, i *ir.Value) *aref {
	et := lang.ElemOf(r.typ)
	at, ok := et.(*lang.ArrayType)
	if !ok {
		failf(fl.b.Pos, "element of %v is not an array", r.typ)
	}
	return &aref{arr: r.arr, off: fl.addIdx(r.off, fl.mulIdx(i, uint64(flatLen(at)))), n: fl.idx(uint64(at.Len)), typ: at}
}

// aexpr lowers an expression of array or slice type.
func (fl *fnLowerer) aexpr(e lang.Expr) *aref {
	saved := fl.b.Pos
	fl.b.Pos = e.Position()
	defer func() { fl.b.Pos = saved }()
	switch e := e.(type) {
	case *lang.ParenExpr:
		return fl.aexpr(e.X)
	case *lang.Ident:
		s := e.Sym
		if s == nil {
			failf(e.Pos, "unresolved name %s", e.Name)
		}
		if s.Kind == lang.SymConst {
			g := fl.global(s.Const, e.Pos)
			t := s.Const.Type
			return &aref{arr: g, off: fl.idx(0), n: fl.idx(uint64(t.(*lang.ArrayType).Len)), typ: t}
		}
		if bd, ok := fl.env[s]; ok && bd.arr != nil {
			return bd.arr
		}
		failf(e.Pos, "%s is not an array here", e.Name)
	case *lang.IndexExpr:
		r := fl.aexpr(e.X)
		i := fl.element(fl.expr(e.Index), r.n, e.Checked, e.Pos)
		return fl.row(r, i)
	case *lang.ArrayLit:
		t, ok := e.Type().(*lang.ArrayType)
		if !ok {
			failf(e.Pos, "array literal without an array type")
		}
		tmp := fl.temp(t, "lit")
		fl.fillLiteral(tmp, e)
		return tmp
	case *lang.CallExpr:
		if e.Func == nil && e.Builtin != nil && e.Builtin.ID == lang.BRest {
			return fl.rest(e)
		}
		if e.Func == nil && e.Builtin != nil && e.Builtin.ID == lang.BView {
			return fl.view(e)
		}
		ops := fl.call(e)
		if len(ops) != 1 || ops[0].r == nil {
			failf(e.Pos, "%s does not give one array", e.Name)
		}
		return ops[0].r
	}
	failf(e.Position(), "cannot lower %T as an array", e)
	return nil
}

// view is the range view a[i..j] (of words): an aref into a from element
// i, j-i elements long. Unless the checker proved it, i <= j <= len(a) is
// checked first, in the bounds' own widths.
func (fl *fnLowerer) view(e *lang.CallExpr) *aref {
	r := fl.aexpr(e.Args[0])
	lo := fl.expr(e.Args[1])
	hi := fl.expr(e.Args[2])
	if e.Checked {
		var hiFits *ir.Value // hi <= len(a)
		if hi.Type.Bits() > ir.IndexType.Bits() {
			hiFits = fl.b.Not(fl.b.Ult(fl.b.Zext(hi.Type, r.n), hi))
		} else {
			hiFits = fl.b.Not(fl.b.Ult(r.n, fl.toIndex(hi)))
		}
		wide := lo.Type
		if hi.Type.Bits() > wide.Bits() {
			wide = hi.Type
		}
		widen := func(v *ir.Value) *ir.Value {
			if v.Type == wide {
				return v
			}
			return fl.b.Zext(wide, v)
		}
		ordered := fl.b.Not(fl.b.Ult(widen(hi), widen(lo))) // lo <= hi
		fl.b.Check(fl.b.And(hiFits, ordered), ir.CheckBounds, e.Pos, "range out of bounds")
	}
	i, j := fl.toIndex(lo), fl.toIndex(hi)
	return &aref{arr: r.arr, off: fl.addIdx(r.off, i), n: fl.b.Sub(j, i), typ: e.Type()}
}

// rest is rest(s, N): the elements after the whole N-element chunks.
func (fl *fnLowerer) rest(e *lang.CallExpr) *aref {
	r := fl.aexpr(e.Args[0])
	size := fl.expr(e.Args[1])
	nv, ok := ir.ConstOf(size)
	if !ok || nv == 0 || nv > uint64(ir.IndexType.Mask()) {
		failf(e.Pos, "rest needs a constant chunk size of at least 1")
	}
	k := fl.b.Bin(ir.OpRemU, r.n, fl.idx(nv))
	start := fl.b.Sub(r.n, k)
	return &aref{arr: r.arr, off: fl.addIdx(r.off, fl.mulIdx(start, uint64(stride(r.typ)))), n: k, typ: &lang.SliceType{Elem: lang.ElemOf(r.typ)}}
}

// temp makes a fresh local array of type t.
func (fl *fnLowerer) temp(t *lang.ArrayType, name string) *aref {
	a := fl.f.NewLocal(name, irType(leaf(t), fl.b.Pos), flatLen(t))
	return &aref{arr: a, off: fl.idx(0), n: fl.idx(uint64(t.Len)), typ: t}
}

// fillLiteral evaluates an array literal's elements in order into dst.
func (fl *fnLowerer) fillLiteral(dst *aref, lit *lang.ArrayLit) {
	at := dst.typ.(*lang.ArrayType)
	if len(lit.Elems) != at.Len {
		failf(lit.Pos, "array literal has %d elements, want %d", len(lit.Elems), at.Len)
	}
	for i, x := range lit.Elems {
		if _, ok := at.Elem.(*lang.ArrayType); ok {
			sub := fl.row(dst, fl.idx(uint64(i)))
			if inner, ok := lang.Unparen(x).(*lang.ArrayLit); ok {
				fl.fillLiteral(sub, inner)
			} else {
				fl.copyArray(sub, fl.aexpr(x))
			}
			continue
		}
		fl.b.Store(dst.arr, fl.expr(x), fl.addIdx(dst.off, fl.idx(uint64(i))))
	}
}

// assignArray evaluates src (an array expression) into dst: literals and
// call results go through a temporary first, so that src may read dst.
func (fl *fnLowerer) assignArray(dst *aref, src lang.Expr, fresh bool) {
	if lit, ok := lang.Unparen(src).(*lang.ArrayLit); ok && fresh {
		fl.fillLiteral(dst, lit)
		return
	}
	fl.copyArray(dst, fl.aexpr(src))
}

// copyArray copies the words of src into dst (fixed arrays of one type)
// with a counted loop, which unroll and sroa later dissolve when small.
func (fl *fnLowerer) copyArray(dst, src *aref) {
	if dst.arr == src.arr && dst.off == src.off {
		return
	}
	n := flatLen(dst.typ)
	fl.b.For(ir.IndexType, fl.idx(0), fl.idx(uint64(n)), nil, func(b *ir.Builder, i *ir.Value, _ []*ir.Value) []*ir.Value {
		v := b.Load(src.arr, b.Add(src.off, i))
		b.Store(dst.arr, v, b.Add(dst.off, i))
		return nil
	})
}

// zeroArray stores zero into every word of dst.
func (fl *fnLowerer) zeroArray(dst *aref) {
	n := flatLen(dst.typ)
	t := dst.arr.Elem
	fl.b.For(ir.IndexType, fl.idx(0), fl.idx(uint64(n)), nil, func(b *ir.Builder, i *ir.Value, _ []*ir.Value) []*ir.Value {
		b.Store(dst.arr, b.Const(t, 0), b.Add(dst.off, i))
		return nil
	})
}

// rowsOf reports whether the elements of array or slice type t are arrays.
func rowsOf(t lang.Type) bool {
	_, ok := lang.ElemOf(t).(*lang.ArrayType)
	return ok
}
