package vm

import (
	"fmt"

	"github.com/lowent/lowentc/lang"
)

// arr compiles an expression of array or slice type to a reference to its
// storage: no copy is made, so the consumer decides whether to copy (let,
// var, =, return) or to share (parameters, views).
func (c *fcomp) arr(e lang.Expr) arrFn {
	switch e := e.(type) {
	case *lang.ParenExpr:
		return c.arr(e.X)
	case *lang.Ident:
		if e.Sym != nil && e.Sym.Kind == lang.SymConst {
			data := c.constData(e)
			return func(*frame) []uint64 { return data }
		}
		slot := c.slotOf(e)
		return func(fr *frame) []uint64 { return fr.a[slot] }
	case *lang.IndexExpr:
		return c.indexArr(e)
	case *lang.ArrayLit:
		return c.arrayLit(e)
	case *lang.CallExpr:
		if e.Func != nil {
			call := c.call(e)
			return func(fr *frame) []uint64 { return call(fr).resA[0] }
		}
		return c.builtinArr(e)
	}
	panic(fmt.Sprintf("BUG: vm: %v: %T is not an array expression", e.Position(), e))
}

// constData is the flattened value of a constant array, shared by every run:
// the checker forbids writing to constants.
func (c *fcomp) constData(id *lang.Ident) []uint64 {
	cd := id.Sym.Const
	if cd == nil || cd.Val == nil {
		panic(fmt.Sprintf("BUG: vm: %v: constant %s has no value", id.Pos, id.Name))
	}
	if c.pc.consts == nil {
		c.pc.consts = map[*lang.ConstDecl][]uint64{}
	}
	if d, ok := c.pc.consts[cd]; ok {
		return d
	}
	d := flattenConst(cd.Val, constType(id), nil)
	c.pc.consts[cd] = d
	return d
}

// arrSlot reports the frame slot when e names a local, parameter or view.
func (c *fcomp) arrSlot(e lang.Expr) (int, bool) {
	id, ok := lang.Unparen(e).(*lang.Ident)
	if !ok || id.Sym == nil || id.Sym.Kind == lang.SymConst {
		return 0, false
	}
	return c.slotOf(id), true
}

//go:noinline
func trapIndex(pos lang.Pos, i uint64, n int, note string) {
	trap(pos, "index %d out of range for length %d%s", i, n, note)
}

// indexWord is X[I] with a word element. Every index is checked, proven or
// not: a proven index out of range is a checker bug, and the note says so.
func (c *fcomp) indexWord(e *lang.IndexExpr) wordFn {
	if s := stride(e.X.Type()); s != 1 {
		panic(fmt.Sprintf("BUG: vm: %v: word index into elements of %d words", e.Pos, s))
	}
	idx := c.word(e.Index)
	pos, note := e.Pos, bugNote(e.Checked)
	if slot, ok := c.arrSlot(e.X); ok {
		if k, ok := constWord(e.Index); ok {
			return func(fr *frame) uint64 {
				a := fr.a[slot]
				if k >= uint64(len(a)) {
					trapIndex(pos, k, len(a), note)
				}
				return a[k]
			}
		}
		return func(fr *frame) uint64 {
			a := fr.a[slot]
			i := idx(fr)
			if i >= uint64(len(a)) {
				trapIndex(pos, i, len(a), note)
			}
			return a[i]
		}
	}
	base := c.arr(e.X)
	return func(fr *frame) uint64 {
		a := base(fr)
		i := idx(fr)
		if i >= uint64(len(a)) {
			trapIndex(pos, i, len(a), note)
		}
		return a[i]
	}
}

// indexArr is X[I] with an array element: a view of the element's words.
func (c *fcomp) indexArr(e *lang.IndexExpr) arrFn {
	base, idx := c.arr(e.X), c.word(e.Index)
	s := uint64(stride(e.X.Type()))
	pos, note := e.Pos, bugNote(e.Checked)
	return func(fr *frame) []uint64 {
		a := base(fr)
		i := idx(fr)
		n := uint64(len(a)) / s
		if i >= n {
			trapIndex(pos, i, int(n), note)
		}
		return a[i*s : (i+1)*s : (i+1)*s]
	}
}

// wordPlace compiles an assignment target of word type to a function that
// evaluates its index, checks it, and returns where to store.
func (c *fcomp) wordPlace(e lang.Expr) func(fr *frame) *uint64 {
	switch e := lang.Unparen(e).(type) {
	case *lang.Ident:
		slot := c.slotOf(e)
		return func(fr *frame) *uint64 { return &fr.w[slot] }
	case *lang.IndexExpr:
		if s := stride(e.X.Type()); s != 1 {
			panic(fmt.Sprintf("BUG: vm: %v: word store into elements of %d words", e.Pos, s))
		}
		idx := c.word(e.Index)
		pos, note := e.Pos, bugNote(e.Checked)
		if slot, ok := c.arrSlot(e.X); ok {
			return func(fr *frame) *uint64 {
				a := fr.a[slot]
				i := idx(fr)
				if i >= uint64(len(a)) {
					trapIndex(pos, i, len(a), note)
				}
				return &a[i]
			}
		}
		base := c.arr(e.X)
		return func(fr *frame) *uint64 {
			a := base(fr)
			i := idx(fr)
			if i >= uint64(len(a)) {
				trapIndex(pos, i, len(a), note)
			}
			return &a[i]
		}
	}
	panic(fmt.Sprintf("BUG: vm: %v: %T is not assignable", e.Position(), e))
}

// arrayLit builds the literal in a scratch buffer of the frame. The buffer
// is reused by the next evaluation, so every consumer that keeps the value
// copies it (let, =, return) or only reads it during a call (parameters).
func (c *fcomp) arrayLit(e *lang.ArrayLit) arrFn {
	at, ok := e.Type().(*lang.ArrayType)
	if !ok || at.Len != len(e.Elems) {
		panic(fmt.Sprintf("BUG: vm: %v: array literal of type %v has %d elements", e.Pos, e.Type(), len(e.Elems)))
	}
	id := c.tmp(flatLen(at))
	if !isArrayish(at.Elem) {
		elems := make([]wordFn, len(e.Elems))
		for i, x := range e.Elems {
			elems[i] = c.word(x)
		}
		return func(fr *frame) []uint64 {
			t := fr.tmp[id]
			for i, w := range elems {
				t[i] = w(fr)
			}
			return t
		}
	}
	s := flatLen(at.Elem)
	elems := make([]arrFn, len(e.Elems))
	for i, x := range e.Elems {
		elems[i] = c.arr(x)
	}
	return func(fr *frame) []uint64 {
		t := fr.tmp[id]
		for i, a := range elems {
			copy(t[i*s:(i+1)*s], a(fr))
		}
		return t
	}
}

// call compiles a call of a user function. It returns the callee's frame,
// whose res/resA hold the results until the next call of that function.
func (c *fcomp) call(e *lang.CallExpr) func(fr *frame) *frame {
	callee := c.pc.fn(e.Func)
	params := e.Func.Params
	if len(params) != len(e.Args) {
		panic(fmt.Sprintf("BUG: vm: %v: %d arguments for %d parameters", e.Pos, len(e.Args), len(params)))
	}
	type arg struct {
		slot int
		w    wordFn
		a    arrFn
	}
	args := make([]arg, len(params))
	for i, prm := range params {
		args[i].slot = prm.Sym.Slot
		if isArrayish(prm.Type) {
			args[i].a = c.arr(e.Args[i])
		} else {
			args[i].w = c.word(e.Args[i])
		}
	}
	pos, note := e.Pos, bugNote(e.CheckRequires)
	return func(fr *frame) *frame {
		m := fr.m
		cf := m.acquire(callee)
		for i := range args {
			a := &args[i]
			if a.w != nil {
				cf.w[a.slot] = a.w(fr)
			} else {
				cf.a[a.slot] = a.a(fr)
			}
		}
		for k, req := range callee.requires {
			if req(cf) == 0 {
				trapRequires(pos, callee.decl, k, note)
			}
		}
		m.steps++
		callee.body(cf)
		m.release(callee, cf)
		return cf
	}
}

//go:noinline
func trapRequires(pos lang.Pos, fn *lang.FuncDecl, k int, note string) {
	trap(pos, "call of %s: requires clause %d (%v) does not hold%s",
		fn.QualName(), k+1, fn.Requires[k].Position(), note)
}

// tuple compiles a multi-result call: a user function or aes_enc/aes_enclast.
func (c *fcomp) tuple(e lang.Expr) tupleFn {
	ce, ok := lang.Unparen(e).(*lang.CallExpr)
	if !ok {
		panic(fmt.Sprintf("BUG: vm: %v: %T is not a multi-result call", e.Position(), e))
	}
	if ce.Func != nil {
		call := c.call(ce)
		return func(fr *frame) ([]uint64, [][]uint64) {
			cf := call(fr)
			return cf.res, cf.resA
		}
	}
	switch ce.Builtin.ID {
	case lang.BSHA256Rnds2, lang.BSHA256Msg1, lang.BSHA256Msg2:
		return c.shaTuple(ce)
	case lang.BMulW:
		return c.mulwTuple(ce)
	}
	var round func(s0, s1, k0, k1 uint64) (uint64, uint64)
	switch ce.Builtin.ID {
	case lang.BAESEnc:
		round = lang.AESEnc
	case lang.BAESEncLast:
		round = lang.AESEncLast
	default:
		panic(fmt.Sprintf("BUG: vm: %v: builtin %s has no tuple result", ce.Pos, ce.Name))
	}
	if len(ce.Args) != 4 {
		panic(fmt.Sprintf("BUG: vm: %v: %s with %d arguments", ce.Pos, ce.Name, len(ce.Args)))
	}
	a0, a1, a2, a3 := c.word(ce.Args[0]), c.word(ce.Args[1]), c.word(ce.Args[2]), c.word(ce.Args[3])
	id := c.tmp(2)
	return func(fr *frame) ([]uint64, [][]uint64) {
		s0, s1, k0, k1 := a0(fr), a1(fr), a2(fr), a3(fr)
		t := fr.tmp[id]
		t[0], t[1] = round(s0, s1, k0, k1)
		return t, nil
	}
}

// mulwTuple compiles mulw(a, b): the low and high halves of the product
// (the checker typed both operands u32 or u64).
func (c *fcomp) mulwTuple(ce *lang.CallExpr) tupleFn {
	n := ce.Args[0].Type().(*lang.WordType).Bits
	x, y := c.word(ce.Args[0]), c.word(ce.Args[1])
	id := c.tmp(2)
	return func(fr *frame) ([]uint64, [][]uint64) {
		a := x(fr)
		b := y(fr)
		t := fr.tmp[id]
		t[0], t[1] = lang.MulW(n, a, b)
		return t, nil
	}
}

// shaTuple compiles a call of a SHA-256 builtin (the checker counted its
// u32 arguments).
func (c *fcomp) shaTuple(ce *lang.CallExpr) tupleFn {
	n := len(ce.Args)
	args := make([]wordFn, n)
	for i, a := range ce.Args {
		args[i] = c.word(a)
	}
	id, in := c.tmp(4), c.tmp(n)
	op := ce.Builtin.ID
	return func(fr *frame) ([]uint64, [][]uint64) {
		x := fr.tmp[in]
		for i, a := range args {
			x[i] = a(fr)
		}
		r := lang.SHA256Builtin(op, x)
		t := fr.tmp[id]
		copy(t, r[:])
		return t, nil
	}
}
