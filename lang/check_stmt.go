package lang

import (
	"strings"

	"github.com/lowent/lowentc/sem"
)

func (c *checker) stmts(list []Stmt) {
	for _, s := range list {
		c.stmt(s)
	}
}

// block checks a block in a new scope.
func (c *checker) block(b *Block) {
	if b == nil {
		return
	}
	c.pushScope()
	c.stmts(b.Stmts)
	c.popScope()
}

func (c *checker) stmt(s Stmt) {
	switch s := s.(type) {
	case nil:
	case *Block:
		c.block(s)
	case *LetStmt:
		if s != nil {
			c.let(s)
		}
	case *AssignStmt:
		if s != nil {
			c.assign(s)
		}
	case *ExprStmt:
		if s != nil {
			c.exprStmt(s)
		}
	case *IfStmt:
		if s != nil {
			c.ifStmt(s)
		}
	case *ForStmt:
		if s != nil {
			c.forStmt(s)
		}
	case *ForChunksStmt:
		if s != nil {
			c.forChunks(s)
		}
	case *ReturnStmt:
		if s != nil {
			c.ret(s)
		}
	case *AbsorbStmt:
		if s != nil {
			c.absorb(s)
		}
	default:
		c.errorf(s.Position(), "unexpected statement")
	}
}

// let checks `let`/`var` declarations.
func (c *checker) let(s *LetStmt) {
	kw := "let"
	if s.Mutable {
		kw = "var"
	}
	s.Syms = nil
	if len(s.Names) == 0 {
		c.errorf(s.Pos, "%s needs a name", kw)
		return
	}
	if len(s.Names) > 1 {
		c.letMulti(s, kw)
		return
	}
	name := s.Names[0]
	var t Type
	ok := true
	switch {
	case s.TypeExpr != nil:
		t = c.resolveType(s.TypeExpr, false)
		if s.Value != nil {
			ok = c.exprAs(s.Value, t, "declaration of "+name)
		} else if !s.Mutable {
			c.errorf(s.Pos, "let %s needs a value (use var for a zero-initialised variable)", name)
		}
	case s.Value == nil:
		c.errorf(s.Pos, "%s %s needs a type or a value", kw, name)
	default:
		t, ok = c.inferredType(s, name, kw)
	}
	sym := c.newLocal(name, SymLocal, t, s.Mutable, s.Pos)
	s.Syms = []*Symbol{sym}
	if ok && t != nil && !s.Mutable && s.Value != nil {
		c.bindFacts(sym, s.Value)
	}
}

// inferredType checks the value of a declaration without a type and returns
// the type the variable gets.
func (c *checker) inferredType(s *LetStmt, name, kw string) (Type, bool) {
	if _, lit := strip(s.Value).(*ArrayLit); lit {
		c.errorf(s.Value.Position(), "cannot infer the type of an array literal: write %s %s: [N]T = [...]", kw, name)
		return nil, false
	}
	switch t := c.expr(s.Value).(type) {
	case nil:
		return nil, false
	case *UntypedInt:
		c.errorf(startPos(s.Value), "cannot infer the type of %s from constant %s: write %s %s: u32 = ... or give the value a type with as",
			name, exprString(s.Value), kw, name)
		c.dropUntyped(s.Value)
		return nil, false
	case *SliceType:
		if s.Mutable {
			c.errorf(s.Value.Position(), "a slice cannot be copied into var %s; bind it with let", name)
			return nil, false
		}
		return t, true
	default:
		return t, true
	}
}

// letMulti checks `let (a, b) = f(...)` and `var (a, b) = f(...)`.
func (c *checker) letMulti(s *LetStmt, kw string) {
	if s.TypeExpr != nil {
		c.errorf(s.TypeExpr.Pos, "%s (%s) takes its types from the call; remove the type", kw, strings.Join(s.Names, ", "))
	}
	types := c.multiValue(s.Value, len(s.Names), "names", s.Pos)
	for i, n := range s.Names {
		var t Type
		if types != nil {
			t = types[i]
		}
		s.Syms = append(s.Syms, c.newLocal(n, SymLocal, t, s.Mutable, s.Pos))
	}
}

// multiValue checks the call on the right of a destructuring and returns its
// n result types, or nil after an error.
func (c *checker) multiValue(v Expr, n int, what string, p Pos) []Type {
	if v == nil {
		c.errorf(p, "binding %d %s needs a call with %d results", n, what, n)
		return nil
	}
	call, ok := strip(v).(*CallExpr)
	if !ok {
		c.errorf(v.Position(), "binding %d %s needs a call with %d results, not %s", n, what, n, exprString(v))
		c.looseArgs([]Expr{v})
		return nil
	}
	t, ok := c.call(call)
	if !ok {
		return nil
	}
	setParenTypes(v, t)
	got := 0
	var types []Type
	switch t := t.(type) {
	case nil:
	case *TupleType:
		got, types = len(t.Elems), t.Elems
	default:
		got, types = 1, []Type{t}
	}
	if got != n {
		c.errorf(v.Position(), "assignment mismatch: %d %s but %s returns %d %s", n, what, calleeName(call), got, pluralWord(got, "value"))
		return nil
	}
	return types
}

// setParenTypes sets the type of e and of every expression it parenthesises.
func setParenTypes(e Expr, t Type) {
	for {
		e.SetType(t)
		p, ok := e.(*ParenExpr)
		if !ok || p.X == nil {
			return
		}
		e = p.X
	}
}

// assign checks `x = E`, `x op= E` and `(a, b) = f(...)`.
func (c *checker) assign(s *AssignStmt) {
	s.Checked = false
	if len(s.Targets) == 0 {
		c.errorf(s.Pos, "assignment needs a target")
		return
	}
	if len(s.Values) > 0 {
		c.assignParallel(s)
		return
	}
	if len(s.Targets) > 1 {
		c.assignMulti(s)
		return
	}
	tgt := s.Targets[0]
	if s.Op == sem.OpNone {
		if id, ok := strip(tgt).(*Ident); ok && id.Name == "_" && id.Module == "" {
			if t := c.expr(s.Value); t == Untyped {
				c.dropUntyped(s.Value)
			}
			return
		}
		tt := c.target(tgt)
		c.exprAs(s.Value, tt, "assignment")
		return
	}
	op := s.Op
	if !op.Compoundable() {
		c.errorf(s.Pos, "unknown assignment operator %s", s.OpText())
		c.looseArgs([]Expr{s.Value})
		return
	}
	tt := c.target(tgt)
	if tt == nil {
		c.looseArgs([]Expr{s.Value})
		return
	}
	if !isWord(tt) {
		c.errorf(s.Pos, "operator %s is not defined on %s", s.OpText(), tt)
		c.looseArgs([]Expr{s.Value})
		return
	}
	if op.IsShift() {
		c.wordArg(s.Value, "shift amount")
		return
	}
	if !c.exprAs(s.Value, tt, s.OpText()) {
		return
	}
	if op.IsDivision() {
		if c.divisor(s.Value, s.Pos) {
			s.Checked = c.divChecked(s.Value, s.Pos)
		}
	}
}

// assignMulti checks `(a, b) = f(...)`.
func (c *checker) assignMulti(s *AssignStmt) {
	if s.Op != sem.OpNone {
		c.errorf(s.Pos, "%s takes one target", s.OpText())
		return
	}
	types := c.multiValue(s.Value, len(s.Targets), "targets", s.Pos)
	seen := map[*Symbol]bool{}
	for i, tg := range s.Targets {
		if tg == nil {
			continue
		}
		var want Type
		if types != nil {
			want = types[i]
		}
		if id, ok := strip(tg).(*Ident); ok && id.Name == "_" && id.Module == "" {
			setParenTypes(tg, want)
			continue
		}
		tt := c.target(tg)
		if id, ok := strip(tg).(*Ident); ok && id.Sym != nil {
			if seen[id.Sym] {
				c.errorf(tg.Position(), "%s is assigned twice", id.Name)
			}
			seen[id.Sym] = true
		}
		if tt != nil && want != nil && !Identical(tt, want) {
			c.errorf(tg.Position(), "cannot use %s as %s in assignment", want, tt)
		}
	}
}

// assignParallel checks `a, b = E1, E2`: as many values as targets, each
// value of its target's type, no variable assigned twice.
func (c *checker) assignParallel(s *AssignStmt) {
	if s.Op != sem.OpNone {
		c.looseArgs(s.Values)
		return // the parser reported it
	}
	if len(s.Values) != len(s.Targets) {
		c.errorf(s.Values[0].Position(), "assignment of %d values to %d targets", len(s.Values), len(s.Targets))
		c.looseArgs(s.Values)
		return
	}
	seen := map[*Symbol]bool{}
	for i, tg := range s.Targets {
		v := s.Values[i]
		if tg == nil || v == nil {
			continue
		}
		if id, ok := strip(tg).(*Ident); ok && id.Name == "_" && id.Module == "" {
			if t := c.expr(v); t == Untyped {
				c.dropUntyped(v)
			} else if _, multi := t.(*TupleType); multi {
				c.errorf(v.Position(), "%s returns %d values; a parallel assignment takes one value per target", exprString(v), len(t.(*TupleType).Elems))
			}
			setParenTypes(tg, nil)
			continue
		}
		tt := c.target(tg)
		if id, ok := strip(tg).(*Ident); ok && id.Sym != nil {
			if seen[id.Sym] {
				c.errorf(tg.Position(), "%s is assigned twice", id.Name)
			}
			seen[id.Sym] = true
		}
		if tt == nil {
			c.looseArgs([]Expr{v})
			continue
		}
		c.exprAs(v, tt, "assignment")
	}
}

// target checks the left side of an assignment and returns its type, or nil
// after an error.
func (c *checker) target(e Expr) Type {
	if e == nil {
		return nil
	}
	var t Type
	switch x := strip(e).(type) {
	case *Ident:
		t = c.expr(x)
		if t == nil || x.Sym == nil {
			return nil
		}
		if why := c.notAssignable(x); why != "" {
			c.errorf(x.Pos, "cannot assign to %s: %s", exprString(x), why)
			return nil
		}
	case *IndexExpr:
		t = c.expr(x)
		if t == nil {
			return nil
		}
		if why := c.notWritable(x.X); why != "" {
			c.errorf(x.Pos, "cannot assign to %s: %s", exprString(x), why)
			return nil
		}
	default:
		c.errorf(e.Position(), "cannot assign to %s", exprString(e))
		c.looseArgs([]Expr{e})
		return nil
	}
	setParenTypes(e, t)
	return t
}

// notAssignable explains why a name cannot be assigned as a whole, or returns "".
func (c *checker) notAssignable(x *Ident) string {
	s := x.Sym
	if _, ok := s.Type.(*SliceType); ok {
		return "a slice cannot be assigned as a whole; assign its elements"
	}
	switch s.Kind {
	case SymParam:
		if _, ok := s.Type.(*ArrayType); !ok {
			return "parameters are read-only (copy it into a var)"
		}
	case SymConst:
		return x.Name + " is a constant"
	case SymFunc:
		return x.Name + " is a function"
	}
	return c.notWritable(x)
}

// exprStmt checks a call used as a statement.
func (c *checker) exprStmt(s *ExprStmt) {
	call, ok := strip(s.X).(*CallExpr)
	if !ok {
		if s.X != nil {
			c.errorf(startPos(s.X), "%s is not a statement: only a call can stand alone", exprString(s.X))
			c.looseArgs([]Expr{s.X})
		}
		return
	}
	t, ok := c.call(call)
	if !ok {
		return
	}
	if t == Untyped {
		c.dropUntyped(call)
		return
	}
	setParenTypes(s.X, t)
}

// cond checks an if condition.
func (c *checker) cond(e Expr, what string) {
	t := c.expr(e)
	if t != nil && !isBool(t) {
		if t == Untyped {
			c.errorf(startPos(e), "%s must be bool, not constant %s", what, exprString(e))
			c.dropUntyped(e)
		} else {
			c.errorf(startPos(e), "%s must be bool, not %s (compare it with 0)", what, t)
		}
	}
}

func (c *checker) ifStmt(s *IfStmt) {
	c.cond(s.Cond, "if condition")
	c.block(s.Then)
	c.stmt(s.Else)
}

// forStmt checks `for i in LO..HI { }`.
func (c *checker) forStmt(s *ForStmt) {
	var p Pos
	if s.Lo != nil {
		p = startPos(s.Lo)
	}
	t := c.unifyPair(s.Lo, s.Hi, "for range", p)
	if t == Untyped {
		// Both bounds untyped: the loop counts in u32.
		if c.convert(s.Lo, U32) && c.convert(s.Hi, U32) {
			t = U32
		} else {
			c.dropUntyped(s.Lo)
			c.dropUntyped(s.Hi)
			t = nil
		}
	}
	if t != nil && !isWord(t) {
		c.errorf(s.Pos, "for range bounds must be words, not %s", t)
		t = nil
	}
	c.pushScope()
	sym := c.newLocal(s.Var, SymLoopVar, t, false, s.Pos)
	s.Sym = sym
	if t != nil {
		c.loopFacts(sym, s.Lo, s.Hi)
	}
	c.block(s.Body)
	c.popScope()
}

// forChunks checks `for [k,] v1, ..., vn in chunks(s1, ..., sn, N) { }`.
func (c *checker) forChunks(s *ForChunksStmt) {
	s.CheckLens = false
	n, nok := c.chunkSize(s.Size, "chunks")
	s.SizeVal = int(n)
	elems := make([]Type, len(s.Sources))
	good := nok
	for i, src := range s.Sources {
		elem, ok := c.seqArg(src, "chunks", "arrays or slices")
		elems[i] = elem
		good = good && ok
	}
	if len(s.Sources) == 0 {
		c.errorf(s.Pos, "chunks needs at least one source")
		good = false
	} else if len(s.Vars) != len(s.Sources) {
		c.errorf(s.Pos, "chunks over %d %s binds %d %s", len(s.Sources), pluralWord(len(s.Sources), "source"), len(s.Vars), pluralWord(len(s.Vars), "view"))
		good = false
	}
	if good {
		c.chunkLens(s)
	}
	c.pushScope()
	if s.Index != "" {
		s.IndexSym = c.newLocal(s.Index, SymLoopVar, U32, false, s.Pos)
		if good {
			c.chunkIndexFacts(s.IndexSym, s.Sources[0], n)
		}
	}
	s.VarSyms = nil
	for i, v := range s.Vars {
		var t Type
		var src Expr
		if i < len(s.Sources) {
			src = s.Sources[i]
		}
		if good && src != nil {
			t = &ArrayType{Len: int(n), Elem: elems[i]}
		}
		writable := src != nil && c.notWritable(src) == ""
		sym := c.newLocal(v, SymView, t, writable, s.Pos)
		if src != nil {
			c.viewSrc[sym] = src
			if id, ok := strip(src).(*Ident); ok {
				sym.Of = id.Sym
			}
		}
		s.VarSyms = append(s.VarSyms, sym)
	}
	c.block(s.Body)
	c.popScope()
}

// ret checks a return statement against the function's results.
func (c *checker) ret(s *ReturnStmt) {
	fn := c.cur.decl
	want := fn.ResultTypes
	if len(s.Values) == 1 && len(want) > 1 {
		if call, ok := strip(s.Values[0]).(*CallExpr); ok {
			if t, ok := c.call(call); ok {
				if _, multi := t.(*TupleType); multi {
					c.errorf(s.Values[0].Position(), "%s returns several values: bind them with let (a, b) = %s(...), then return a, b",
						calleeName(call), calleeName(call))
					return
				}
				if t == Untyped {
					c.dropUntyped(call)
				}
			}
			c.errorf(s.Pos, "not enough return values: fn %s returns %d, got 1", fn.Name, len(want))
			return
		}
	}
	if len(s.Values) != len(want) {
		if len(s.Values) < len(want) {
			c.errorf(s.Pos, "not enough return values: fn %s returns %d, got %d", fn.Name, len(want), len(s.Values))
		} else {
			c.errorf(s.Pos, "too many return values: fn %s returns %d, got %d", fn.Name, len(want), len(s.Values))
		}
		c.looseArgs(s.Values)
		return
	}
	for i, v := range s.Values {
		c.exprAs(v, want[i], "return")
	}
}

// absorb checks `absorb E, ... because "REASON" { }`; whether the body has
// the listed effects is checked once effects are inferred.
func (c *checker) absorb(s *AbsorbStmt) {
	s.Set = c.effectNames(s.Effects, s.Pos)
	if len(s.Effects) == 0 {
		c.errorf(s.Pos, "absorb must list the effects it stops")
	}
	for _, n := range s.Effects {
		if n == "none" {
			c.errorf(s.Pos, "absorb none stops nothing; list effects such as unsafe")
		}
	}
	if strings.TrimSpace(s.Reason) == "" {
		c.errorf(s.Pos, "absorb needs a reason: absorb %s because \"why this is safe\" { }", strings.Join(s.Effects, ", "))
	}
	a := &absorbInfo{stmt: s, set: s.Set}
	c.cur.absorbs = append(c.cur.absorbs, a)
	c.absorbs = append(c.absorbs, a)
	c.block(s.Body)
	c.absorbs = c.absorbs[:len(c.absorbs)-1]
}
