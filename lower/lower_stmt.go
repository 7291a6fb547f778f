package lower

import (
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/sem"
)

// stmts lowers a statement list. After a statement that may have returned
// (in a function with early returns), the rest runs only if it did not.
func (fl *fnLowerer) stmts(list []lang.Stmt) {
	for i, s := range list {
		fl.stmt(s)
		if _, ok := s.(*lang.ReturnStmt); ok {
			return // the rest of the block is unreachable
		}
		if fl.done != nil && i < len(list)-1 && containsReturn(s) {
			rest := list[i+1:]
			fl.unlessReturned(func() { fl.stmts(rest) })
			return
		}
	}
}

// unlessReturned runs fill inside `if !returned { }`.
func (fl *fnLowerer) unlessReturned(fill func()) {
	done := fl.b.Load(fl.done, fl.idx(0))
	fl.b.If(fl.b.Not(done), nil, func(b *ir.Builder) []*ir.Value {
		fl.in(b, func() *ir.Value { fill(); return nil })
		return nil
	}, nil)
}

func (fl *fnLowerer) stmt(s lang.Stmt) {
	if s == nil {
		return
	}
	saved := fl.b.Pos
	fl.b.Pos = s.Position()
	defer func() { fl.b.Pos = saved }()
	switch s := s.(type) {
	case *lang.Block:
		if s != nil {
			fl.stmts(s.Stmts)
		}
	case *lang.AbsorbStmt:
		if s.Body != nil {
			fl.stmts(s.Body.Stmts)
		}
	case *lang.LetStmt:
		fl.let(s)
	case *lang.AssignStmt:
		fl.assign(s)
	case *lang.ExprStmt:
		fl.exprStmt(s.X)
	case *lang.IfStmt:
		fl.ifStmt(s)
	case *lang.ForStmt:
		fl.forStmt(s)
	case *lang.ForChunksStmt:
		fl.forChunks(s)
	case *lang.ReturnStmt:
		fl.ret(s)
	default:
		failf(s.Position(), "cannot lower statement %T", s)
	}
}

// bindWord binds a word or bool symbol: a cell when it is ever assigned.
func (fl *fnLowerer) bindWord(s *lang.Symbol, v *ir.Value) {
	if s == nil {
		return
	}
	if !fl.assigned[s] {
		fl.env[s] = binding{val: v}
		return
	}
	bd, ok := fl.env[s]
	if !ok || bd.cell == nil {
		bd = binding{cell: fl.f.NewLocal(s.Name, v.Type, 1)}
		fl.env[s] = bd
	}
	fl.b.Store(bd.cell, v, fl.idx(0))
}

func (fl *fnLowerer) let(s *lang.LetStmt) {
	if len(s.Syms) == 0 || len(s.Syms) != len(s.Names) {
		failf(s.Pos, "declaration was not checked")
	}
	if len(s.Syms) > 1 || (s.Value != nil && isTuple(s.Value.Type())) {
		ops := fl.tuple(s.Value)
		if len(ops) != len(s.Syms) {
			failf(s.Pos, "%d names for %d values", len(s.Syms), len(ops))
		}
		for i, sym := range s.Syms {
			fl.bindOperand(sym, ops[i])
		}
		return
	}
	sym := s.Syms[0]
	switch t := sym.Type.(type) {
	case *lang.SliceType:
		// A slice is a reference: bind it.
		fl.env[sym] = binding{arr: fl.aexpr(s.Value)}
	case *lang.ArrayType:
		if _, lit := lang.Unparen(s.Value).(*lang.ArrayLit); s.Value != nil && !s.Mutable && !lit {
			src := fl.aexpr(s.Value)
			if readOnly(src.arr) {
				// Nothing can change a constant or a read-only parameter:
				// the let may share its storage.
				fl.env[sym] = binding{arr: src}
				return
			}
			dst := fl.temp(t, sym.Name)
			fl.copyArray(dst, src)
			fl.env[sym] = binding{arr: dst}
			return
		}
		dst := fl.temp(t, sym.Name)
		fl.env[sym] = binding{arr: dst}
		if s.Value == nil {
			fl.zeroArray(dst)
		} else {
			fl.assignArray(dst, s.Value, true)
		}
	default:
		var v *ir.Value
		if s.Value == nil {
			v = fl.b.Const(irType(t, s.Pos), 0)
		} else {
			v = fl.expr(s.Value)
		}
		fl.bindWord(sym, v)
	}
}

// readOnly reports whether nothing can write a during a function's run.
func readOnly(a *ir.Array) bool {
	return a.Kind == ir.ArrGlobal || (a.Kind == ir.ArrParam && !a.Mut)
}

// bindOperand binds a name of a destructuring to one call result.
func (fl *fnLowerer) bindOperand(sym *lang.Symbol, op operand) {
	if sym == nil {
		return
	}
	if op.r != nil {
		// A call result lives in a temporary of its own: bind it.
		fl.env[sym] = binding{arr: op.r}
		return
	}
	fl.bindWord(sym, op.v)
}

func isTuple(t lang.Type) bool {
	_, ok := t.(*lang.TupleType)
	return ok
}

// tuple lowers a multi-result call.
func (fl *fnLowerer) tuple(e lang.Expr) []operand {
	ce, ok := lang.Unparen(e).(*lang.CallExpr)
	if !ok {
		failf(e.Position(), "%T is not a multi-result call", e)
	}
	return fl.call(ce)
}

func isDiscard(e lang.Expr) bool {
	id, ok := lang.Unparen(e).(*lang.Ident)
	return ok && id.Name == "_" && id.Module == "" && id.Sym == nil
}

// place is an evaluated assignment target.
type place struct {
	cell    *ir.Array // a scalar variable
	arr     *ir.Array // an element: arr[idx]
	idx     *ir.Value
	ref     *aref // a whole array
	discard bool
}

// target evaluates an assignment target: its indexes, checked.
func (fl *fnLowerer) target(e lang.Expr) place {
	if isDiscard(e) {
		return place{discard: true}
	}
	switch x := lang.Unparen(e).(type) {
	case *lang.Ident:
		bd, ok := fl.env[x.Sym]
		switch {
		case !ok:
		case bd.cell != nil:
			return place{cell: bd.cell}
		case bd.arr != nil:
			return place{ref: bd.arr}
		}
		failf(x.Pos, "cannot assign to %s", x.Name)
	case *lang.IndexExpr:
		r := fl.aexpr(x.X)
		i := fl.element(fl.expr(x.Index), r.n, x.Checked, x.Pos)
		if rowsOf(r.typ) {
			return place{ref: fl.row(r, i)}
		}
		return place{arr: r.arr, idx: fl.addIdx(r.off, i)}
	}
	failf(e.Position(), "cannot assign to %T", e)
	return place{}
}

func (fl *fnLowerer) load(p place) *ir.Value {
	if p.cell != nil {
		return fl.b.Load(p.cell, fl.idx(0))
	}
	return fl.b.Load(p.arr, p.idx)
}

func (fl *fnLowerer) store(p place, op operand) {
	switch {
	case p.discard:
	case p.ref != nil:
		if op.r == nil {
			failf(fl.b.Pos, "assigning a word to an array")
		}
		fl.copyArray(p.ref, op.r)
	case op.v == nil:
		failf(fl.b.Pos, "assigning an array to a word")
	case p.cell != nil:
		fl.b.Store(p.cell, op.v, fl.idx(0))
	default:
		fl.b.Store(p.arr, op.v, p.idx)
	}
}

func (fl *fnLowerer) assign(s *lang.AssignStmt) {
	if len(s.Values) > 0 {
		fl.assignParallel(s)
		return
	}
	if len(s.Targets) == 0 || s.Value == nil {
		failf(s.Pos, "malformed assignment")
	}
	if len(s.Targets) > 1 || isTuple(s.Value.Type()) {
		// Targets first, then the call, then the stores.
		places := make([]place, len(s.Targets))
		for i, t := range s.Targets {
			places[i] = fl.target(t)
		}
		ops := fl.tuple(s.Value)
		if len(ops) != len(places) {
			failf(s.Pos, "%d targets for %d values", len(places), len(ops))
		}
		for i, p := range places {
			fl.store(p, ops[i])
		}
		return
	}
	tgt := s.Targets[0]
	if isDiscard(tgt) {
		fl.exprStmt(s.Value)
		return
	}
	p := fl.target(tgt)
	if p.ref != nil {
		if s.Op != sem.OpNone {
			failf(s.Pos, "%s on an array", s.OpText())
		}
		fl.assignArray(p.ref, s.Value, false)
		return
	}
	if s.Op == sem.OpNone {
		fl.store(p, operand{v: fl.expr(s.Value)})
		return
	}
	old := fl.load(p)
	rhs := fl.expr(s.Value)
	v := fl.binop(s.Op, old, rhs, s.Checked, s.Pos)
	fl.store(p, operand{v: v})
}

// assignParallel lowers `a, b[i] = E1, E2`: the targets' indexes first,
// then every value (an array into a temporary, since an earlier store may
// write what a later value reads), then the stores left to right.
func (fl *fnLowerer) assignParallel(s *lang.AssignStmt) {
	if s.Op != sem.OpNone || len(s.Values) != len(s.Targets) {
		failf(s.Pos, "%s of %d values to %d targets", s.OpText(), len(s.Values), len(s.Targets))
	}
	places := make([]place, len(s.Targets))
	for i, t := range s.Targets {
		places[i] = fl.target(t)
	}
	ops := make([]operand, len(s.Values))
	for i, v := range s.Values {
		p := places[i]
		switch {
		case p.discard:
			fl.exprStmt(v)
		case p.ref != nil:
			at, ok := p.ref.typ.(*lang.ArrayType)
			if !ok {
				failf(s.Pos, "assignment to a slice")
			}
			tmp := fl.temp(at, "par")
			fl.assignArray(tmp, v, true)
			ops[i] = operand{r: tmp}
		default:
			ops[i] = operand{v: fl.expr(v)}
		}
	}
	for i, p := range places {
		fl.store(p, ops[i])
	}
}

// exprStmt evaluates an expression for its effects.
func (fl *fnLowerer) exprStmt(e lang.Expr) {
	switch {
	case e == nil:
	case isTuple(e.Type()):
		fl.tuple(e)
	case isArrayish(e.Type()):
		fl.aexpr(e)
	default:
		if ce, ok := lang.Unparen(e).(*lang.CallExpr); ok {
			fl.call(ce)
			return
		}
		fl.expr(e)
	}
}

func (fl *fnLowerer) ifStmt(s *lang.IfStmt) {
	cond := fl.expr(s.Cond)
	fl.b.If(cond, nil, func(b *ir.Builder) []*ir.Value {
		fl.in(b, func() *ir.Value { fl.stmt(s.Then); return nil })
		return nil
	}, func(b *ir.Builder) []*ir.Value {
		if s.Else != nil {
			fl.in(b, func() *ir.Value { fl.stmt(s.Else); return nil })
		}
		return nil
	})
}

// loopBody lowers a loop body; with early returns, each iteration runs only
// while no return has happened.
func (fl *fnLowerer) loopBody(b *ir.Builder, body *lang.Block) {
	fl.in(b, func() *ir.Value {
		if fl.done != nil && containsReturn(body) {
			fl.unlessReturned(func() { fl.stmt(body) })
		} else {
			fl.stmt(body)
		}
		return nil
	})
}

func (fl *fnLowerer) forStmt(s *lang.ForStmt) {
	if s.Sym == nil {
		failf(s.Pos, "loop index was not checked")
	}
	lo := fl.expr(s.Lo)
	hi := fl.expr(s.Hi)
	t := irType(s.Sym.Type, s.Pos)
	fl.b.For(t, lo, hi, nil, func(b *ir.Builder, i *ir.Value, _ []*ir.Value) []*ir.Value {
		fl.env[s.Sym] = binding{val: i}
		fl.loopBody(b, s.Body)
		return nil
	})
}

func (fl *fnLowerer) forChunks(s *lang.ForChunksStmt) {
	n := s.SizeVal
	if n <= 0 || len(s.Sources) == 0 || len(s.VarSyms) != len(s.Sources) {
		failf(s.Pos, "malformed chunk loop")
	}
	srcs := make([]*aref, len(s.Sources))
	for j, e := range s.Sources {
		srcs[j] = fl.aexpr(e)
	}
	if s.CheckLens {
		for j := 1; j < len(srcs); j++ {
			fl.b.Check(fl.b.Eq(srcs[j].n, srcs[0].n), ir.CheckChunks, s.Pos, "chunks: source lengths differ")
		}
	}
	count := fl.b.Bin(ir.OpDivU, srcs[0].n, fl.idx(uint64(n)))
	fl.b.For(ir.IndexType, fl.idx(0), count, nil, func(b *ir.Builder, k *ir.Value, _ []*ir.Value) []*ir.Value {
		fl.in(b, func() *ir.Value {
			for j, r := range srcs {
				et := lang.ElemOf(r.typ)
				view := &aref{arr: r.arr, off: fl.addIdx(r.off, fl.mulIdx(k, uint64(n*flatLen(et)))), n: fl.idx(uint64(n)), typ: &lang.ArrayType{Len: n, Elem: et}}
				fl.env[s.VarSyms[j]] = binding{arr: view}
			}
			if s.IndexSym != nil {
				fl.env[s.IndexSym] = binding{val: k}
			}
			return nil
		})
		fl.loopBody(b, s.Body)
		return nil
	})
}

func (fl *fnLowerer) ret(s *lang.ReturnStmt) {
	var ops []operand
	if len(s.Values) == 1 && isTuple(s.Values[0].Type()) {
		ops = fl.tuple(s.Values[0])
	} else {
		outs := fl.outs[fl.decl]
		if len(s.Values) != len(outs) {
			failf(s.Pos, "return of %d values from a function with %d results", len(s.Values), len(outs))
		}
		for i, e := range s.Values {
			if outs[i] != nil {
				ops = append(ops, operand{r: fl.aexpr(e)})
			} else {
				ops = append(ops, operand{v: fl.expr(e)})
			}
		}
	}
	var words []*ir.Value
	for i, out := range fl.outs[fl.decl] {
		if out == nil {
			if ops[i].v == nil {
				failf(s.Pos, "returning an array as a word")
			}
			words = append(words, ops[i].v)
			continue
		}
		if ops[i].r == nil {
			failf(s.Pos, "returning a word as an array")
		}
		t := fl.decl.ResultTypes[i].(*lang.ArrayType)
		fl.copyArray(&aref{arr: out, off: fl.idx(0), n: fl.idx(uint64(t.Len)), typ: t}, ops[i].r)
	}
	if fl.done == nil {
		fl.b.Return(words...)
		return
	}
	for i, v := range words {
		fl.b.Store(fl.results[i], v, fl.idx(0))
	}
	fl.b.Store(fl.done, fl.b.Const(ir.Bool, 1), fl.idx(0))
}
