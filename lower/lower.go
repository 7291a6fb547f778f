package lower

import (
	"fmt"

	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

// Lowering translates a checked program into IR with the VM's semantics
// (vm/ is the reference): one IR function per Lowent function, exports
// marked. It keeps the IR simple for the passes that follow:
//
//   - a `let` word is the SSA value of its expression; a scalar variable
//     that is ever assigned lives in a one-element local array (a "cell")
//     that sroa later turns into SSA values, loop-carried values and if
//     results;
//   - arrays are flattened row-major; an array-valued expression is an
//     aref (array, offset, length), so views, rows of nested arrays and
//     rest(...) cost no copy; let/var/=/return copy with a counted loop;
//   - an array result is written through a hidden trailing `mut` parameter;
//   - a check op guards every access the checker did not prove, every
//     unproven callee `requires` and every unproven divisor;
//   - a `return` before the end of the body sets a "returned" cell and the
//     result cells; the statements after it run only while it is false.
//
// Program reports an error (never panics) for constructs it cannot lower;
// the checker should have rejected them.
func Program(p *lang.Program) (m *ir.Module, err error) {
	if p == nil || p.Root == nil {
		return nil, fmt.Errorf("lower: no program")
	}
	l := &lowerer{
		p:       p,
		m:       ir.NewModule(p.Root.Module),
		funcs:   map[*lang.FuncDecl]*ir.Function{},
		globals: map[*lang.ConstDecl]*ir.Array{},
		outs:    map[*lang.FuncDecl][]*ir.Array{},
	}
	defer func() {
		if r := recover(); r != nil {
			if le, ok := r.(lowerError); ok {
				m, err = nil, le.err
				return
			}
			panic(r)
		}
	}()
	for _, file := range p.Files {
		for _, fd := range file.Funcs {
			l.declare(fd, file == p.Root)
		}
	}
	for _, file := range p.Files {
		for _, fd := range file.Funcs {
			l.body(fd)
		}
	}
	return l.m, nil
}

// lowerError carries a user-facing error out of deep recursion.
type lowerError struct{ err error }

func failf(pos lang.Pos, format string, args ...any) {
	panic(lowerError{fmt.Errorf("%s: lower: %s", pos, fmt.Sprintf(format, args...))})
}

type lowerer struct {
	p       *lang.Program
	m       *ir.Module
	funcs   map[*lang.FuncDecl]*ir.Function
	globals map[*lang.ConstDecl]*ir.Array
	outs    map[*lang.FuncDecl][]*ir.Array // hidden parameters of array results (nil for word results)
}

// irType maps a word or bool type.
func irType(t lang.Type, pos lang.Pos) ir.Type {
	switch t := t.(type) {
	case *lang.WordType:
		if w := ir.WordType(t.Bits); w != ir.TInvalid {
			return w
		}
	case *lang.BoolType:
		return ir.Bool
	}
	failf(pos, "type %v is not a word or bool", t)
	return ir.TInvalid
}

// stride is the number of words in one element of an array or slice type.
func stride(t lang.Type) int { return flatLen(lang.ElemOf(t)) }

func isArrayish(t lang.Type) bool {
	switch t.(type) {
	case *lang.ArrayType, *lang.SliceType:
		return true
	}
	return false
}

// lenName is the constant a one-dimensional array parameter's written
// type te names as its length, when it is a bare name (a constant of the
// function's own module), else "".
func lenName(te *lang.TypeExpr, t *lang.ArrayType) string {
	if te == nil {
		return ""
	}
	if _, nested := t.Elem.(*lang.ArrayType); nested {
		return ""
	}
	if id, ok := te.Len.(*lang.Ident); ok && id.Module == "" {
		return id.Name
	}
	return ""
}

// declare creates f's IR function and signature (bodies come later, so calls
// can refer to any function).
func (l *lowerer) declare(fd *lang.FuncDecl, root bool) {
	name := fd.Name
	if !root {
		name = fd.QualName()
	}
	f := l.m.NewFunction(name, fd.Export && root)
	f.QualName, f.Pos, f.Source = fd.QualName(), fd.Pos, fd.SemExport()
	l.funcs[fd] = f
	for _, p := range fd.Params {
		switch t := p.Type.(type) {
		case *lang.ArrayType:
			f.AddArrayParam(p.Name, irType(leaf(t), p.Pos), flatLen(t), p.Mut)
			f.Sig.Params[len(f.Sig.Params)-1].LenName = lenName(p.TypeExpr, t)
		case *lang.SliceType:
			f.AddArrayParam(p.Name, irType(leaf(t), p.Pos), -1, p.Mut)
		default:
			f.AddParam(p.Name, irType(t, p.Pos))
		}
	}
	var outs []*ir.Array
	for i, t := range fd.ResultTypes {
		if at, ok := t.(*lang.ArrayType); ok {
			a := &ir.Array{Name: f.UniqueArrayName(fmt.Sprintf("result%d", i)), Kind: ir.ArrParam, Elem: irType(leaf(at), fd.Pos), Len: flatLen(at), Per: 1, Mut: true}
			f.Params = append(f.Params, &ir.Param{Name: a.Name, Arr: a})
			f.Sig.Results = append(f.Sig.Results, ir.SigParam{Type: a.Elem, Array: true, Len: a.Len})
			outs = append(outs, a)
			continue
		}
		it := irType(t, fd.Pos)
		f.Results = append(f.Results, it)
		f.Sig.Results = append(f.Sig.Results, ir.SigParam{Type: it})
		outs = append(outs, nil)
	}
	l.outs[fd] = outs
}

// global returns the table of a constant array.
func (l *lowerer) global(cd *lang.ConstDecl, pos lang.Pos) *ir.Array {
	if g, ok := l.globals[cd]; ok {
		return g
	}
	if cd.Val == nil || cd.Type == nil {
		failf(pos, "constant %s has no value", cd.Name)
	}
	data := flattenConst(cd.Val, cd.Type, nil, pos)
	name := cd.Name
	for _, f := range l.p.Files {
		for _, c := range f.Consts {
			if c == cd && f != l.p.Root {
				name = f.Module + "." + cd.Name
			}
		}
	}
	g := l.m.AddGlobal(name, irType(leaf(cd.Type), pos), data)
	l.globals[cd] = g
	return g
}

// flattenConst lays out a constant value row-major.
func flattenConst(cv *lang.ConstVal, t lang.Type, out []uint64, pos lang.Pos) []uint64 {
	at, ok := t.(*lang.ArrayType)
	if !ok {
		return append(out, cv.Word&irType(t, pos).Mask())
	}
	if len(cv.Elems) != at.Len {
		failf(pos, "constant of type %v has %d elements", t, len(cv.Elems))
	}
	for _, e := range cv.Elems {
		out = flattenConst(e, at.Elem, out, pos)
	}
	return out
}

// binding is what a symbol stands for while lowering a function body.
type binding struct {
	val  *ir.Value // an immutable word or bool
	cell *ir.Array // an assigned scalar variable: a one-element local
	arr  *aref     // an array, slice or view
}

// fnLowerer lowers one function body.
type fnLowerer struct {
	*lowerer
	decl     *lang.FuncDecl
	f        *ir.Function
	b        *ir.Builder
	env      map[*lang.Symbol]binding
	assigned map[*lang.Symbol]bool
	// Early returns: done is true once a return ran; results hold the word
	// results. Nil when the only return ends the body.
	done    *ir.Array
	results []*ir.Array
}

func (l *lowerer) body(fd *lang.FuncDecl) {
	f := l.funcs[fd]
	fl := &fnLowerer{lowerer: l, decl: fd, f: f, b: ir.NewBuilder(f), env: map[*lang.Symbol]binding{}, assigned: map[*lang.Symbol]bool{}}
	if fd.Body == nil {
		failf(fd.Pos, "function %s has no body", fd.Name)
	}
	fl.b.Pos = fd.Pos
	i := 0
	for _, p := range fd.Params {
		if p.Sym == nil {
			failf(p.Pos, "parameter %s was not checked", p.Name)
		}
		prm := f.Params[i]
		i++
		if prm.Arr != nil {
			fl.env[p.Sym] = binding{arr: fl.paramRef(prm.Arr, p.Type)}
		} else {
			fl.env[p.Sym] = binding{val: prm.Val}
		}
	}
	findAssigned(fd.Body, fl.assigned)
	if fd.Export {
		// An export's requires are checked at its boundary.
		for k, r := range fd.Requires {
			fl.b.Pos = r.Position()
			c := fl.b.Check(fl.expr(r), ir.CheckEntry, r.Position(), "the arguments do not satisfy requires clause "+r.Position().String())
			c.Source, c.Clause = f.Source, k
		}
	}
	stmts := fd.Body.Stmts
	if earlyReturn(stmts) {
		fl.done = f.NewLocal("returned", ir.Bool, 1)
		zero := fl.b.Const(ir.Bool, 0)
		fl.b.Store(fl.done, zero, fl.b.Const(ir.IndexType, 0))
		for i, t := range f.Results {
			c := f.NewLocal(fmt.Sprintf("result%d", i), t, 1)
			fl.b.Store(c, fl.b.Const(t, 0), fl.b.Const(ir.IndexType, 0))
			fl.results = append(fl.results, c)
		}
		fl.stmts(stmts)
		var vals []*ir.Value
		for _, c := range fl.results {
			vals = append(vals, fl.b.Load(c, fl.b.Const(ir.IndexType, 0)))
		}
		fl.b.Return(vals...)
		return
	}
	fl.stmts(stmts)
	if t := fl.b.Blk.Term(); t == nil || t.Op != ir.OpReturn {
		if len(f.Results) > 0 {
			failf(fd.Pos, "function %s does not end with return", fd.Name)
		}
		fl.b.Return()
	}
}

// paramRef is the aref of an array or slice parameter.
func (fl *fnLowerer) paramRef(a *ir.Array, t lang.Type) *aref {
	r := &aref{arr: a, typ: t, off: fl.b.Const(ir.IndexType, 0)}
	if a.IsSlice() {
		r.n = fl.b.Len(a)
	} else {
		r.n = fl.b.Const(ir.IndexType, uint64(a.Len/max(1, stride(t))))
	}
	return r
}

// findAssigned records every symbol that is the target of an assignment.
func findAssigned(s lang.Stmt, out map[*lang.Symbol]bool) {
	switch s := s.(type) {
	case *lang.Block:
		if s != nil {
			for _, x := range s.Stmts {
				findAssigned(x, out)
			}
		}
	case *lang.AssignStmt:
		for _, t := range s.Targets {
			if id, ok := lang.Unparen(t).(*lang.Ident); ok && id.Sym != nil {
				out[id.Sym] = true
			}
		}
	case *lang.IfStmt:
		findAssigned(s.Then, out)
		if s.Else != nil {
			findAssigned(s.Else, out)
		}
	case *lang.ForStmt:
		findAssigned(s.Body, out)
	case *lang.ForChunksStmt:
		findAssigned(s.Body, out)
	case *lang.AbsorbStmt:
		findAssigned(s.Body, out)
	}
}

// earlyReturn reports whether a body has a return other than its last statement.
func earlyReturn(stmts []lang.Stmt) bool {
	for i, s := range stmts {
		if _, ok := s.(*lang.ReturnStmt); ok {
			if i != len(stmts)-1 {
				return true
			}
			continue
		}
		if containsReturn(s) {
			return true
		}
	}
	return false
}

// containsReturn reports whether s is or contains a return statement.
func containsReturn(s lang.Stmt) bool {
	switch s := s.(type) {
	case *lang.ReturnStmt:
		return true
	case *lang.Block:
		if s == nil {
			return false
		}
		for _, x := range s.Stmts {
			if containsReturn(x) {
				return true
			}
		}
	case *lang.IfStmt:
		return containsReturn(s.Then) || (s.Else != nil && containsReturn(s.Else))
	case *lang.ForStmt:
		return containsReturn(s.Body)
	case *lang.ForChunksStmt:
		return containsReturn(s.Body)
	case *lang.AbsorbStmt:
		return containsReturn(s.Body)
	}
	return false
}

// leaf and flatLen read nested array types (see lang.LeafType, lang.FlatLen).
func leaf(t lang.Type) lang.Type { return lang.LeafType(t) }

func flatLen(t lang.Type) int { return lang.FlatLen(t) }
