package randprog

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/sem"
)

// requiredFeatures lists the constructs of docs/language.md that the
// generated corpus must contain. Each key is counted by census on the
// checked syntax trees, so the checker's own types and proofs decide what a
// construct is (a u8 addition is an addition whose type is u8).
func requiredFeatures() []string {
	var keys []string
	ws := []string{"u8", "u16", "u32", "u64"}
	for _, w := range ws {
		for _, op := range []string{"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "<<<", ">>>", "==", "!=", "<", "<=", ">", ">="} {
			keys = append(keys, "op "+op+" "+w)
		}
		for _, op := range []string{"-", "~"} {
			keys = append(keys, "unary "+op+" "+w)
		}
		for _, from := range append(ws, "bool") {
			keys = append(keys, "cast "+from+" as "+w)
		}
		keys = append(keys,
			"untyped literal as "+w, "untyped expression as "+w,
			"shift by constant >= width "+w, "shift by variable "+w,
			"select "+w, "const "+w)
		if w != "u8" {
			keys = append(keys, "load/store of "+w)
		}
	}
	for _, op := range []string{"&&", "||", "!", "== bool", "!= bool"} {
		keys = append(keys, "bool "+op)
	}
	for _, op := range []string{"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "<<<=", ">>>="} {
		keys = append(keys, "assign "+op)
	}
	for _, b := range []string{"load_le16", "load_le32", "load_le64", "load_be16", "load_be32", "load_be64",
		"store_le16", "store_le32", "store_le64", "store_be16", "store_be32", "store_be64",
		"clmul_lo", "clmul_hi", "aes_enc", "aes_enclast", "mulw", "select", "len", "rest", "unchecked_get", "unchecked_set"} {
		keys = append(keys, "builtin "+b)
	}
	keys = append(keys,
		"let", "let with type", "var", "var without value", "let (a, b)", "var (a, b)", "let (a, _)",
		"assign (a, b)", "assign a, b = x, y", "call statement",
		"if", "else if", "else", "block", "shadowing",
		"for constant bounds", "for run-time bounds", "for len(slice)", "nested for", "empty constant range",
		"chunks", "chunks with index", "chunks of several sources", "chunks checked lengths", "chunks writable view",
		"nested chunks",
		"local array", "local nested array", "array literal", "array copy", "row assignment",
		"index constant", "index variable", "index checked", "index proven by mask", "index of nested array",
		"const array", "const nested array", "const from const",
		"helper with mut array param", "helper with mut slice param", "helper with several results",
		"helper with array result", "helper with requires", "requires checked at call", "rest passed to slice",
		"array passed as slice", "call with a result",
		"return early", "return several",
		"absorb trap", "absorb unsafe", "division checked", "division proven",
		"export effects none", "export effects trap", "export effects unsafe",
		"export requires", "export mut slice", "export mut array", "export nested array param",
		"import", "qualified call", "qualified const", "requires on a word parameter",
		"export calls export",
		// The optional shapes (Config.Modules, HaveBranches, ElemTargets).
		"import of a generated module", "generated module imports another", "call into a generated module",
		"have branch", "have branch with else if", "several results to elements",
	)
	return keys
}

// census counts the constructs of checked programs.
type census struct {
	mu     sync.Mutex
	counts map[string]int
}

func (c *census) add(k string) {
	c.mu.Lock()
	c.counts[k]++
	c.mu.Unlock()
}

// missing returns the required constructs the census never saw.
func (c *census) missing() []string {
	var out []string
	for _, k := range requiredFeatures() {
		if c.counts[k] == 0 {
			out = append(out, k)
		}
	}
	return out
}

// log writes every count, for -v.
func (c *census) log(t *testing.T) {
	var keys []string
	for k := range c.counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%7d  %s", c.counts[k], k)
	}
}

// program counts the constructs of one program.
func (c *census) program(p *lang.Program) {
	if len(p.Root.Imports) > 0 {
		c.add("import")
	}
	for _, f := range p.Files {
		for _, imp := range f.Imports {
			if strings.HasPrefix(imp.Name, "rndlib") {
				if f == p.Root {
					c.add("import of a generated module")
				} else {
					c.add("generated module imports another")
				}
			}
		}
	}
	for _, d := range p.Root.Consts {
		switch t := d.Type.(type) {
		case *lang.WordType:
			c.add("const " + t.String())
			found := false
			walkExpr(d.Value, func(e lang.Expr) {
				if id, ok := e.(*lang.Ident); ok && id.Sym != nil && id.Sym.Kind == lang.SymConst {
					found = true
				}
			})
			if found {
				c.add("const from const")
			}
		case *lang.ArrayType:
			c.add("const array")
			if _, ok := t.Elem.(*lang.ArrayType); ok {
				c.add("const nested array")
			}
		}
	}
	for _, f := range p.Root.Funcs {
		c.function(f)
	}
}

func (c *census) function(f *lang.FuncDecl) {
	if f.Export {
		switch {
		case f.Effects == nil:
		case len(f.Effects.Names) == 0:
			c.add("export effects none")
		default:
			for _, n := range f.Effects.Names {
				c.add("export effects " + n)
			}
		}
		if len(f.Requires) > 0 {
			c.add("export requires")
		}
		for _, p := range f.Params {
			switch t := p.Type.(type) {
			case *lang.SliceType:
				if p.Mut {
					c.add("export mut slice")
				}
			case *lang.ArrayType:
				if p.Mut {
					c.add("export mut array")
				}
				if _, ok := t.Elem.(*lang.ArrayType); ok {
					c.add("export nested array param")
				}
			}
		}
	} else {
		for _, p := range f.Params {
			if p.Mut {
				if _, ok := p.Type.(*lang.ArrayType); ok {
					c.add("helper with mut array param")
				} else {
					c.add("helper with mut slice param")
				}
			}
		}
		if len(f.ResultTypes) > 1 {
			c.add("helper with several results")
		}
		for _, r := range f.ResultTypes {
			if _, ok := r.(*lang.ArrayType); ok {
				c.add("helper with array result")
			}
		}
		if len(f.Requires) > 0 {
			c.add("helper with requires")
		}
	}
	for _, r := range f.Requires {
		walkExpr(r, func(e lang.Expr) {
			if id, ok := e.(*lang.Ident); ok && id.Sym != nil && id.Sym.Kind == lang.SymParam {
				if _, ok := id.Sym.Type.(*lang.WordType); ok {
					c.add("requires on a word parameter")
				}
			}
		})
	}
	c.block(f.Body, ctx{}, map[string]bool{})
}

// ctx is where a statement is: how many loops and chunk loops enclose it,
// and how many blocks.
type ctx struct{ loops, chunks, depth int }

// block counts the statements of b; loops and chunks are the enclosing
// loop depths, names the names declared in enclosing blocks.
func (c *census) block(b *lang.Block, x ctx, outer map[string]bool) {
	if b == nil {
		return
	}
	names := map[string]bool{}
	for k := range outer {
		names[k] = true
	}
	declare := func(n string) {
		if outer[n] {
			c.add("shadowing")
		}
		names[n] = true
	}
	for _, s := range b.Stmts {
		c.stmt(s, x, names, declare)
	}
}

func (c *census) stmt(s lang.Stmt, x ctx, names map[string]bool, declare func(string)) {
	in := ctx{x.loops, x.chunks, x.depth + 1}
	switch s := s.(type) {
	case *lang.Block:
		c.add("block")
		c.block(s, in, names)
	case *lang.LetStmt:
		kw := "let"
		if s.Mutable {
			kw = "var"
		}
		switch {
		case len(s.Names) > 1:
			under := false
			for _, n := range s.Names {
				under = under || n == "_"
			}
			if under {
				c.add(kw + " (a, _)")
			}
			c.add(kw + " (a, b)")
		case s.Value == nil:
			c.add("var without value")
		case s.TypeExpr != nil:
			c.add(kw + " with type")
			c.add(kw)
		default:
			c.add(kw)
		}
		if len(s.Syms) == 1 {
			if at, ok := s.Syms[0].Type.(*lang.ArrayType); ok {
				c.add("local array")
				if _, ok := at.Elem.(*lang.ArrayType); ok {
					c.add("local nested array")
				}
				if id, ok := s.Value.(*lang.Ident); ok && id.Sym != nil && id.Sym.Kind != lang.SymConst {
					c.add("array copy")
				}
			}
		}
		for _, n := range s.Names {
			if n != "_" {
				declare(n)
			}
		}
		c.expr(s.Value)
	case *lang.AssignStmt:
		if len(s.Values) > 0 {
			c.add("assign a, b = x, y")
		} else if len(s.Targets) > 1 {
			c.add("assign (a, b)")
			if call, ok := s.Value.(*lang.CallExpr); ok && call.Func != nil {
				for _, t := range s.Targets {
					if _, ok := t.(*lang.IndexExpr); ok {
						c.add("several results to elements")
						break
					}
				}
			}
		} else {
			c.add("assign " + s.OpText())
			if ix, ok := s.Targets[0].(*lang.IndexExpr); ok {
				if _, ok := ix.Type().(*lang.ArrayType); ok {
					c.add("row assignment")
				}
			}
		}
		for _, t := range s.Targets {
			c.expr(t)
		}
		if s.Value != nil {
			c.expr(s.Value)
		}
		for _, v := range s.Values {
			c.expr(v)
		}
	case *lang.ExprStmt:
		c.add("call statement")
		c.expr(s.X)
	case *lang.IfStmt:
		c.add("if")
		if isHave(s.Cond) {
			c.add("have branch")
			if e, ok := s.Else.(*lang.IfStmt); ok && isHave(e.Cond) {
				c.add("have branch with else if")
			}
		}
		c.expr(s.Cond)
		c.block(s.Then, in, names)
		switch e := s.Else.(type) {
		case *lang.IfStmt:
			c.add("else if")
			c.stmt(e, x, names, declare)
		case *lang.Block:
			c.add("else")
			c.block(e, in, names)
		}
	case *lang.ForStmt:
		lo, lok := s.Lo.(*lang.IntLit)
		hi, hok := s.Hi.(*lang.IntLit)
		switch {
		case lok && hok:
			c.add("for constant bounds")
			if hi.Val <= lo.Val {
				c.add("empty constant range")
			}
		default:
			c.add("for run-time bounds")
			if call, ok := s.Hi.(*lang.CallExpr); ok && call.Name == "len" {
				if _, ok := call.Args[0].Type().(*lang.SliceType); ok {
					c.add("for len(slice)")
				}
			}
		}
		if x.loops > 0 {
			c.add("nested for")
		}
		c.expr(s.Lo)
		c.expr(s.Hi)
		c.block(s.Body, ctx{x.loops + 1, x.chunks, x.depth + 1}, names)
	case *lang.ForChunksStmt:
		c.add("chunks")
		if s.Index != "" {
			c.add("chunks with index")
		}
		if len(s.Sources) > 1 {
			c.add("chunks of several sources")
		}
		if s.CheckLens {
			c.add("chunks checked lengths")
		}
		for _, v := range s.VarSyms {
			if v.Mutable {
				c.add("chunks writable view")
			}
		}
		if x.chunks > 0 {
			c.add("nested chunks")
		}
		for _, x := range s.Sources {
			c.expr(x)
		}
		c.block(s.Body, ctx{x.loops + 1, x.chunks + 1, x.depth + 1}, names)
	case *lang.ReturnStmt:
		if x.depth > 0 {
			c.add("return early")
		}
		if len(s.Values) > 1 {
			c.add("return several")
		}
		for _, x := range s.Values {
			c.expr(x)
		}
	case *lang.AbsorbStmt:
		for _, e := range s.Effects {
			c.add("absorb " + e)
		}
		c.block(s.Body, in, names)
	}
}

// isHave reports whether a condition is `have F` or `!have F`.
func isHave(e lang.Expr) bool {
	if u, ok := e.(*lang.UnaryExpr); ok && u.Op == sem.OpLogNot {
		e = u.X
	}
	_, ok := e.(*lang.HaveExpr)
	return ok
}

// typeName is a word type's name, "bool", or "" for anything else.
func typeName(t lang.Type) string {
	switch t := t.(type) {
	case *lang.WordType:
		return t.String()
	case *lang.BoolType:
		return "bool"
	}
	return ""
}

// isLiteralTree reports whether e is made only of integer literals and operators.
func isLiteralTree(e lang.Expr) bool {
	ok := true
	walkExpr(e, func(x lang.Expr) {
		switch x.(type) {
		case *lang.IntLit, *lang.BinaryExpr, *lang.UnaryExpr, *lang.ParenExpr:
		default:
			ok = false
		}
	})
	return ok
}

func (c *census) expr(e lang.Expr) {
	walkExpr(e, func(e lang.Expr) {
		switch e := e.(type) {
		case *lang.IntLit:
			if w := typeName(e.Type()); w != "" {
				c.add("untyped literal as " + w)
			}
		case *lang.BinaryExpr:
			lt := typeName(e.L.Type())
			switch {
			case e.Op.IsLogical():
				c.add("bool " + e.Op.String())
			case lt == "bool":
				c.add("bool " + e.Op.String() + " bool")
			case lt != "":
				c.add("op " + e.Op.String() + " " + lt)
			}
			if isLiteralTree(e) && typeName(e.Type()) != "" {
				c.add("untyped expression as " + typeName(e.Type()))
			}
			switch e.Op {
			case sem.OpDiv, sem.OpRem:
				if e.Checked {
					c.add("division checked")
				} else {
					c.add("division proven")
				}
			case sem.OpShl, sem.OpShr, sem.OpRotl, sem.OpRotr:
				w := e.L.Type().(*lang.WordType)
				if n, ok := e.R.(*lang.IntLit); ok {
					if n.Val >= uint64(w.Bits) {
						c.add("shift by constant >= width " + lt)
					}
				} else {
					c.add("shift by variable " + lt)
				}
			}
		case *lang.UnaryExpr:
			if e.Op == sem.OpLogNot {
				c.add("bool !")
			} else if w := typeName(e.Type()); w != "" {
				c.add("unary " + e.Op.String() + " " + w)
			}
		case *lang.CastExpr:
			from, to := typeName(e.X.Type()), typeName(e.Type())
			if from != "" && to != "" {
				c.add("cast " + from + " as " + to)
			}
		case *lang.ArrayLit:
			c.add("array literal")
		case *lang.IndexExpr:
			switch {
			case e.Checked:
				c.add("index checked")
			case isLiteralTree(e.Index):
				c.add("index constant")
			default:
				c.add("index variable")
				if b, ok := e.Index.(*lang.BinaryExpr); ok && (b.Op == sem.OpAnd || b.Op == sem.OpRem) {
					c.add("index proven by mask")
				}
			}
			if _, ok := e.X.(*lang.IndexExpr); ok {
				c.add("index of nested array")
			}
		case *lang.CallExpr:
			c.call(e)
		case *lang.Ident:
			if e.Module != "" {
				c.add("qualified const")
			}
		}
	})
}

func (c *census) call(e *lang.CallExpr) {
	if e.Builtin != nil {
		c.add("builtin " + e.Name)
		switch e.Builtin.ID {
		case lang.BLoad:
			c.add(fmt.Sprintf("load/store of u%d", e.Builtin.Bits))
		case lang.BStore:
			c.add(fmt.Sprintf("load/store of u%d", e.Builtin.Bits))
		case lang.BSelect:
			if w := typeName(e.Type()); w != "" && w != "bool" {
				c.add("select " + w)
			}
		}
		return
	}
	if e.Func == nil {
		return
	}
	if e.Module != "" {
		c.add("qualified call")
		if strings.HasPrefix(e.Module, "rndlib") {
			c.add("call into a generated module")
		}
	}
	if e.Func.Export {
		c.add("export calls export")
	}
	if e.CheckRequires {
		c.add("requires checked at call")
	}
	if typeName(e.Type()) != "" {
		c.add("call with a result")
	}
	for i, a := range e.Args {
		if i >= len(e.Func.Params) {
			break
		}
		if _, ok := e.Func.Params[i].Type.(*lang.SliceType); !ok {
			continue
		}
		if call, ok := a.(*lang.CallExpr); ok && call.Name == "rest" {
			c.add("rest passed to slice")
		}
		if _, ok := a.Type().(*lang.ArrayType); ok {
			c.add("array passed as slice")
		}
	}
}
