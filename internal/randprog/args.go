package randprog

import (
	"github.com/lowent/lowentc/driver"
	"math/rand/v2"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/sem"
)

// Args returns random arguments for fn (a checked function): words near
// the edges (0, 1, the maximum, the high bit, shift amounts around the
// width), bools, arrays of the declared length, and slices whose lengths
// are 0, random, or just around the chunk and rest sizes the function (and
// its callees) use. Slice lengths satisfy fn's requires whenever the
// generator's shapes of requires allow it; the same seed gives the same
// arguments.
func Args(seed uint64, fn *lang.FuncDecl) []lang.Value {
	r := rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d))
	sizes := interestingSizes(fn)
	vals := make([]lang.Value, len(fn.Params))
	// Choose values until the requires hold.
	common := r.IntN(2) == 0
	for try := 0; try < 200; try++ {
		draw(r, fn, sizes, common, vals)
		if requiresHold(fn, vals) {
			break
		}
	}
	return vals
}

// BreakingArgs returns random arguments for fn that break one of its
// requires (as far as the generator evaluates them: the export must
// refuse them with a fault), or false when fn has no requires or no such
// arguments were found.
func BreakingArgs(seed uint64, fn *lang.FuncDecl) ([]lang.Value, bool) {
	if len(fn.Requires) == 0 {
		return nil, false
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	sizes := interestingSizes(fn)
	for try := 0; try < 200; try++ {
		vals := make([]lang.Value, len(fn.Params))
		draw(r, fn, sizes, try%2 == 0, vals)
		if !requiresHold(fn, vals) {
			return vals, true
		}
	}
	return nil, false
}

// draw fills vals with one random choice of arguments for fn.
func draw(r *rand.Rand, fn *lang.FuncDecl, sizes []int, common bool, vals []lang.Value) {
	for i, p := range fn.Params {
		switch t := p.Type.(type) {
		case *lang.WordType:
			vals[i] = lang.Value{Word: edgeWord(r, t.Bits)}
		case *lang.BoolType:
			vals[i] = lang.Value{Word: uint64(r.IntN(2))}
		case *lang.ArrayType:
			vals[i] = lang.Value{IsArray: true, Elems: randElems(r, flatLen(t), leafBits(t))}
		}
	}
	shared := sliceLen(r, sizes)
	for i, p := range fn.Params {
		if t, ok := p.Type.(*lang.SliceType); ok {
			n := shared
			if !common || r.IntN(8) == 0 {
				n = sliceLen(r, sizes)
			}
			vals[i] = lang.Value{IsArray: true, Elems: randElems(r, n, t.Elem.(*lang.WordType).Bits)}
		}
	}
}

// edgeWord is a random word of the given width, biased to the edges.
func edgeWord(r *rand.Rand, bits int) uint64 {
	m := mask(bits)
	switch r.IntN(10) {
	case 0:
		return 0
	case 1:
		return 1
	case 2:
		return m
	case 3:
		return 1 << uint(bits-1)
	case 4:
		return uint64(bits-2+r.IntN(5)) & m // shift amounts around the width
	case 5:
		return uint64(r.IntN(16))
	default:
		return r.Uint64() & m
	}
}

// randElems returns n random words of the given width.
func randElems(r *rand.Rand, n, bits int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		if r.IntN(4) == 0 {
			out[i] = edgeWord(r, bits)
		} else {
			out[i] = r.Uint64() & mask(bits)
		}
	}
	return out
}

// sliceLen chooses a slice length: empty, tiny, around a multiple of an
// interesting size, or random, never above MaxSliceLen.
func sliceLen(r *rand.Rand, sizes []int) int {
	switch n := r.IntN(10); {
	case n < 1:
		return 0
	case n < 2:
		return 1 + r.IntN(3)
	case n < 7 && len(sizes) > 0:
		s := sizes[r.IntN(len(sizes))]
		l := s*(1+r.IntN(2)) + r.IntN(3) - 1
		return max(0, min(l, MaxSliceLen))
	default:
		return r.IntN(MaxSliceLen + 1)
	}
}

// interestingSizes collects the chunk sizes, rest sizes and requires
// constants of fn and of every function it calls.
func interestingSizes(fn *lang.FuncDecl) []int {
	seen := map[*lang.FuncDecl]bool{}
	set := map[int]bool{}
	var visitFn func(f *lang.FuncDecl)
	var visitExpr func(e lang.Expr)
	visitExpr = func(e lang.Expr) {
		walkExpr(e, func(e lang.Expr) {
			switch e := e.(type) {
			case *lang.CallExpr:
				if e.Func != nil {
					visitFn(e.Func)
				}
				if e.Name == "rest" && len(e.Args) == 2 {
					if n, ok := e.Args[1].(*lang.IntLit); ok && n.Val > 0 && n.Val <= MaxSliceLen {
						set[int(n.Val)] = true
					}
				}
			}
		})
	}
	visitFn = func(f *lang.FuncDecl) {
		if f == nil || seen[f] {
			return
		}
		seen[f] = true
		for _, r := range f.Requires {
			walkExpr(r, func(e lang.Expr) {
				if n, ok := e.(*lang.IntLit); ok && n.Val > 0 && n.Val <= MaxSliceLen {
					set[int(n.Val)] = true
				}
			})
		}
		walkStmts(f.Body, visitExpr, func(s lang.Stmt) {
			if c, ok := s.(*lang.ForChunksStmt); ok && c.SizeVal > 0 && c.SizeVal <= MaxSliceLen {
				set[c.SizeVal] = true
			}
		})
	}
	visitFn(fn)
	var out []int
	for n := 1; n <= MaxSliceLen; n++ {
		if set[n] {
			out = append(out, n)
		}
	}
	return out
}

// walkStmts calls expr on every expression and stmt on every statement
// under b.
func walkStmts(b *lang.Block, expr func(lang.Expr), stmt func(lang.Stmt)) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		walkStmt(s, expr, stmt)
	}
}

func walkStmt(s lang.Stmt, expr func(lang.Expr), stmt func(lang.Stmt)) {
	stmt(s)
	switch s := s.(type) {
	case *lang.Block:
		walkStmts(s, expr, stmt)
	case *lang.LetStmt:
		if s.Value != nil {
			expr(s.Value)
		}
	case *lang.AssignStmt:
		for _, t := range s.Targets {
			expr(t)
		}
		if s.Value != nil {
			expr(s.Value)
		}
		for _, x := range s.Values {
			expr(x)
		}
	case *lang.ExprStmt:
		expr(s.X)
	case *lang.IfStmt:
		expr(s.Cond)
		walkStmts(s.Then, expr, stmt)
		if s.Else != nil {
			walkStmt(s.Else, expr, stmt)
		}
	case *lang.ForStmt:
		expr(s.Lo)
		expr(s.Hi)
		walkStmts(s.Body, expr, stmt)
	case *lang.ForChunksStmt:
		for _, x := range s.Sources {
			expr(x)
		}
		expr(s.Size)
		walkStmts(s.Body, expr, stmt)
	case *lang.ReturnStmt:
		for _, x := range s.Values {
			expr(x)
		}
	case *lang.AbsorbStmt:
		walkStmts(s.Body, expr, stmt)
	}
}

// walkExpr calls f on e and every expression inside it.
func walkExpr(e lang.Expr, f func(lang.Expr)) {
	if e == nil {
		return
	}
	f(e)
	switch e := e.(type) {
	case *lang.ParenExpr:
		walkExpr(e.X, f)
	case *lang.ArrayLit:
		for _, x := range e.Elems {
			walkExpr(x, f)
		}
	case *lang.IndexExpr:
		walkExpr(e.X, f)
		walkExpr(e.Index, f)
	case *lang.CallExpr:
		for _, x := range e.Args {
			walkExpr(x, f)
		}
	case *lang.UnaryExpr:
		walkExpr(e.X, f)
	case *lang.BinaryExpr:
		walkExpr(e.L, f)
		walkExpr(e.R, f)
	case *lang.CastExpr:
		walkExpr(e.X, f)
	}
}

// requiresHold evaluates fn's requires on the arguments; a condition it
// cannot evaluate counts as holding.
func requiresHold(fn *lang.FuncDecl, args []lang.Value) bool {
	for _, r := range fn.Requires {
		v, ok := evalReq(fn, args, r)
		if ok && v == 0 {
			return false
		}
	}
	return true
}

// evalReq evaluates a requires expression over the arguments: literals,
// parameters, constants, len, arithmetic and comparisons.
func evalReq(fn *lang.FuncDecl, args []lang.Value, e lang.Expr) (uint64, bool) {
	wrap := func(v uint64) uint64 {
		if w, ok := e.Type().(*lang.WordType); ok {
			return v & w.Mask()
		}
		return v
	}
	switch e := e.(type) {
	case *lang.IntLit:
		return wrap(e.Val), true
	case *lang.BoolLit:
		if e.Val {
			return 1, true
		}
		return 0, true
	case *lang.ParenExpr:
		return evalReq(fn, args, e.X)
	case *lang.Ident:
		if e.Sym != nil && e.Sym.Kind == lang.SymConst && e.Sym.Const != nil && e.Sym.Const.Val != nil {
			return e.Sym.Const.Val.Word, true
		}
		for i, p := range fn.Params {
			if p.Name == e.Name && e.Module == "" {
				return args[i].Word, true
			}
		}
	case *lang.CallExpr:
		if e.Name == "len" && len(e.Args) == 1 {
			if id, ok := e.Args[0].(*lang.Ident); ok {
				for i, p := range fn.Params {
					if p.Name == id.Name {
						if a, ok := p.Type.(*lang.ArrayType); ok {
							return uint64(a.Len), true
						}
						return uint64(len(args[i].Elems)), true
					}
				}
			}
		}
	case *lang.UnaryExpr:
		x, ok := evalReq(fn, args, e.X)
		if !ok {
			return 0, false
		}
		return sem.EvalUnary(e.Op, lang.WidthOf(e.Type()), x), true
	case *lang.BinaryExpr:
		l, ok1 := evalReq(fn, args, e.L)
		r, ok2 := evalReq(fn, args, e.R)
		if !ok1 || !ok2 {
			return 0, false
		}
		if e.Op.IsShift() {
			return 0, false
		}
		v, ok := sem.EvalBinary(e.Op, lang.WidthOf(e.L.Type()), l, r)
		if !ok {
			return 0, true // a division by zero fails the condition
		}
		return v, true
	}
	return 0, false
}

// flatLen and leafBits read array types the way the run arguments do.
func flatLen(t lang.Type) int { return driver.FlatLen(t) }

func leafBits(t lang.Type) int { return driver.ElemWord(t).Bits }
