package vm

import (
	"fmt"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/sem"
)

// Evaluation order (the reference every backend follows): operands and
// arguments left to right; in an assignment, the target's indices are
// evaluated and bounds-checked first, then (for op=) the old value is read,
// then the right-hand side is evaluated, then the store happens.

func (c *fcomp) block(b *lang.Block) stmtFn {
	if b == nil {
		panic("BUG: vm: nil block")
	}
	stmts := make([]stmtFn, len(b.Stmts))
	for i, s := range b.Stmts {
		stmts[i] = c.stmt(s)
	}
	switch len(stmts) {
	case 0:
		return func(*frame) bool { return false }
	case 1:
		s0 := stmts[0]
		return func(fr *frame) bool {
			fr.m.steps++
			return s0(fr)
		}
	}
	return func(fr *frame) bool {
		m := fr.m
		for _, s := range stmts {
			m.steps++
			if s(fr) {
				return true
			}
		}
		return false
	}
}

func (c *fcomp) stmt(s lang.Stmt) stmtFn {
	switch s := s.(type) {
	case *lang.Block:
		return c.block(s)
	case *lang.LetStmt:
		return c.let(s)
	case *lang.AssignStmt:
		return c.assign(s)
	case *lang.ExprStmt:
		return c.exprStmt(s)
	case *lang.IfStmt:
		return c.ifStmt(s)
	case *lang.ForStmt:
		return c.forStmt(s)
	case *lang.ForChunksStmt:
		return c.forChunks(s)
	case *lang.ReturnStmt:
		return c.ret(s)
	case *lang.AbsorbStmt:
		return c.block(s.Body)
	}
	panic(fmt.Sprintf("BUG: vm: unknown statement %T", s))
}

func isTuple(t lang.Type) bool {
	_, ok := t.(*lang.TupleType)
	return ok
}

func (c *fcomp) let(s *lang.LetStmt) stmtFn {
	if len(s.Syms) == 0 || len(s.Syms) != len(s.Names) {
		panic(fmt.Sprintf("BUG: vm: %v: let without symbols", s.Pos))
	}
	if len(s.Syms) > 1 || (s.Value != nil && isTuple(s.Value.Type())) {
		return c.letTuple(s)
	}
	sym := s.Syms[0]
	slot := sym.Slot
	_, isSlice := sym.Type.(*lang.SliceType)
	switch {
	case s.Value == nil && isArrayish(sym.Type):
		return func(fr *frame) bool {
			clear(fr.a[slot])
			return false
		}
	case s.Value == nil:
		return func(fr *frame) bool {
			fr.w[slot] = 0
			return false
		}
	case isSlice:
		// A slice is a reference (e.g. `let tail = rest(s, 64)`): bind it.
		src := c.arr(s.Value)
		return func(fr *frame) bool {
			fr.a[slot] = src(fr)
			return false
		}
	case isArrayish(sym.Type):
		src := c.arr(s.Value)
		return func(fr *frame) bool {
			copy(fr.a[slot], src(fr))
			return false
		}
	}
	v := c.word(s.Value)
	return func(fr *frame) bool {
		fr.w[slot] = v(fr)
		return false
	}
}

// letTuple binds the results of a multi-result call.
func (c *fcomp) letTuple(s *lang.LetStmt) stmtFn {
	t := c.tuple(s.Value)
	type bind struct {
		slot int
		arr  bool
	}
	binds := make([]bind, len(s.Syms))
	for j, sym := range s.Syms {
		binds[j] = bind{sym.Slot, isArrayish(sym.Type)}
		if _, ok := sym.Type.(*lang.SliceType); ok {
			panic(fmt.Sprintf("BUG: vm: %v: a call result of slice type", s.Pos))
		}
	}
	return func(fr *frame) bool {
		ws, as := t(fr)
		for j, b := range binds {
			if b.arr {
				copy(fr.a[b.slot], as[j])
			} else {
				fr.w[b.slot] = ws[j]
			}
		}
		return false
	}
}

func (c *fcomp) assign(s *lang.AssignStmt) stmtFn {
	if len(s.Values) > 0 {
		return c.assignParallel(s)
	}
	if len(s.Targets) != 1 || isTuple(s.Value.Type()) {
		return c.assignTuple(s)
	}
	tgt := lang.Unparen(s.Targets[0])
	if isArrayish(tgt.Type()) {
		if s.Op != sem.OpNone {
			panic(fmt.Sprintf("BUG: vm: %v: %s on an array", s.Pos, s.OpText()))
		}
		dst := c.arr(tgt)
		src := c.arr(s.Value)
		pos := s.Pos
		return func(fr *frame) bool {
			d := dst(fr)
			x := src(fr)
			if len(d) != len(x) {
				trap(pos, "assignment of %d elements to %d", len(x), len(d))
			}
			copy(d, x)
			return false
		}
	}
	v := c.word(s.Value)
	id, isIdent := tgt.(*lang.Ident)
	if s.Op == sem.OpNone {
		if isIdent {
			slot := c.slotOf(id)
			return func(fr *frame) bool {
				fr.w[slot] = v(fr)
				return false
			}
		}
		place := c.wordPlace(tgt)
		return func(fr *frame) bool {
			p := place(fr)
			*p = v(fr)
			return false
		}
	}
	// x OP= e: the old value is read before e is evaluated.
	f := sem.BinaryFunc(s.Op, bitsOf(tgt.Type()))
	if s.Op.IsDivision() {
		div, what, pos := f, s.Op.DivFault()+bugNote(s.Checked), s.Pos
		f = func(a, b uint64) uint64 {
			if b == 0 {
				trap(pos, "%s", what)
			}
			return div(a, b)
		}
	}
	if isIdent {
		slot := c.slotOf(id)
		return func(fr *frame) bool {
			old := fr.w[slot]
			fr.w[slot] = f(old, v(fr))
			return false
		}
	}
	place := c.wordPlace(tgt)
	return func(fr *frame) bool {
		p := place(fr)
		old := *p
		*p = f(old, v(fr))
		return false
	}
}

// assignTuple is `(a, b[i]) = f(...)`: targets first, then the call, then the stores.
func (c *fcomp) assignTuple(s *lang.AssignStmt) stmtFn {
	if s.Op != sem.OpNone {
		panic(fmt.Sprintf("BUG: vm: %v: %s with several targets", s.Pos, s.OpText()))
	}
	t := c.tuple(s.Value)
	n := len(s.Targets)
	type target struct {
		discard bool
		word    func(fr *frame) *uint64
		arr     arrFn
	}
	tgts := make([]target, n)
	allIdents := true
	slots := make([]int, n)
	for j, e := range s.Targets {
		e = lang.Unparen(e)
		if id, ok := e.(*lang.Ident); ok && id.Name == "_" && id.Sym == nil {
			tgts[j].discard = true
			slots[j] = -1
			continue
		}
		if isArrayish(e.Type()) {
			tgts[j].arr = c.arr(e)
			allIdents = false
			continue
		}
		if id, ok := e.(*lang.Ident); ok {
			slots[j] = c.slotOf(id)
		} else {
			allIdents = false
		}
		tgts[j].word = c.wordPlace(e)
	}
	if allIdents {
		// The common `(s0, s1) = aes_enc(s0, s1, k0, k1)`.
		return func(fr *frame) bool {
			ws, _ := t(fr)
			for j, slot := range slots {
				if slot >= 0 {
					fr.w[slot] = ws[j]
				}
			}
			return false
		}
	}
	return func(fr *frame) bool {
		var pbuf [8]*uint64
		var abuf [8][]uint64
		ptrs, arrs := pbuf[:0], abuf[:0]
		for _, tg := range tgts {
			var p *uint64
			var a []uint64
			switch {
			case tg.word != nil:
				p = tg.word(fr)
			case tg.arr != nil:
				a = tg.arr(fr)
			}
			ptrs = append(ptrs, p)
			arrs = append(arrs, a)
		}
		ws, as := t(fr)
		for j, tg := range tgts {
			switch {
			case tg.word != nil:
				*ptrs[j] = ws[j]
			case tg.arr != nil:
				copy(arrs[j], as[j])
			}
		}
		return false
	}
}

// assignParallel is `a, b[i] = E1, E2`: the targets' indexes first, then
// every value (an array into a temporary), then the stores left to right.
func (c *fcomp) assignParallel(s *lang.AssignStmt) stmtFn {
	n := len(s.Targets)
	if s.Op != sem.OpNone || len(s.Values) != n {
		panic(fmt.Sprintf("BUG: vm: %v: %s of %d values to %d targets", s.Pos, s.OpText(), len(s.Values), n))
	}
	type part struct {
		word  func(fr *frame) *uint64 // a word target
		arr   arrFn                   // an array target
		wval  wordFn                  // a word value
		aval  arrFn                   // an array value
		tmp   int                     // an array value's temporary
		discv func(fr *frame)         // a value assigned to _
	}
	parts := make([]part, n)
	for j, e := range s.Targets {
		e = lang.Unparen(e)
		v := s.Values[j]
		pt := &parts[j]
		switch {
		case isDiscardIdent(e) && isArrayish(v.Type()):
			a := c.arr(v)
			pt.discv = func(fr *frame) { a(fr) }
		case isDiscardIdent(e):
			w := c.word(v)
			pt.discv = func(fr *frame) { w(fr) }
		case isArrayish(e.Type()):
			pt.arr = c.arr(e)
			pt.aval = c.arr(v)
			pt.tmp = c.tmp(flatLen(e.Type()))
		default:
			pt.word = c.wordPlace(e)
			pt.wval = c.word(v)
		}
	}
	pos := s.Pos
	return func(fr *frame) bool {
		var pbuf [8]*uint64
		var abuf [8][]uint64
		var vbuf [8]uint64
		ptrs, arrs, vals := pbuf[:0], abuf[:0], vbuf[:0]
		for _, pt := range parts {
			var p *uint64
			var a []uint64
			switch {
			case pt.word != nil:
				p = pt.word(fr)
			case pt.arr != nil:
				a = pt.arr(fr)
			}
			ptrs = append(ptrs, p)
			arrs = append(arrs, a)
		}
		for j, pt := range parts {
			var v uint64
			switch {
			case pt.wval != nil:
				v = pt.wval(fr)
			case pt.aval != nil:
				x := pt.aval(fr)
				if len(x) != len(arrs[j]) {
					trap(pos, "assignment of %d elements to %d", len(x), len(arrs[j]))
				}
				copy(fr.tmp[pt.tmp], x)
			case pt.discv != nil:
				pt.discv(fr)
			}
			vals = append(vals, v)
		}
		for j, pt := range parts {
			switch {
			case pt.word != nil:
				*ptrs[j] = vals[j]
			case pt.arr != nil:
				copy(arrs[j], fr.tmp[pt.tmp])
			}
		}
		return false
	}
}

func isDiscardIdent(e lang.Expr) bool {
	id, ok := e.(*lang.Ident)
	return ok && id.Name == "_" && id.Sym == nil
}

func (c *fcomp) exprStmt(s *lang.ExprStmt) stmtFn {
	x := lang.Unparen(s.X)
	ce, ok := x.(*lang.CallExpr)
	switch {
	case ok && ce.Func != nil:
		call := c.call(ce)
		return func(fr *frame) bool {
			call(fr)
			return false
		}
	case ok && ce.Builtin != nil:
		return c.builtinStmt(ce)
	case isTuple(x.Type()):
		t := c.tuple(x)
		return func(fr *frame) bool {
			t(fr)
			return false
		}
	case isArrayish(x.Type()):
		a := c.arr(x)
		return func(fr *frame) bool {
			a(fr)
			return false
		}
	}
	w := c.word(x)
	return func(fr *frame) bool {
		w(fr)
		return false
	}
}

func (c *fcomp) ifStmt(s *lang.IfStmt) stmtFn {
	cond := c.word(s.Cond)
	then := c.block(s.Then)
	var els stmtFn
	switch e := s.Else.(type) {
	case *lang.Block:
		if e != nil {
			els = c.block(e)
		}
	case *lang.IfStmt:
		if e != nil {
			els = c.ifStmt(e)
		}
	}
	if els == nil {
		return func(fr *frame) bool {
			if cond(fr) != 0 {
				return then(fr)
			}
			return false
		}
	}
	return func(fr *frame) bool {
		if cond(fr) != 0 {
			return then(fr)
		}
		return els(fr)
	}
}

// forStmt evaluates the bounds once; the index is read-only, so the Go loop
// variable drives the iteration.
func (c *fcomp) forStmt(s *lang.ForStmt) stmtFn {
	if s.Sym == nil {
		panic(fmt.Sprintf("BUG: vm: %v: loop variable without a symbol", s.Pos))
	}
	lo, hi := c.word(s.Lo), c.word(s.Hi)
	slot := s.Sym.Slot
	body := c.block(s.Body)
	return func(fr *frame) bool {
		l, h := lo(fr), hi(fr)
		for i := l; i < h; i++ {
			fr.w[slot] = i
			if body(fr) {
				return true
			}
		}
		return false
	}
}

// forChunks binds each view to a sub-slice of its source's storage, so writes
// through a view of a mut source land in the source.
func (c *fcomp) forChunks(s *lang.ForChunksStmt) stmtFn {
	n := s.SizeVal
	if n <= 0 || len(s.Sources) == 0 || len(s.VarSyms) != len(s.Sources) {
		panic(fmt.Sprintf("BUG: vm: %v: malformed chunk loop (size %d)", s.Pos, n))
	}
	srcs := make([]arrFn, len(s.Sources))
	strides := make([]int, len(s.Sources))
	views := make([]int, len(s.Sources))
	for j, e := range s.Sources {
		srcs[j] = c.arr(e)
		strides[j] = stride(e.Type())
		views[j] = s.VarSyms[j].Slot
	}
	idx := -1
	if s.IndexSym != nil {
		idx = s.IndexSym.Slot
	}
	body := c.block(s.Body)
	pos, note := s.Pos, bugNote(s.CheckLens)
	return func(fr *frame) bool {
		var buf [4][]uint64
		refs := buf[:0]
		for _, src := range srcs {
			refs = append(refs, src(fr))
		}
		count := len(refs[0]) / strides[0]
		for j := 1; j < len(refs); j++ {
			if l := len(refs[j]) / strides[j]; l != count {
				trap(pos, "chunks: source lengths differ (%d and %d)%s", count, l, note)
			}
		}
		for k := 0; k < count/n; k++ {
			for j, r := range refs {
				sz := n * strides[j]
				fr.a[views[j]] = r[k*sz : (k+1)*sz : (k+1)*sz]
			}
			if idx >= 0 {
				fr.w[idx] = uint64(k)
			}
			if body(fr) {
				return true
			}
		}
		return false
	}
}

func (c *fcomp) ret(s *lang.ReturnStmt) stmtFn {
	if len(s.Values) == 1 && isTuple(s.Values[0].Type()) {
		t := c.tuple(s.Values[0])
		isArr := c.fc.resArray
		return func(fr *frame) bool {
			ws, as := t(fr)
			for j, arr := range isArr {
				if arr {
					fr.resA[j] = as[j] // already a fresh copy
				} else {
					fr.res[j] = ws[j]
				}
			}
			return true
		}
	}
	if len(s.Values) != len(c.fc.resArray) {
		panic(fmt.Sprintf("BUG: vm: %v: return of %d values from a function with %d results",
			s.Pos, len(s.Values), len(c.fc.resArray)))
	}
	switch len(s.Values) {
	case 0:
		return func(*frame) bool { return true }
	case 1:
		if !c.fc.resArray[0] {
			v := c.word(s.Values[0])
			return func(fr *frame) bool {
				fr.res[0] = v(fr)
				return true
			}
		}
	}
	words := make([]wordFn, len(s.Values))
	arrs := make([]arrFn, len(s.Values))
	for j, e := range s.Values {
		if c.fc.resArray[j] {
			arrs[j] = c.arr(e)
		} else {
			words[j] = c.word(e)
		}
	}
	return func(fr *frame) bool {
		for j, w := range words {
			if w != nil {
				fr.res[j] = w(fr)
			} else {
				// A fresh copy: the caller may keep it while this frame is reused.
				fr.resA[j] = append([]uint64(nil), arrs[j](fr)...)
			}
		}
		return true
	}
}

// slotOf is the frame slot of a local, parameter or loop variable.
func (c *fcomp) slotOf(id *lang.Ident) int {
	if id.Sym == nil {
		panic(fmt.Sprintf("BUG: vm: %v: unresolved name %s", id.Pos, id.Name))
	}
	switch id.Sym.Kind {
	case lang.SymLocal, lang.SymParam, lang.SymLoopVar, lang.SymView:
		return id.Sym.Slot
	}
	panic(fmt.Sprintf("BUG: vm: %v: %s is not a local", id.Pos, id.Name))
}
