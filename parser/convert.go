package parser

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/sem"
)

// converter maps the participle parse tree onto lang's AST. The only
// errors it reports are the ones the grammar cannot express (literal
// overflow, malformed strings, misplaced forms).
type converter struct {
	name  string
	src   []byte
	cur   *lang.File
	diags lang.Diags
}

func (c *converter) errorf(p lexer.Position, format string, args ...any) {
	c.diags = append(c.diags, lang.Errorf(pos(p), format, args...))
}

func (c *converter) file(g *gFile) *lang.File {
	f := &lang.File{Pos: pos(g.Pos), Module: g.Module}
	c.cur = f
	for _, it := range g.Items {
		switch {
		case it.Import != nil:
			f.Imports = append(f.Imports, &lang.Import{Pos: pos(it.Import.Pos), Name: it.Import.Name})
		case it.Const != nil:
			f.Consts = append(f.Consts, &lang.ConstDecl{
				Pos: pos(it.Const.Pos), Name: it.Const.Name,
				TypeExpr: c.typ(it.Const.Type), Value: c.expr(it.Const.Value),
			})
		case it.Func != nil:
			f.Funcs = append(f.Funcs, c.fn(it.Func))
		}
	}
	return f
}

func (c *converter) typ(g *gType) *lang.TypeExpr {
	if g == nil {
		return nil
	}
	t := &lang.TypeExpr{Pos: pos(g.Pos)}
	switch {
	case g.Array != nil:
		t.Elem = c.typ(g.Array.Elem)
		if g.Array.Len == nil {
			t.Slice = true
		} else {
			t.Len = c.expr(g.Array.Len)
		}
	case len(g.Tuple) == 1:
		return c.typ(g.Tuple[0])
	case len(g.Tuple) > 1:
		for _, e := range g.Tuple {
			t.Tuple = append(t.Tuple, c.typ(e))
		}
	default:
		t.Name = g.Name
	}
	return t
}

func (c *converter) fn(g *gFunc) *lang.FuncDecl {
	f := &lang.FuncDecl{Pos: pos(g.Pos), Name: g.Name, Export: g.Export, File: c.cur}
	for _, p := range g.Params {
		f.Params = append(f.Params, &lang.Param{Pos: pos(p.Pos), Name: p.Name, Mut: p.Mut, TypeExpr: c.typ(p.Type)})
	}
	if g.Results != nil {
		r := c.typ(g.Results)
		if r.Tuple != nil {
			f.Results = r.Tuple
		} else {
			f.Results = []*lang.TypeExpr{r}
		}
	}
	for _, r := range g.Requires {
		f.Requires = append(f.Requires, c.expr(r))
		f.RequiresSrc = append(f.RequiresSrc, lang.SrcText{Pos: pos(r.Pos), Text: c.written(r.Pos, r.EndPos)})
	}
	if g.Effects != nil {
		f.Effects = &lang.EffectsDecl{Pos: pos(g.Effects.Pos), Names: g.Effects.Names}
	}
	f.Body = c.block(g.Body)
	return f
}

func (c *converter) block(g *gBlock) *lang.Block {
	b := &lang.Block{Pos: pos(g.Pos)}
	for _, s := range g.Stmts {
		if st := c.stmt(s); st != nil {
			b.Stmts = append(b.Stmts, st)
		}
	}
	return b
}

func (c *converter) stmt(g *gStmt) lang.Stmt {
	switch {
	case g.Let != nil:
		l := g.Let
		s := &lang.LetStmt{Pos: pos(l.Pos), Mutable: l.Kind == "var", TypeExpr: c.typ(l.Type)}
		if l.Tuple != nil {
			s.Names = l.Tuple
		} else {
			s.Names = []string{l.Name}
		}
		if l.Value != nil {
			s.Value = c.expr(l.Value)
		}
		if s.Value == nil && !s.Mutable {
			c.errorf(l.Pos, "let %s needs a value (use var for a zero-initialised variable)", strings.Join(s.Names, ", "))
		}
		if s.Value == nil && s.TypeExpr == nil {
			c.errorf(l.Pos, "var %s needs a type or a value", strings.Join(s.Names, ", "))
		}
		return s
	case g.If != nil:
		return c.ifStmt(g.If)
	case g.For != nil:
		return c.forStmt(g.For)
	case g.Return != nil:
		s := &lang.ReturnStmt{Pos: pos(g.Return.Pos)}
		for _, v := range g.Return.Values {
			s.Values = append(s.Values, c.expr(v))
		}
		return s
	case g.Absorb != nil:
		a := g.Absorb
		reason, ok := unquote(a.Reason)
		if !ok {
			c.errorf(a.Pos, "malformed string %s", a.Reason)
		}
		return &lang.AbsorbStmt{Pos: pos(a.Pos), Effects: a.Effects, Reason: reason, Body: c.block(a.Body)}
	case g.Block != nil:
		return c.block(g.Block)
	case g.Simple != nil:
		return c.simple(g.Simple)
	}
	c.errorf(g.Pos, "empty statement")
	return nil
}

func (c *converter) ifStmt(g *gIf) *lang.IfStmt {
	s := &lang.IfStmt{Pos: pos(g.Pos), Cond: c.expr(g.Cond), Then: c.block(g.Then)}
	switch {
	case g.ElseIf != nil:
		s.Else = c.ifStmt(g.ElseIf)
	case g.Else != nil:
		s.Else = c.block(g.Else)
	}
	return s
}

func (c *converter) forStmt(g *gFor) lang.Stmt {
	if g.Hi != nil {
		if len(g.Names) != 1 {
			c.errorf(g.Pos, "a range loop binds one name, not %d", len(g.Names))
		}
		return &lang.ForStmt{Pos: pos(g.Pos), Var: g.Names[0], Lo: c.expr(g.Lo), Hi: c.expr(g.Hi), Body: c.block(g.Body)}
	}
	call, ok := c.expr(g.Lo).(*lang.CallExpr)
	if !ok || call.Module != "" || call.Name != "chunks" {
		c.errorf(g.Lo.Pos, "a for loop runs over a range LO..HI or over chunks(s, ..., N)")
		return nil
	}
	if len(call.Args) < 2 {
		c.errorf(g.Lo.Pos, "chunks needs at least one slice and a chunk size")
		return nil
	}
	s := &lang.ForChunksStmt{Pos: pos(g.Pos), Sources: call.Args[:len(call.Args)-1], Size: call.Args[len(call.Args)-1], Body: c.block(g.Body)}
	switch len(g.Names) {
	case len(s.Sources):
		s.Vars = g.Names
	case len(s.Sources) + 1:
		s.Index, s.Vars = g.Names[0], g.Names[1:]
	default:
		c.errorf(g.Pos, "chunks over %d sources binds %d names (or %d with a chunk index first), not %d",
			len(s.Sources), len(s.Sources), len(s.Sources)+1, len(g.Names))
		return nil
	}
	return s
}

func (c *converter) simple(g *gSimple) lang.Stmt {
	var targets []lang.Expr
	for _, t := range g.Targets {
		targets = append(targets, c.expr(t))
	}
	if g.Op == "" {
		if len(targets) != 1 {
			c.errorf(g.Pos, "expected = after %d targets", len(targets))
			return nil
		}
		return &lang.ExprStmt{Pos: pos(g.Pos), X: targets[0]}
	}
	s := &lang.AssignStmt{Pos: pos(g.Pos), Targets: targets, Op: c.assignOp(g.Op, g.Pos)}
	if len(targets) > 1 && s.Op != sem.OpNone {
		c.errorf(g.Pos, "%s takes one target", g.Op)
	}
	if len(g.Values) == 1 {
		s.Value = c.expr(g.Values[0])
		return s
	}
	if s.Op != sem.OpNone {
		c.errorf(g.Values[1].Pos, "%s takes one value", g.Op)
	}
	for _, v := range g.Values {
		s.Values = append(s.Values, c.expr(v))
	}
	return s
}

// ---------------------------------------------------------------- expressions

// assignOp is the operator of `OP=`, sem.OpNone for `=`.
func (c *converter) assignOp(op string, p lexer.Position) sem.BinOp {
	if op == "=" {
		return sem.OpNone
	}
	o, ok := sem.ParseBinOp(strings.TrimSuffix(op, "="))
	if !ok || !o.Compoundable() {
		c.errorf(p, "unknown assignment operator %s", op)
	}
	return o
}

func (c *converter) bin(op string, p lexer.Position, l, r lang.Expr) lang.Expr {
	o, ok := sem.ParseBinOp(op)
	if !ok {
		c.errorf(p, "unknown operator %s", op)
	}
	return &lang.BinaryExpr{ExprBase: lang.ExprBase{Pos: pos(p)}, Op: o, L: l, R: r}
}

func (c *converter) expr(g *gExpr) lang.Expr {
	if g == nil {
		return nil
	}
	x := c.and(g.Left)
	for _, r := range g.Rest {
		x = c.bin(r.Op, r.Pos, x, c.and(r.Right))
	}
	return x
}

func (c *converter) and(g *gAnd) lang.Expr {
	x := c.cmp(g.Left)
	for _, r := range g.Rest {
		x = c.bin(r.Op, r.Pos, x, c.cmp(r.Right))
	}
	return x
}

func (c *converter) cmp(g *gCmp) lang.Expr {
	x := c.bitor(g.Left)
	if g.Right != nil {
		x = c.bin(g.Right.Op, g.Right.Pos, x, c.bitor(g.Right.Right))
	}
	return x
}

func (c *converter) bitor(g *gBitOr) lang.Expr {
	x := c.xor(g.Left)
	for _, r := range g.Rest {
		x = c.bin(r.Op, r.Pos, x, c.xor(r.Right))
	}
	return x
}

func (c *converter) xor(g *gXor) lang.Expr {
	x := c.bitand(g.Left)
	for _, r := range g.Rest {
		x = c.bin(r.Op, r.Pos, x, c.bitand(r.Right))
	}
	return x
}

func (c *converter) bitand(g *gBitAnd) lang.Expr {
	x := c.shift(g.Left)
	for _, r := range g.Rest {
		x = c.bin(r.Op, r.Pos, x, c.shift(r.Right))
	}
	return x
}

func (c *converter) shift(g *gShift) lang.Expr {
	x := c.add(g.Left)
	for _, r := range g.Rest {
		x = c.bin(r.Op, r.Pos, x, c.add(r.Right))
	}
	return x
}

func (c *converter) add(g *gAdd) lang.Expr {
	x := c.mul(g.Left)
	for _, r := range g.Rest {
		x = c.bin(r.Op, r.Pos, x, c.mul(r.Right))
	}
	return x
}

func (c *converter) mul(g *gMul) lang.Expr {
	x := c.cast(g.Left)
	for _, r := range g.Rest {
		x = c.bin(r.Op, r.Pos, x, c.cast(r.Right))
	}
	return x
}

func (c *converter) cast(g *gCast) lang.Expr {
	x := c.unary(g.X)
	for _, a := range g.Cast {
		x = &lang.CastExpr{ExprBase: lang.ExprBase{Pos: pos(a.Pos)}, X: x, To: c.typ(a.To)}
	}
	return x
}

func (c *converter) unary(g *gUnary) lang.Expr {
	if g.Postfix != nil {
		return c.postfix(g.Postfix)
	}
	op, ok := sem.ParseUnOp(g.Op)
	if !ok {
		c.errorf(g.Pos, "unknown operator %s", g.Op)
	}
	return &lang.UnaryExpr{ExprBase: lang.ExprBase{Pos: pos(g.Pos)}, Op: op, X: c.unary(g.X)}
}

func (c *converter) postfix(g *gPostfix) lang.Expr {
	x := c.primary(g.Prim)
	for _, ix := range g.Indexes {
		if ix.Hi != nil {
			// A range view a[i..j] is a call of the view builtin.
			x = &lang.CallExpr{ExprBase: lang.ExprBase{Pos: pos(ix.Pos)}, Name: lang.ViewName,
				Args: []lang.Expr{x, c.expr(ix.Index), c.expr(ix.Hi)}}
			continue
		}
		x = &lang.IndexExpr{ExprBase: lang.ExprBase{Pos: pos(ix.Pos)}, X: x, Index: c.expr(ix.Index)}
	}
	return x
}

func (c *converter) primary(g *gPrimary) lang.Expr {
	base := lang.ExprBase{Pos: pos(g.Pos)}
	switch {
	case g.Int != nil:
		v, ok := parseInt(*g.Int)
		if !ok {
			c.errorf(g.Pos, "integer literal %s does not fit in 64 bits", lang.Abbrev(*g.Int, 40))
		}
		return &lang.IntLit{ExprBase: base, Val: v, Text: *g.Int}
	case g.Bool != nil:
		return &lang.BoolLit{ExprBase: base, Val: *g.Bool == "true"}
	case g.Have != nil:
		return &lang.HaveExpr{ExprBase: base, Feature: *g.Have}
	case g.Array != nil:
		a := &lang.ArrayLit{ExprBase: base}
		for _, e := range g.Array.Elems {
			a.Elems = append(a.Elems, c.expr(e))
		}
		return a
	case g.Paren != nil:
		return &lang.ParenExpr{ExprBase: base, X: c.expr(g.Paren)}
	case g.Name != nil:
		n := g.Name
		module, name := "", n.Name
		if n.Sub != "" {
			module, name = n.Name, n.Sub
		}
		if n.Call != nil {
			call := &lang.CallExpr{ExprBase: base, Module: module, Name: name}
			for _, a := range n.Call.Args {
				call.Args = append(call.Args, c.expr(a))
			}
			return call
		}
		return &lang.Ident{ExprBase: base, Module: module, Name: name}
	}
	c.errorf(g.Pos, "expected an expression")
	return &lang.IntLit{ExprBase: base}
}

// parseInt reads a decimal, 0x hex or 0b binary literal with optional '_'
// separators. It fails on overflow or a malformed literal.
func parseInt(text string) (uint64, bool) {
	s := strings.ReplaceAll(text, "_", "")
	base := 10
	if len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X") {
		s, base = s[2:], 16
	} else if len(s) > 2 && (s[:2] == "0b" || s[:2] == "0B") {
		s, base = s[2:], 2
	}
	if s == "" {
		return 0, false
	}
	v, err := strconv.ParseUint(s, base, 64)
	return v, err == nil
}

// unquote decodes a string literal: only \" and \\ escapes exist.
func unquote(lit string) (string, bool) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", false
	}
	var b strings.Builder
	body := lit[1 : len(lit)-1]
	for i := 0; i < len(body); i++ {
		if body[i] == '\\' {
			if i+1 >= len(body) || (body[i+1] != '"' && body[i+1] != '\\') {
				return "", false
			}
			i++
		}
		b.WriteByte(body[i])
	}
	return b.String(), true
}

// written is the source text from start to end on one line: comments are
// dropped and every run of white space becomes one space.
func (c *converter) written(start, end lexer.Position) string {
	if start.Offset < 0 || end.Offset > len(c.src) || start.Offset >= end.Offset {
		return ""
	}
	var lines []string
	for _, l := range strings.Split(string(c.src[start.Offset:end.Offset]), "\n") {
		if i := strings.Index(l, "//"); i >= 0 {
			l = l[:i]
		}
		lines = append(lines, l)
	}
	return strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
}
