package lang

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/lowent/lowentc/sem"
)

// requires checks a function's requires conditions (bool, and built only
// from parameters, constants, len, arithmetic, comparisons and &&) and turns
// them into facts for the bounds analysis of its body. Call sites discharge
// them (discharge), so inside the function they hold.
func (c *checker) requires(info *funcInfo) {
	c.inRequires = true
	defer func() { c.inRequires = false }()
	ok := true
	for _, r := range info.decl.Requires {
		if r == nil {
			continue
		}
		t := c.expr(r)
		switch {
		case t == nil:
			ok = false
			continue
		case !isBool(t):
			c.errorf(startPos(r), "requires condition must be bool, not %s", typeName(t))
			c.dropUntyped(r)
			ok = false
			continue
		}
		if bad, what := c.requiresShape(r); bad != nil {
			c.errorf(bad.Position(), "%s is not allowed in requires (only parameters, constants, len, arithmetic, comparisons and &&)", what)
			ok = false
		}
	}
	if !ok {
		// Keep only what is certain: no facts, and call sites do not
		// evaluate a broken condition.
		info.reqBroken = true
		return
	}
	c.requireFacts(info)
}

// requiresShape returns the first part of a requires condition that is not
// allowed there, and a description of it.
func (c *checker) requiresShape(e Expr) (Expr, string) {
	switch x := e.(type) {
	case *IntLit, *BoolLit:
		return nil, ""
	case *ParenExpr:
		return c.requiresShape(x.X)
	case *Ident:
		if x.Sym == nil {
			return nil, ""
		}
		switch x.Sym.Kind {
		case SymConst:
			if isWord(x.Sym.Type) || isBool(x.Sym.Type) {
				return nil, ""
			}
			return x, "constant array " + x.Name
		case SymParam:
			if isWord(x.Sym.Type) || isBool(x.Sym.Type) {
				return nil, ""
			}
			return x, "array parameter " + x.Name + " (use len(" + x.Name + "))"
		}
		return x, x.Name
	case *CallExpr:
		if x.Builtin != nil && x.Builtin.ID == BLen && len(x.Args) == 1 {
			if id, ok := strip(x.Args[0]).(*Ident); ok && id.Sym != nil && id.Sym.Kind == SymParam {
				return nil, ""
			}
			return x, "len of " + exprString(x.Args[0])
		}
		return x, "a call of " + calleeName(x)
	case *UnaryExpr:
		if x.Op == sem.OpLogNot {
			return x, "!"
		}
		return c.requiresShape(x.X)
	case *CastExpr:
		return c.requiresShape(x.X)
	case *BinaryExpr:
		if x.Op == sem.OpLogOr {
			return x, "||"
		}
		if x.Op.IsDivision() {
			if v, ok := c.constWord(x.R); !ok || v == 0 {
				return x.R, "a divisor other than a non-zero constant"
			}
		}
		if bad, what := c.requiresShape(x.L); bad != nil {
			return bad, what
		}
		return c.requiresShape(x.R)
	case *IndexExpr:
		return x, "indexing"
	case *ArrayLit:
		return x, "an array literal"
	}
	return e, exprString(e)
}

// conjuncts splits a condition on &&.
func conjuncts(e Expr, out []Expr) []Expr {
	e = strip(e)
	if b, ok := e.(*BinaryExpr); ok && b.Op == sem.OpLogAnd {
		return conjuncts(b.R, conjuncts(b.L, out))
	}
	return append(out, e)
}

// lenParam returns p when e is len(p) for a parameter p.
func lenParam(e Expr) *Symbol {
	call, ok := strip(e).(*CallExpr)
	if !ok || call.Builtin == nil || call.Builtin.ID != BLen || len(call.Args) != 1 {
		return nil
	}
	id, ok := strip(call.Args[0]).(*Ident)
	if !ok || id.Sym == nil || id.Sym.Kind != SymParam {
		return nil
	}
	return id.Sym
}

// wordParam returns p when e is a word parameter p.
func wordParam(e Expr) *Symbol {
	id, ok := strip(e).(*Ident)
	if !ok || id.Sym == nil || id.Sym.Kind != SymParam || !isWord(id.Sym.Type) {
		return nil
	}
	return id.Sym
}

// requireFacts derives, from the function's requires, equal-length classes
// of slice parameters, length bounds (Symbol.MinLen/MaxLen), ranges of word
// parameters, and the canonical form of every conjunct.
func (c *checker) requireFacts(info *funcInfo) {
	var all []Expr
	for _, r := range info.decl.Requires {
		all = conjuncts(r, all)
	}
	type bound struct {
		lo, hi uint64
		set    bool
	}
	lens := map[*Symbol]*bound{}
	get := func(s *Symbol) *bound {
		b := lens[s]
		if b == nil {
			b = &bound{0, maxLen, true}
			if s.MaxLen >= 0 {
				b.lo, b.hi = uint64(max(s.MinLen, 0)), uint64(s.MaxLen)
			}
			lens[s] = b
		}
		return b
	}
	for _, e := range all {
		b, ok := e.(*BinaryExpr)
		if !ok || !b.Op.IsCompare() {
			continue
		}
		if p, q := lenParam(b.L), lenParam(b.R); p != nil && q != nil && b.Op == sem.OpEq {
			c.unionLen(p, q)
			continue
		}
		l, op, r := b.L, b.Op, b.R
		if _, ok := c.constWord(l); ok {
			l, op, r = r, op.Mirror(), l
		}
		v, ok := c.constWord(r)
		if !ok {
			continue
		}
		var cur interval
		var s *Symbol
		if s = lenParam(l); s != nil {
			bd := get(s)
			cur = interval{bd.lo, bd.hi}
		} else if s = wordParam(l); s != nil {
			cur = fullRange(s.Type)
			if r, ok := info.ranges[s]; ok {
				cur = r
			}
		} else {
			continue
		}
		switch op {
		case sem.OpGe:
			cur.lo = max(cur.lo, v)
		case sem.OpGt:
			if v < ^uint64(0) {
				cur.lo = max(cur.lo, v+1)
			}
		case sem.OpEq:
			cur.lo, cur.hi = max(cur.lo, v), min(cur.hi, v)
		case sem.OpLe:
			cur.hi = min(cur.hi, v)
		case sem.OpLt:
			if v > 0 {
				cur.hi = min(cur.hi, v-1)
			}
		}
		if cur.lo > cur.hi {
			// Unsatisfiable: every call fails its check, so the body
			// never runs; keep the facts that are certain.
			continue
		}
		if lenParam(l) != nil {
			bd := get(s)
			bd.lo, bd.hi = cur.lo, cur.hi
		} else {
			info.ranges[s] = cur
		}
	}
	// Every slice of a class has the class's tightest bounds.
	classes := map[*Symbol]*bound{}
	var syms []*Symbol
	for _, p := range info.decl.Params {
		if p == nil || p.Sym == nil {
			continue
		}
		if _, ok := p.Sym.Type.(*SliceType); !ok {
			continue
		}
		syms = append(syms, p.Sym)
		root := c.lenRoot(p.Sym)
		b := get(p.Sym)
		if cb := classes[root]; cb == nil {
			classes[root] = &bound{b.lo, b.hi, true}
		} else {
			cb.lo, cb.hi = max(cb.lo, b.lo), min(cb.hi, b.hi)
		}
	}
	for _, s := range syms {
		cb := classes[c.lenRoot(s)]
		if cb.lo > cb.hi {
			continue
		}
		s.MinLen, s.MaxLen = int64(cb.lo), int64(cb.hi)
		if cb.hi == maxLen {
			s.MaxLen = -1
		}
	}
	for _, e := range all {
		if k := c.canonCompare(e, nil); k != "" {
			info.facts[k] = true
		}
	}
}

// discharge decides a callee's requires at a call site with the arguments
// substituted: false is an error, true costs nothing, unknown is checked at
// run time before the call (CheckRequires, the trap effect).
func (c *checker) discharge(e *CallExpr, fn *FuncDecl) {
	info := c.infos[fn]
	if info == nil || info.reqBroken || len(fn.Requires) == 0 {
		return
	}
	args := map[*Symbol]Expr{}
	for i, p := range fn.Params {
		if p == nil || p.Sym == nil || i >= len(e.Args) {
			return
		}
		args[p.Sym] = e.Args[i]
	}
	name := calleeName(e)
	for _, r := range fn.Requires {
		switch c.decide(r, args) {
		case -1:
			d := c.errorf(e.Pos, "call to %s violates its requires %s (declared at %s)", name, exprString(r), startPos(r))
			d.Notes = append(d.Notes, Note{Pos: startPos(r), Msg: "requires of " + fn.Name + " declared here"})
		case 0:
			e.CheckRequires = true
		}
	}
	if e.CheckRequires {
		c.trapSite(e.Pos, fmt.Sprintf("requires of %s not proven (checked at run time)", name))
	}
}

// decide evaluates a (callee) condition with args substituted for the
// callee's parameters, in the caller: 1 true, -1 false, 0 unknown.
func (c *checker) decide(e Expr, args map[*Symbol]Expr) int {
	switch x := strip(e).(type) {
	case *BoolLit:
		if x.Val {
			return 1
		}
		return -1
	case *UnaryExpr:
		if x.Op == sem.OpLogNot {
			return -c.decide(x.X, args)
		}
	case *BinaryExpr:
		switch {
		case x.Op == sem.OpLogAnd:
			a, b := c.decide(x.L, args), c.decide(x.R, args)
			switch {
			case a < 0 || b < 0:
				return -1
			case a > 0 && b > 0:
				return 1
			}
			return 0
		case x.Op == sem.OpLogOr:
			a, b := c.decide(x.L, args), c.decide(x.R, args)
			switch {
			case a > 0 || b > 0:
				return 1
			case a < 0 && b < 0:
				return -1
			}
			return 0
		case x.Op.IsCompare() && isWord(x.L.Type()):
			if d := compareRanges(x.Op, c.reqRange(x.L, args), c.reqRange(x.R, args)); d != 0 {
				return d
			}
			lk, rk := c.canon(x.L, args), c.canon(x.R, args)
			if lk != "" && lk == rk {
				switch x.Op {
				case sem.OpEq, sem.OpLe, sem.OpGe:
					return 1
				}
				return -1
			}
			if k := c.canonCompare(x, args); k != "" && c.cur.facts[k] {
				return 1
			}
			return 0
		}
	}
	if v, ok := c.constWord(e); ok {
		if v != 0 {
			return 1
		}
		return -1
	}
	return 0
}

// compareRanges decides a comparison of values known to lie in a and b.
func compareRanges(op BinOp, a, b interval) int {
	lt := func(a, b interval) int { // a < b
		switch {
		case a.hi < b.lo:
			return 1
		case a.lo >= b.hi:
			return -1
		}
		return 0
	}
	switch op {
	case sem.OpLt:
		return lt(a, b)
	case sem.OpGt:
		return lt(b, a)
	case sem.OpLe:
		return -lt(b, a)
	case sem.OpGe:
		return -lt(a, b)
	case sem.OpEq:
		switch {
		case a.lo == a.hi && b.lo == b.hi && a.lo == b.lo:
			return 1
		case a.hi < b.lo || b.hi < a.lo:
			return -1
		}
	case sem.OpNe:
		switch {
		case a.lo == a.hi && b.lo == b.hi && a.lo == b.lo:
			return -1
		case a.hi < b.lo || b.hi < a.lo:
			return 1
		}
	}
	return 0
}

// reqRange is the interval of a callee expression with args substituted,
// evaluated in the caller.
func (c *checker) reqRange(e Expr, args map[*Symbol]Expr) interval {
	if v, ok := c.constWord(e); ok {
		return interval{v, v}
	}
	t := e.Type()
	switch x := e.(type) {
	case *ParenExpr:
		return c.reqRange(x.X, args)
	case *Ident:
		if a, ok := args[x.Sym]; ok && x.Sym != nil {
			return c.rangeOf(a)
		}
	case *CallExpr:
		if p := lenParam(x); p != nil {
			if a, ok := args[p]; ok {
				return c.lenRange(a)
			}
		}
	case *BinaryExpr:
		if x.Op.IsArith() || x.Op.IsShift() {
			r := binRange(x.Op, c.reqRange(x.L, args), c.reqRange(x.R, args), t)
			if r.lo <= r.hi && r.hi <= maskOf(t) {
				return r
			}
		}
	case *UnaryExpr:
		return unaryRange(x.Op, c.reqRange(x.X, args), t)
	case *CastExpr:
		return castRange(c.reqRange(x.X, args), t)
	}
	return fullRange(t)
}

// canon is a canonical text of a word expression in the caller's terms,
// with args substituted for a callee's parameters (args nil: e is the
// current function's own expression). Equal texts mean equal values; ""
// means no symbolic form.
func (c *checker) canon(e Expr, args map[*Symbol]Expr) string {
	if v, ok := c.constWord(e); ok {
		return strconv.FormatUint(v, 10)
	}
	switch x := e.(type) {
	case *ParenExpr:
		return c.canon(x.X, args)
	case *Ident:
		if x.Sym == nil {
			return ""
		}
		if a, ok := args[x.Sym]; ok {
			return c.canon(a, nil)
		}
		switch x.Sym.Kind {
		case SymParam, SymLoopVar:
			return "#" + strconv.Itoa(c.symID(x.Sym))
		case SymLocal:
			if !x.Sym.Mutable {
				return "#" + strconv.Itoa(c.symID(x.Sym))
			}
		}
	case *CallExpr:
		if x.Builtin != nil && x.Builtin.ID == BLen && len(x.Args) == 1 {
			arg := x.Args[0]
			if p := lenParam(x); p != nil {
				if a, ok := args[p]; ok {
					arg = a
				}
			}
			r := c.lenRange(arg)
			if r.lo == r.hi {
				return strconv.FormatUint(r.lo, 10)
			}
			return c.lenKey(arg)
		}
	case *BinaryExpr:
		if x.Op.IsArith() || x.Op.IsShift() {
			l, r := c.canon(x.L, args), c.canon(x.R, args)
			if l != "" && r != "" {
				return "(" + l + x.Op.String() + r + ")"
			}
		}
	case *CastExpr:
		if s := c.canon(x.X, args); s != "" {
			return "(" + s + " as " + typeName(x.Type()) + ")"
		}
	case *UnaryExpr:
		if s := c.canon(x.X, args); s != "" {
			return x.Op.String() + s
		}
	}
	return ""
}

// canonCompare is the canonical text of a comparison (a > b is written
// b < a; == and != order their operands), or "".
func (c *checker) canonCompare(e Expr, args map[*Symbol]Expr) string {
	b, ok := strip(e).(*BinaryExpr)
	if !ok || !b.Op.IsCompare() {
		return ""
	}
	l, r := c.canon(b.L, args), c.canon(b.R, args)
	if l == "" || r == "" {
		return ""
	}
	op := b.Op
	switch op {
	case sem.OpGt, sem.OpGe:
		l, r, op = r, l, op.Mirror()
	case sem.OpEq, sem.OpNe:
		s := []string{l, r}
		sort.Strings(s)
		l, r = s[0], s[1]
	}
	return l + " " + op.String() + " " + r
}
