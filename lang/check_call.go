package lang

import "fmt"

// call checks a call and returns its result type: nil (with ok) when the
// callee returns nothing, a *TupleType when it returns several values.
// ok is false after an error.
func (c *checker) call(e *CallExpr) (Type, bool) {
	e.Func, e.Builtin = nil, nil
	e.Checked, e.CheckRequires = false, false
	var fn *FuncDecl
	if e.Module != "" {
		m := c.importedModule(e.Module, e.Pos)
		if m == nil {
			c.looseArgs(e.Args)
			return nil, false
		}
		s := m.scope[e.Name]
		switch {
		case s == nil:
			c.errorf(e.Pos, "undefined: %s.%s", e.Module, e.Name)
		case s.Kind != SymFunc:
			c.errorf(e.Pos, "%s.%s is not a function", e.Module, e.Name)
		default:
			fn = s.Func
		}
	} else {
		s := c.lookupLocal(e.Name)
		if s == nil && c.mod != nil {
			s = c.mod.scope[e.Name]
		}
		switch {
		case s != nil && s.Kind == SymFunc:
			fn = s.Func
		case s != nil:
			c.errorf(e.Pos, "%s is not a function", e.Name)
		case Builtins[e.Name] != nil:
			return c.builtin(e, Builtins[e.Name])
		case e.Name == "chunks":
			c.errorf(e.Pos, "chunks is only allowed as the source of a for loop: for v in chunks(s, N) { }")
		default:
			c.errorf(e.Pos, "undefined: %s", e.Name)
		}
	}
	if fn == nil {
		c.looseArgs(e.Args)
		return nil, false
	}
	if c.cur == nil {
		c.errorf(e.Pos, "a constant expression cannot call %s", calleeName(e))
		c.looseArgs(e.Args)
		return nil, false
	}
	e.Func = fn
	name := calleeName(e)
	good := true
	if len(e.Args) != len(fn.Params) {
		c.errorf(e.Pos, "%s takes %d %s, got %d", name, len(fn.Params), pluralWord(len(fn.Params), "argument"), len(e.Args))
		good = false
	}
	for i, a := range e.Args {
		if i >= len(fn.Params) || fn.Params[i] == nil {
			c.looseArgs([]Expr{a})
			continue
		}
		good = c.argument(e, i, fn.Params[i], name) && good
	}
	if good {
		c.aliasCheck(e, fn.Params, name)
	}
	if c.cur != nil && !c.inRequires {
		c.cur.calls = append(c.cur.calls, callEdge{callee: fn, pos: e.Pos, name: name})
		c.callSite(e, fn)
		if good {
			c.discharge(e, fn)
		}
	}
	for _, t := range fn.ResultTypes {
		if t == nil {
			return nil, false
		}
	}
	switch len(fn.ResultTypes) {
	case 0:
		return nil, true
	case 1:
		return fn.ResultTypes[0], true
	}
	return &TupleType{Elems: fn.ResultTypes}, true
}

func pluralWord(n int, w string) string {
	if n == 1 {
		return w
	}
	return w + "s"
}

// looseArgs checks arguments that have nowhere to go (after an error), for
// their own errors only.
func (c *checker) looseArgs(args []Expr) {
	for _, a := range args {
		if a == nil {
			continue
		}
		if _, ok := strip(a).(*ArrayLit); ok {
			continue
		}
		if c.expr(a) == Untyped {
			c.dropUntyped(a)
		}
	}
}

// argument checks argument i of a call to a function.
func (c *checker) argument(e *CallExpr, i int, p *Param, name string) bool {
	a := e.Args[i]
	if a == nil {
		return false
	}
	ctx := fmt.Sprintf("argument %d of %s", i+1, name)
	switch pt := p.Type.(type) {
	case nil:
		c.looseArgs([]Expr{a})
		return false
	case *SliceType:
		// An array or slice of the same element type, passed by reference.
		if _, ok := strip(a).(*ArrayLit); ok {
			c.errorf(a.Position(), "cannot use an array literal as %s in %s", pt, ctx)
			return false
		}
		t := c.expr(a)
		if t == nil {
			return false
		}
		if t == Untyped {
			c.errorf(startPos(a), "cannot use constant %s as %s in %s", exprString(a), pt, ctx)
			c.dropUntyped(a)
			return false
		}
		if elem, ok := isArrayOrSlice(t); !ok || !Identical(elem, pt.Elem) {
			c.errorf(startPos(a), "cannot use %s as %s in %s", t, pt, ctx)
			return false
		}
	default:
		if !c.exprAs(a, pt, ctx) {
			return false
		}
	}
	if p.Mut {
		if why := c.notWritable(a); why != "" {
			c.errorf(startPos(a), "cannot pass %s to mut parameter %s of %s: %s", exprString(a), p.Name, name, why)
			return false
		}
	}
	return true
}

// notWritable explains why e is not a writable place, or returns "".
func (c *checker) notWritable(e Expr) string {
	switch x := strip(e).(type) {
	case *Ident:
		s := x.Sym
		if s == nil {
			return ""
		}
		if s.Mutable {
			switch s.Kind {
			case SymLocal, SymParam, SymView:
				return ""
			}
		}
		switch s.Kind {
		case SymLocal:
			return x.Name + " is declared with let"
		case SymParam:
			if _, ok := isArrayOrSlice(s.Type); ok {
				return "parameter " + x.Name + " is not mut"
			}
			return "parameter " + x.Name + " is read-only"
		case SymView:
			return x.Name + " is a view of a read-only source"
		case SymLoopVar:
			return "loop index " + x.Name + " is read-only"
		case SymConst:
			return x.Name + " is a constant"
		}
	case *IndexExpr:
		return c.notWritable(x.X)
	case *CallExpr:
		if x.Builtin != nil && (x.Builtin.ID == BRest || x.Builtin.ID == BView) && len(x.Args) > 0 {
			return c.notWritable(x.Args[0])
		}
	}
	return exprString(e) + " is not a variable"
}

// place is the storage an array or slice argument refers to: a root
// variable and the indexes taken into it (-1 for an unknown index).
type place struct {
	root *Symbol
	idx  []int64
}

func (c *checker) placeOf(e Expr) (place, bool) {
	switch x := strip(e).(type) {
	case *Ident:
		s := x.Sym
		if s == nil {
			return place{}, false
		}
		// A chunk view aliases (some part of) its source.
		for s.Kind == SymView {
			src, ok := c.viewSrc[s]
			if !ok {
				break
			}
			p, ok := c.placeOf(src)
			if !ok {
				break
			}
			return place{root: p.root, idx: append(p.idx, -1)}, true
		}
		return place{root: s}, true
	case *IndexExpr:
		p, ok := c.placeOf(x.X)
		if !ok {
			return p, false
		}
		i := int64(-1)
		if v, ok := c.constWord(x.Index); ok {
			i = int64(v)
		}
		return place{root: p.root, idx: append(append([]int64(nil), p.idx...), i)}, true
	case *CallExpr:
		if x.Builtin != nil && (x.Builtin.ID == BRest || x.Builtin.ID == BView) && len(x.Args) > 0 {
			p, ok := c.placeOf(x.Args[0])
			return place{root: p.root, idx: append(p.idx, -1)}, ok
		}
	}
	return place{}, false
}

func overlaps(a, b place) bool {
	if a.root != b.root {
		return false
	}
	for k := 0; k < len(a.idx) && k < len(b.idx); k++ {
		if a.idx[k] >= 0 && b.idx[k] >= 0 && a.idx[k] != b.idx[k] {
			return false
		}
	}
	return true
}

// aliasCheck rejects a call where storage passed to a mut parameter is also
// passed as another argument: parameters are references, so the callee
// would see its writes through the other parameter.
func (c *checker) aliasCheck(e *CallExpr, params []*Param, name string) {
	places := make([]*place, len(e.Args))
	for i, a := range e.Args {
		if _, ok := isArrayOrSlice(a.Type()); !ok {
			continue
		}
		if p, ok := c.placeOf(a); ok {
			places[i] = &p
		}
	}
	for j := range e.Args {
		for i := 0; i < j; i++ {
			if places[i] == nil || places[j] == nil || !overlaps(*places[i], *places[j]) {
				continue
			}
			m, other := j, i
			if !params[j].Mut {
				m, other = i, j
			}
			if !params[m].Mut {
				continue
			}
			c.errorf(startPos(e.Args[m]), "%s is passed to mut parameter %s of %s and also as argument %d; a mut argument must not alias another argument",
				exprString(e.Args[m]), params[m].Name, name, other+1)
		}
	}
}

// view checks a range view a[i..j]: the elements i..j-1 of an array or
// slice of words, in place. With constant bounds it is a [j-i]T (an array
// of that length, usable where one is expected); otherwise a []T. Bounds
// the checker cannot prove (i <= j <= len(a)) are checked at run time.
func (c *checker) view(e *CallExpr) (Type, bool) {
	a := e.Args
	xt := c.expr(a[0])
	lok := c.wordArg(a[1], "start of a range view")
	hok := c.wordArg(a[2], "end of a range view")
	if xt == nil || !lok || !hok {
		return nil, false
	}
	elem, ok := isArrayOrSlice(xt)
	if !ok {
		c.errorf(e.Pos, "cannot take a range of %s", xt)
		return nil, false
	}
	if !isWord(elem) {
		c.errorf(e.Pos, "a range view needs an array or slice of words, not %s", xt)
		return nil, false
	}
	var t Type = &SliceType{Elem: elem}
	lv, lconst := c.constWord(a[1])
	hv, hconst := c.constWord(a[2])
	if lconst && hconst {
		switch {
		case lv > hv:
			c.errorf(e.Pos, "range %d..%d ends before it starts", lv, hv)
			return nil, false
		case lv == hv:
			c.errorf(e.Pos, "range %d..%d is empty", lv, hv)
			return nil, false
		}
		if at, ok := xt.(*ArrayType); ok && hv > uint64(at.Len) {
			c.errorf(e.Pos, "range %d..%d out of bounds for %s", lv, hv, at)
			return nil, false
		}
		if hv-lv <= MaxArrayLen {
			t = &ArrayType{Len: int(hv - lv), Elem: elem}
		}
	}
	if c.cur != nil && !c.inRequires {
		lo, hi := c.rangeOf(a[1]), c.rangeOf(a[2])
		if !(lo.hi <= hi.lo && hi.hi <= c.lenRange(a[0]).lo) {
			e.Checked = true
			c.trapSite(e.Pos, "range view not proven in bounds (checked at run time)")
		}
	}
	return t, true
}

// builtinArgs is the number of arguments of each builtin with a fixed count.
var builtinArgs = map[BuiltinID]int{
	BLen: 1, BRest: 2, BLoad: 2, BStore: 3, BClmulLo: 2, BClmulHi: 2,
	BAESEnc: 4, BAESEncLast: 4, BSelect: 3, BUncheckedGet: 2, BUncheckedSet: 3,
	BSHA256Rnds2: 10, BSHA256Msg1: 8, BSHA256Msg2: 8, BMulW: 2, BView: 3,
}

// builtin checks a call of a builtin.
func (c *checker) builtin(e *CallExpr, b *Builtin) (Type, bool) {
	e.Builtin = b
	if n, ok := builtinArgs[b.ID]; ok && len(e.Args) != n {
		c.errorf(e.Pos, "%s takes %d %s, got %d", b.Name, n, pluralWord(n, "argument"), len(e.Args))
		c.looseArgs(e.Args)
		return nil, false
	}
	for _, a := range e.Args {
		if a == nil {
			return nil, false
		}
	}
	a := e.Args
	switch b.ID {
	case BLen:
		if _, ok := c.seqArg(a[0], b.Name, "an array or slice"); !ok {
			return nil, false
		}
		return U32, true
	case BRest:
		elem, ok := c.seqArg(a[0], b.Name, "an array or slice")
		n, nok := c.chunkSize(a[1], b.Name)
		if !ok || !nok {
			return nil, false
		}
		_ = n
		if !isWord(elem) {
			c.errorf(a[0].Position(), "rest needs an array or slice of words, not %s", a[0].Type())
			return nil, false
		}
		return &SliceType{Elem: elem}, true
	case BLoad, BStore:
		elem, ok := c.seqArg(a[0], b.Name, "a u8 array or slice")
		if ok && !Identical(elem, U8) {
			c.errorf(a[0].Position(), "%s needs a u8 array or slice, not %s", b.Name, a[0].Type())
			ok = false
		}
		ok = c.wordArg(a[1], "offset of "+b.Name) && ok
		var res Type = WordOf(b.Bits)
		if b.ID == BStore {
			ok = c.exprAs(a[2], WordOf(b.Bits), "value of "+b.Name) && ok
			if why := c.notWritable(a[0]); ok && why != "" {
				c.errorf(a[0].Position(), "cannot store into %s: %s", exprString(a[0]), why)
				ok = false
			}
			res = nil
		}
		if !ok {
			return nil, false
		}
		if c.cur != nil && !c.inRequires && !c.bytesProven(a[0], a[1], uint64(b.Bits/8)) {
			e.Checked = true
			c.trapSite(e.Pos, b.Name+" not proven in bounds (checked at run time)")
		}
		return res, true
	case BClmulLo, BClmulHi, BAESEnc, BAESEncLast, BSHA256Rnds2, BSHA256Msg1, BSHA256Msg2:
		// The hardware builtins: words of one type in, one word or a
		// tuple of them out.
		in, outs := U64, 2
		switch b.ID {
		case BClmulLo, BClmulHi:
			outs = 1
		case BSHA256Rnds2, BSHA256Msg1, BSHA256Msg2:
			in, outs = U32, 4
		}
		ok := true
		for i, x := range a {
			ok = c.exprAs(x, in, fmt.Sprintf("argument %d of %s", i+1, b.Name)) && ok
		}
		if !ok {
			return nil, false
		}
		c.featureSite(e.Pos, b.Features)
		if outs == 1 {
			return in, true
		}
		elems := make([]Type, outs)
		for i := range elems {
			elems[i] = in
		}
		return &TupleType{Elems: elems}, true
	case BView:
		return c.view(e)
	case BMulW:
		t := c.unifyPair(a[0], a[1], "mulw", e.Pos)
		switch {
		case t == nil:
			return nil, false
		case t == Untyped:
			c.errorf(e.Pos, "mulw needs typed operands (u32 or u64); write 5 as u32, say")
			c.dropUntyped(a[0])
			c.dropUntyped(a[1])
			return nil, false
		case !Identical(t, U32) && !Identical(t, U64):
			c.errorf(e.Pos, "mulw needs u32 or u64 operands, not %s", t)
			return nil, false
		}
		return &TupleType{Elems: []Type{t, t}}, true
	case BSelect:
		ok := c.exprAs(a[0], Bool, "condition of select")
		t := c.unifyPair(a[1], a[2], "select", e.Pos)
		switch {
		case t == nil || !ok:
			c.dropUntyped(a[1])
			c.dropUntyped(a[2])
			return nil, false
		case t == Untyped:
			return c.setUntyped(e, nil), true
		case !isWord(t) && !isBool(t):
			c.errorf(e.Pos, "select needs word or bool values, not %s", t)
			return nil, false
		}
		return t, true
	case BUncheckedGet, BUncheckedSet:
		elem, ok := c.seqArg(a[0], b.Name, "an array or slice")
		ok = c.wordArg(a[1], "index of "+b.Name) && ok
		if b.ID == BUncheckedSet {
			if elem != nil {
				ok = c.exprAs(a[2], elem, "value of "+b.Name) && ok
			} else {
				c.looseArgs(a[2:])
			}
			if why := c.notWritable(a[0]); ok && why != "" {
				c.errorf(a[0].Position(), "cannot write to %s: %s", exprString(a[0]), why)
				ok = false
			}
		}
		// The builtin is unsafe whatever its arguments: recording the
		// effect even after an error keeps an enclosing absorb valid.
		c.effectSite(e.Pos, EffUnsafe, b.Name)
		if !ok {
			return nil, false
		}
		if b.ID == BUncheckedGet {
			return elem, true
		}
		return nil, true
	case BTrace:
		if len(a) == 0 {
			c.errorf(e.Pos, "trace needs at least one value")
			return nil, false
		}
		ok := true
		for _, x := range a {
			t := c.expr(x)
			switch {
			case t == nil:
				ok = false
			case t == Untyped:
				c.errorf(x.Position(), "trace needs typed words: write %s as u32", exprString(x))
				c.dropUntyped(x)
				ok = false
			case !isWord(t):
				c.errorf(x.Position(), "trace takes words, not %s", t)
				ok = false
			}
		}
		c.effectSite(e.Pos, EffIO, b.Name)
		if !ok {
			return nil, false
		}
		return nil, true
	}
	c.errorf(e.Pos, "unknown builtin %s", b.Name)
	return nil, false
}

// seqArg checks an argument that must be an array or a slice and returns its
// element type.
func (c *checker) seqArg(x Expr, name, what string) (Type, bool) {
	t := c.expr(x)
	if t == nil {
		return nil, false
	}
	elem, ok := isArrayOrSlice(t)
	if !ok {
		if t == Untyped {
			c.dropUntyped(x)
			c.errorf(x.Position(), "%s needs %s, not constant %s", name, what, exprString(x))
		} else {
			c.errorf(x.Position(), "%s needs %s, not %s", name, what, t)
		}
		return nil, false
	}
	return elem, true
}

// wordArg checks an offset or index argument: any word type, u32 when untyped.
func (c *checker) wordArg(x Expr, what string) bool {
	t := c.expr(x)
	switch {
	case t == nil:
		return false
	case t == Untyped:
		return c.convert(x, U32)
	case !isWord(t):
		c.errorf(x.Position(), "%s must be a word, not %s", what, t)
		return false
	}
	return true
}

// chunkSize checks the constant chunk size N of rest(s, N) and chunks(..., N).
func (c *checker) chunkSize(x Expr, name string) (uint64, bool) {
	if !c.wordArg(x, "chunk size of "+name) {
		return 0, false
	}
	v, ok := c.mustConst(x, "the chunk size of "+name)
	if !ok {
		return 0, false
	}
	if v.Word == 0 || v.Word > MaxArrayLen {
		c.errorf(x.Position(), "chunk size of %s must be between 1 and %d, not %d", name, MaxArrayLen, v.Word)
		return 0, false
	}
	return v.Word, true
}

// unifyPair checks two operands that need one type (an untyped one takes
// the other's type); what names the operation for messages.
func (c *checker) unifyPair(l, r Expr, what string, p Pos) Type {
	lt, rt := c.expr(l), c.expr(r)
	switch {
	case lt == nil || rt == nil:
		c.dropUntyped(l)
		c.dropUntyped(r)
		return nil
	case lt == Untyped && rt == Untyped:
		return Untyped
	case lt == Untyped:
		return c.unifyOne(what, l, rt, p)
	case rt == Untyped:
		return c.unifyOne(what, r, lt, p)
	case !Identical(lt, rt):
		c.errorf(p, "mismatched types %s and %s in %s", lt, rt, what)
		return nil
	}
	return lt
}
