package jcvm

// Splitting: a JCVM method holds at most 32,767 bytes of bytecode, and a
// fully unrolled BLAKE2b compression is about 37 KB. A statement list over
// the budget keeps its first part and hands the rest to a chain of new
// methods: each runs its part and calls the next, passing as parameters
// every value the rest shares with the code outside it. Values the rest
// assigns and the outside reads again come back through the carry array;
// a list ending in the method's return returns through the chain instead.
// Lists are split innermost first.

// splitBudget is the estimated bytecode size of one piece. The estimate
// does not see the loads and stores spilling adds later: a class with a
// method still too large is compiled again with smaller pieces.
const splitBudget = 14000

// split splits m's statement lists estimated over budget bytes, adding
// methods to cls.
func split(cls *Class, m *Method, budget int) {
	s := &splitter{cls: cls, m: m, budget: budget}
	m.Body = s.list(m.Body, true)
	adoptVars(m)
}

type splitter struct {
	cls    *Class
	m      *Method
	n      int
	budget int
}

func (s *splitter) list(ss []Stmt, top bool) []Stmt {
	for _, st := range ss {
		switch st := st.(type) {
		case *SIf:
			st.Then = s.list(st.Then, false)
			st.Else = s.list(st.Else, false)
		case *SWhile:
			st.Body = s.list(st.Body, false)
		}
	}
	total := 0
	for _, st := range ss {
		total += stmtSize(st)
	}
	if total <= s.budget {
		return ss
	}
	// Cut points: pieces of at most the budget, the first staying here.
	var cuts []int
	acc := 0
	for i, st := range ss {
		sz := stmtSize(st)
		if acc+sz > s.budget && acc > 0 {
			cuts = append(cuts, i)
			acc = 0
		}
		acc += sz
	}
	if len(cuts) == 0 {
		return ss
	}
	returns := false
	if r, ok := ss[len(ss)-1].(*SReturn); ok && top {
		returns = true
		_ = r
	}
	// Values the whole tail shares with the rest of the method.
	all := refCounts(s.m.Body)
	for _, p := range s.m.Params {
		all[p]++ // the caller defines the parameters
	}
	tail := ss[cuts[0]:]
	inTail := refCountsList(tail)
	var outs []*Var
	if !returns {
		assigned := assignedIn(tail)
		for _, v := range s.m.Vars {
			if assigned[v] && inTail[v] < all[v] {
				outs = append(outs, v)
			}
		}
	}
	// Build the chain from its end.
	var next *Method
	var nextArgs []*Var
	var nextMem *viaMemory
	for j := len(cuts) - 1; j >= 0; j-- {
		end := len(ss)
		if j+1 < len(cuts) {
			end = cuts[j+1]
		}
		piece := ss[cuts[j]:end]
		shared := sharedVars(s.m, ss[cuts[j]:], all, outs)
		s.n++
		for s.cls.hasMethod(s.m.Name + "_" + itoa(s.n)) {
			s.n++ // a function of the program has that name
		}
		child := &Method{Name: s.m.Name + "_" + itoa(s.n), Ret: KVoid, nextID: s.m.nextID, Pos: s.m.Pos, fn: s.m.fn}
		if returns {
			child.Ret = s.m.Ret
		}
		mem := s.passInMemory(child, shared, piece)
		r := &renamer{vars: map[*Var]*Var{}, arrs: map[*Arr]*Arr{}}
		for _, v := range shared {
			nv := child.newVar(v.Kind)
			r.vars[v] = nv
			if mem == nil || !hasSlot(mem, v) {
				child.Params = append(child.Params, nv)
			}
		}
		for _, v := range shared {
			if v.Kind == KRef {
				r.arr(v.Arr)
			}
		}
		body := r.stmts(piece)
		if next != nil {
			pre, args := callArgs(nextMem, nextArgs, r.v)
			body = append(body, pre...)
			call := &ECall{M: next, Args: args}
			if returns && child.Ret != KVoid {
				body = append(body, &SReturn{X: call})
			} else {
				body = append(body, &SCall{C: call}, &SReturn{})
			}
		} else if !returns {
			l := &lowerer{cls: s.cls, m: child, out: &body}
			k := 0
			for _, v := range outs {
				k = l.storeCarry(k, &EVar{V: r.v(v)})
			}
			body = append(body, &SReturn{})
		}
		child.Body = readFromMemory(mem, shared, r, body)
		s.m.nextID = child.nextID
		adoptVars(child)
		s.cls.Methods = append(s.cls.Methods, child)
		next, nextArgs, nextMem = child, shared, mem
	}
	head := append([]Stmt(nil), ss[:cuts[0]]...)
	pre, args := callArgs(nextMem, nextArgs, func(v *Var) *Var { return v })
	head = append(head, pre...)
	call := &ECall{M: next, Args: args}
	if returns {
		if s.m.Ret != KVoid {
			return append(head, &SReturn{X: call})
		}
		return append(head, &SCall{C: call}, &SReturn{})
	}
	head = append(head, &SCall{C: call})
	l := &lowerer{cls: s.cls, m: s.m, out: &head}
	k := 0
	for _, v := range outs {
		var e Expr
		e, k = l.loadCarry(k, v.Kind)
		head = append(head, &SAssign{V: v, X: e})
	}
	return head
}

// sharedVars lists the variables tail shares with the rest of m (plus
// outs), the array references first followed by everything else.
func sharedVars(m *Method, tail []Stmt, all map[*Var]int, outs []*Var) []*Var {
	in := refCountsList(tail)
	want := map[*Var]bool{}
	for v, c := range in {
		if c < all[v] {
			want[v] = true
		}
	}
	for _, v := range outs {
		want[v] = true
	}
	// An array's reference, offset and length travel together.
	for v := range want {
		if v.Kind == KRef {
			if v.Arr.Off != nil {
				want[v.Arr.Off] = true
			}
			if v.Arr.LenV != nil {
				want[v.Arr.LenV] = true
			}
		}
	}
	var list []*Var
	for _, v := range m.Vars {
		if want[v] {
			list = append(list, v)
		}
	}
	return list
}

func refCounts(ss []Stmt) map[*Var]int { return refCountsList(ss) }

func refCountsList(ss []Stmt) map[*Var]int {
	lv := &liveness{iv: map[*Var]*interval{}, count: map[*Var]int{}}
	lv.stmts(ss)
	return lv.count
}

// assignedIn returns the variables ss assigns.
func assignedIn(ss []Stmt) map[*Var]bool {
	out := map[*Var]bool{}
	var walk func(ss []Stmt)
	walk = func(ss []Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *SAssign:
				out[s.V] = true
			case *SIf:
				walk(s.Then)
				walk(s.Else)
			case *SWhile:
				walk(s.Body)
			}
		}
	}
	walk(ss)
	return out
}

// adoptVars sets m.Vars to its parameters and every variable its body
// mentions, so each method declares exactly its own locals.
func adoptVars(m *Method) {
	counts := refCountsList(m.Body)
	seen := map[*Var]bool{}
	vars := append([]*Var(nil), m.Params...)
	for _, v := range m.Params {
		seen[v] = true
	}
	var rest []*Var
	for v := range counts {
		if !seen[v] {
			seen[v] = true
			rest = append(rest, v)
		}
	}
	sortVars(rest)
	m.Vars = append(vars, rest...)
}

func sortVars(vs []*Var) {
	for i := 1; i < len(vs); i++ {
		for j := i; j > 0 && vs[j].ID < vs[j-1].ID; j-- {
			vs[j], vs[j-1] = vs[j-1], vs[j]
		}
	}
}

// renamer copies statements into another method, replacing shared
// variables by that method's parameters.
type renamer struct {
	vars map[*Var]*Var
	arrs map[*Arr]*Arr
}

func (r *renamer) v(v *Var) *Var {
	if nv, ok := r.vars[v]; ok {
		return nv
	}
	return v
}

func (r *renamer) arr(a *Arr) *Arr {
	if a.Static() {
		return a
	}
	if na, ok := r.arrs[a]; ok {
		return na
	}
	na := *a
	na.Ref = r.v(a.Ref)
	if a.Off != nil {
		na.Off = r.v(a.Off)
	}
	if a.LenV != nil {
		na.LenV = r.v(a.LenV)
	}
	r.arrs[a] = &na
	na.Ref.Arr = &na
	return &na
}

func (r *renamer) expr(e Expr) Expr {
	switch x := e.(type) {
	case *EVar:
		return &EVar{V: r.v(x.V)}
	case *EBin:
		return &EBin{Op: x.Op, K: x.K, X: r.expr(x.X), Y: r.expr(x.Y)}
	case *ENeg:
		return &ENeg{X: r.expr(x.X)}
	case *EConv:
		return &EConv{To: x.To, B: x.B, X: r.expr(x.X)}
	case *ELoad:
		return &ELoad{A: r.arr(x.A), I: r.expr(x.I)}
	case *ECond:
		return &ECond{C: r.cond(x.C), T: r.expr(x.T), F: r.expr(x.F)}
	case *ECall:
		args := make([]Expr, len(x.Args))
		for i, a := range x.Args {
			args[i] = r.expr(a)
		}
		return &ECall{M: x.M, Args: args}
	}
	return e
}

func (r *renamer) cond(c Cond) Cond { return Cond{Rel: c.Rel, X: r.expr(c.X), Y: r.expr(c.Y)} }

func (r *renamer) stmts(ss []Stmt) []Stmt {
	out := make([]Stmt, 0, len(ss))
	for _, s := range ss {
		switch s := s.(type) {
		case *SAssign:
			out = append(out, &SAssign{V: r.v(s.V), X: r.expr(s.X)})
		case *SStore:
			out = append(out, &SStore{A: r.arr(s.A), I: r.expr(s.I), X: r.expr(s.X)})
		case *SIf:
			out = append(out, &SIf{C: r.cond(s.C), Then: r.stmts(s.Then), Else: r.stmts(s.Else)})
		case *SWhile:
			out = append(out, &SWhile{C: r.cond(s.C), Body: r.stmts(s.Body)})
		case *SReturn:
			if s.X != nil {
				out = append(out, &SReturn{X: r.expr(s.X)})
			} else {
				out = append(out, s)
			}
		case *SCall:
			out = append(out, &SCall{C: r.expr(s.C).(*ECall)})
		default:
			out = append(out, s)
		}
	}
	return out
}

// stmtSize estimates a statement's bytecode size (2 bytes per local access).
func stmtSize(s Stmt) int {
	switch s := s.(type) {
	case *SAssign:
		return exprSize(s.X) + 2
	case *SStore:
		return 3 + exprSize(s.I) + exprSize(s.X)
	case *SIf:
		n := condSize(s.C) + 3
		for _, t := range s.Then {
			n += stmtSize(t)
		}
		for _, t := range s.Else {
			n += stmtSize(t)
		}
		return n
	case *SWhile:
		n := condSize(s.C) + 3
		for _, t := range s.Body {
			n += stmtSize(t)
		}
		return n
	case *SReturn:
		if s.X != nil {
			return exprSize(s.X) + 1
		}
		return 1
	case *SThrow:
		return 6
	case *SCall:
		return exprSize(s.C) + 1
	}
	return 4
}

func condSize(c Cond) int { return exprSize(c.X) + exprSize(c.Y) + 4 }

func exprSize(e Expr) int {
	switch x := e.(type) {
	case *EConst:
		if x.K == KInt && (x.V < -32768 || x.V > 32767) {
			return 5
		}
		return 3
	case *EVar:
		return 2
	case *EBin:
		return exprSize(x.X) + exprSize(x.Y) + 1
	case *ENeg, *EConv:
		if n, ok := x.(*ENeg); ok {
			return exprSize(n.X) + 1
		}
		return exprSize(x.(*EConv).X) + 1
	case *ELoad:
		return 4 + exprSize(x.I)
	case *ECond:
		return condSize(x.C) + exprSize(x.T) + exprSize(x.F) + 3
	case *ECall:
		n := 3
		for _, a := range x.Args {
			n += exprSize(a)
		}
		return n
	}
	return 3
}
