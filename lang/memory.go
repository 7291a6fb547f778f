package lang

import (
	"fmt"
	"strings"
)

// What a checked program's arrays need in memory, for the targets' own
// limits (a Java Card array, the C64's 64 KB, a thread's stack).

// ArrayVar is an array local of a function: a let or var of array type,
// with storage of its own (a parameter is the caller's storage, a chunk
// view a part of another array).
type ArrayVar struct {
	Func *FuncDecl
	Sym  *Symbol
	Type *ArrayType
}

// LocalArrays returns f's array locals in declaration order.
func LocalArrays(f *FuncDecl) []ArrayVar {
	var out []ArrayVar
	for _, s := range f.Locals {
		if a, ok := s.Type.(*ArrayType); ok && s.Kind == SymLocal {
			out = append(out, ArrayVar{Func: f, Sym: s, Type: a})
		}
	}
	return out
}

// Callees returns the functions f calls, in its body or its requires,
// each once, in the order of their first call.
func Callees(f *FuncDecl) []*FuncDecl {
	var out []*FuncDecl
	seen := map[*FuncDecl]bool{}
	calls(f, func(x *CallExpr) {
		if x.Func != nil && !seen[x.Func] {
			seen[x.Func] = true
			out = append(out, x.Func)
		}
	})
	return out
}

// Traces returns f's calls of the trace builtin in source order.
func Traces(f *FuncDecl) []*CallExpr {
	var out []*CallExpr
	calls(f, func(x *CallExpr) {
		if x.Builtin != nil && x.Builtin.ID == BTrace {
			out = append(out, x)
		}
	})
	return out
}

// calls visits every call in f's requires and body, outer calls first.
func calls(f *FuncDecl, visit func(*CallExpr)) {
	var expr func(e Expr)
	expr = func(e Expr) {
		switch x := e.(type) {
		case *CallExpr:
			visit(x)
			for _, a := range x.Args {
				expr(a)
			}
		case *IndexExpr:
			expr(x.X)
			expr(x.Index)
		case *BinaryExpr:
			expr(x.L)
			expr(x.R)
		case *UnaryExpr:
			expr(x.X)
		case *CastExpr:
			expr(x.X)
		case *ParenExpr:
			expr(x.X)
		case *ArrayLit:
			for _, el := range x.Elems {
				expr(el)
			}
		}
	}
	var stmt func(s Stmt)
	stmt = func(s Stmt) {
		switch s := s.(type) {
		case *Block:
			if s == nil {
				return
			}
			for _, x := range s.Stmts {
				stmt(x)
			}
		case *LetStmt:
			expr(s.Value)
		case *AssignStmt:
			for _, x := range s.Targets {
				expr(x)
			}
			if s.Value != nil {
				expr(s.Value)
			}
			for _, x := range s.Values {
				expr(x)
			}
		case *ExprStmt:
			expr(s.X)
		case *IfStmt:
			expr(s.Cond)
			stmt(s.Then)
			if s.Else != nil {
				stmt(s.Else)
			}
		case *ForStmt:
			expr(s.Lo)
			expr(s.Hi)
			stmt(s.Body)
		case *ForChunksStmt:
			for _, x := range s.Sources {
				expr(x)
			}
			stmt(s.Body)
		case *ReturnStmt:
			for _, x := range s.Values {
				expr(x)
			}
		case *AbsorbStmt:
			stmt(s.Body)
		}
	}
	for _, r := range f.Requires {
		expr(r)
	}
	stmt(f.Body)
}

// ArrayChain is the array locals that can be live at once in a call of a
// function: its own and, below one of its calls, the chain of the callee
// that needs the most. (Lowent has no recursion, so chains end.)
type ArrayChain struct {
	Bytes   int64       // their bytes in all
	Largest ArrayVar    // the largest of them (Func nil: there is none)
	Size    int64       // the bytes of Largest
	Path    []*FuncDecl // the functions of the chain, f first
}

// LocalArrayChain returns f's chain, with size giving the bytes of one
// array on the target. It is a lower bound of what a target needs: a
// compiler's temporaries (an array result passed on without a name) come
// on top.
func LocalArrayChain(f *FuncDecl, size func(*ArrayType) int64) ArrayChain {
	return chainOf(f, size, map[*FuncDecl]*ArrayChain{})
}

func chainOf(f *FuncDecl, size func(*ArrayType) int64, memo map[*FuncDecl]*ArrayChain) ArrayChain {
	if c, ok := memo[f]; ok {
		if c == nil {
			return ArrayChain{} // a cycle: the checker has reported it
		}
		return *c
	}
	memo[f] = nil
	var best ArrayChain
	for _, g := range Callees(f) {
		if c := chainOf(g, size, memo); c.Bytes > best.Bytes || best.Path == nil {
			best = c
		}
	}
	c := ArrayChain{Bytes: best.Bytes, Largest: best.Largest, Size: best.Size, Path: append([]*FuncDecl{f}, best.Path...)}
	for _, a := range LocalArrays(f) {
		n := size(a.Type)
		c.Bytes += n
		if n > c.Size || c.Largest.Func == nil {
			c.Largest, c.Size = a, n
		}
	}
	memo[f] = &c
	return c
}

// WordBytes is the bytes of one word of type t in memory: 1 for u8 and
// bool, 2, 4, 8 for u16, u32, u64.
func WordBytes(t Type) int64 {
	if w, ok := t.(*WordType); ok && w.Bits > 8 {
		return int64(w.Bits / 8)
	}
	return 1
}

// ArrayBytes is the bytes of array type t with WordBytes per word.
func ArrayBytes(t *ArrayType) int64 {
	return int64(FlatLen(t)) * WordBytes(LeafType(t))
}

// Describe says where the chain's bytes are, for a message: "the largest
// a of f, 40,000 bytes, on the calls f -> g", with unit for the bytes.
func (c ArrayChain) Describe(unit string) string {
	if c.Largest.Func == nil {
		return "no arrays"
	}
	s := fmt.Sprintf("the largest %s of %s, %s %s", c.Largest.Sym.Name, c.Largest.Func.Name, Thousands(c.Size), unit)
	if len(c.Path) > 1 {
		names := make([]string, len(c.Path))
		for i, f := range c.Path {
			names[i] = f.Name
		}
		s += ", on the calls " + strings.Join(names, " -> ")
	}
	return s
}
