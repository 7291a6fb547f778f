package jcvm

// Deep expressions: an expression tree is evaluated on the operand stack,
// and a right-nested chain such as x - (x - (x - ...)) (or a long chain of
// negations, lowered to 0 - X) keeps every left operand on the stack until
// the innermost one is reached, so 200 levels of u32 need 400 cells where
// the JCVM allows 255. A statement whose expression needs more than the
// limit is rewritten: a commutative operation whose left operand is a plain
// value evaluates its deeper right operand first, and an operand that
// would still carry the need past hoistDepth is computed into a temporary
// local by a statement of its own just before. Everything else is
// evaluated in the original order (the operands evaluated before a hoisted
// one are hoisted too unless they are constants or locals, which the
// hoisted statements cannot change: they assign only fresh temporaries).
// Statements within the limit are left exactly as they are.

// hoistDepth is the operand-stack cells a rewritten expression may need:
// well below maxStack, so spilled locals (loaded as a few array reads)
// cannot carry it over.
const hoistDepth = 128

// shallow rewrites the statements of m whose expressions need more
// operand-stack cells than the JCVM allows.
func shallow(m *Method) {
	m.Body = shallowStmts(m, m.Body)
}

func shallowStmts(m *Method, ss []Stmt) []Stmt {
	var out []Stmt
	for _, s := range ss {
		switch x := s.(type) {
		case *SIf:
			x.Then = shallowStmts(m, x.Then)
			x.Else = shallowStmts(m, x.Else)
		case *SWhile:
			// The condition is evaluated again on every iteration: a
			// hoisted part would have to be too. Loop conditions are
			// shallow comparisons; only the body is rewritten.
			x.Body = shallowStmts(m, x.Body)
			out = append(out, s)
			continue
		}
		if stmtNeed(s) <= maxStack {
			out = append(out, s)
			continue
		}
		h := &hoister{m: m}
		r := h.stmt(s)
		out = append(append(out, h.pre...), r)
	}
	return out
}

// stmtNeed is the operand-stack cells the code generator uses for s itself
// (not for the statements nested in it).
func stmtNeed(s Stmt) int {
	switch s := s.(type) {
	case *SAssign:
		return need(s.X)
	case *SStore:
		return 1 + max(need(s.I), s.I.Kind().Cells()+need(s.X))
	case *SIf:
		return condNeed(s.C)
	case *SWhile:
		return condNeed(s.C)
	case *SReturn:
		if s.X != nil {
			return need(s.X)
		}
	case *SCall:
		return need(s.C)
	}
	return 0
}

// need is the most operand-stack cells evaluating e takes, as the code
// generator emits it.
func need(e Expr) int {
	n := e.Kind().Cells()
	switch e := e.(type) {
	case *EBin:
		n = max(n, need(e.X), e.X.Kind().Cells()+need(e.Y))
	case *ENeg:
		n = max(n, need(e.X))
	case *EConv:
		n = max(n, need(e.X))
	case *ELoad:
		n = max(n, 1+need(e.I))
	case *ECond:
		n = max(n, condNeed(e.C), need(e.T), need(e.F))
	case *ECall:
		below := 0
		for _, a := range e.Args {
			n = max(n, below+need(a))
			below += a.Kind().Cells()
		}
	}
	return n
}

func condNeed(c Cond) int {
	return max(need(c.X), c.X.Kind().Cells()+need(c.Y))
}

// stable reports whether e's value cannot be changed by the statements a
// hoister adds, and evaluating it has no effect: it may move after them.
func stable(e Expr) bool {
	switch e.(type) {
	case *EConst, *EVar, *ELen, *EArr:
		return true
	}
	return false
}

// commutative reports whether X op Y equals Y op X.
func commutative(op BinOp) bool {
	switch op {
	case OAdd, OMul, OAnd, OOr, OXor:
		return true
	}
	return false
}

// hoister rewrites one statement, collecting in pre the statements that
// compute its hoisted parts, in their order of evaluation.
type hoister struct {
	m   *Method
	pre []Stmt
}

// temp hoists e into a fresh local and returns its read.
func (h *hoister) temp(e Expr) Expr {
	v := h.m.newVar(e.Kind())
	h.pre = append(h.pre, &SAssign{V: v, X: e})
	return &EVar{V: v}
}

func (h *hoister) stmt(s Stmt) Stmt {
	switch s := s.(type) {
	case *SAssign:
		return &SAssign{V: s.V, X: h.expr(s.X)}
	case *SStore:
		es := h.seq([]Expr{s.I, s.X})
		return &SStore{A: s.A, I: es[0], X: es[1]}
	case *SIf:
		return &SIf{C: h.cond(s.C), Then: s.Then, Else: s.Else}
	case *SReturn:
		return &SReturn{X: h.expr(s.X)}
	case *SCall:
		return &SCall{C: &ECall{M: s.C.M, Args: h.seq(s.C.Args)}}
	}
	return s
}

func (h *hoister) cond(c Cond) Cond {
	es := h.seq([]Expr{c.X, c.Y})
	return Cond{Rel: c.Rel, X: es[0], Y: es[1]}
}

// seq rewrites operands evaluated in the order of es. When an operand's
// rewriting hoists statements, the operands before it are hoisted first
// (unless stable) so that the order of evaluation is kept.
func (h *hoister) seq(es []Expr) []Expr {
	out := make([]Expr, len(es))
	for i, e := range es {
		mark := len(h.pre)
		r := h.expr(e)
		if len(h.pre) > mark {
			later := append([]Stmt(nil), h.pre[mark:]...)
			h.pre = h.pre[:mark]
			for j := 0; j < i; j++ {
				if !stable(out[j]) {
					out[j] = h.temp(out[j])
				}
			}
			h.pre = append(h.pre, later...)
		}
		out[i] = r
	}
	return out
}

// expr returns e rewritten to need at most about hoistDepth cells.
func (h *hoister) expr(e Expr) Expr {
	var r Expr
	switch x := e.(type) {
	case *EBin:
		es := h.seq([]Expr{x.X, x.Y})
		b := &EBin{Op: x.Op, K: x.K, X: es[0], Y: es[1]}
		if commutative(b.Op) && stable(b.X) && need(b.Y) > need(b.X) {
			b.X, b.Y = b.Y, b.X
		}
		r = b
	case *ENeg:
		r = &ENeg{X: h.expr(x.X)}
	case *EConv:
		r = &EConv{To: x.To, B: x.B, X: h.expr(x.X)}
	case *ELoad:
		r = &ELoad{A: x.A, I: h.expr(x.I)}
	case *ECall:
		r = &ECall{M: x.M, Args: h.seq(x.Args)}
	case *ECond:
		c := h.cond(x.C)
		mark := len(h.pre)
		t := h.expr(x.T)
		then := append([]Stmt(nil), h.pre[mark:]...)
		h.pre = h.pre[:mark]
		f := h.expr(x.F)
		els := append([]Stmt(nil), h.pre[mark:]...)
		h.pre = h.pre[:mark]
		if len(then) == 0 && len(els) == 0 {
			r = &ECond{C: c, T: t, F: f}
			break
		}
		// A branch hoisted statements: they may only run when it is
		// taken, so the choice becomes an if statement.
		v := h.m.newVar(t.Kind())
		then = append(then, &SAssign{V: v, X: t})
		els = append(els, &SAssign{V: v, X: f})
		h.pre = append(h.pre, &SIf{C: c, Then: then, Else: els})
		return &EVar{V: v}
	default:
		return e
	}
	if need(r) <= hoistDepth {
		return r
	}
	switch x := r.(type) {
	case *EBin:
		if !stable(x.X) {
			x.X = h.temp(x.X)
		}
		if !stable(x.Y) {
			x.Y = h.temp(x.Y)
		}
	case *ECall:
		for i, a := range x.Args {
			if !stable(a) {
				x.Args[i] = h.temp(a)
			}
		}
	case *ENeg:
		x.X = h.temp(x.X)
	case *EConv:
		x.X = h.temp(x.X)
	case *ELoad:
		x.I = h.temp(x.I)
	}
	return r
}
