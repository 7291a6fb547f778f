package lang_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/parser"
)

// A test source holds one or more modules separated by "====" lines, named
// m0.lw, m1.lw, ... Every '@' marks the position of an expected diagnostic
// (it is removed before parsing; '@' is not a Lowent character).
type marked struct {
	srcs  []string
	marks []string // "file:line:col" of each '@', in order
}

func unmark(src string) marked {
	var m marked
	for i, part := range strings.Split(src, "\n====\n") {
		name := fmt.Sprintf("m%d.lw", i)
		var b strings.Builder
		line, col := 1, 1
		for _, r := range part {
			switch r {
			case '@':
				m.marks = append(m.marks, fmt.Sprintf("%s:%d:%d", name, line, col))
				continue
			case '\n':
				line, col = line+1, 1
			default:
				col++
			}
			b.WriteRune(r)
		}
		m.srcs = append(m.srcs, b.String())
	}
	return m
}

// parseModules parses the modules of src (markers removed).
func parseModules(t *testing.T, src string) []*lang.File {
	t.Helper()
	var files []*lang.File
	for i, part := range unmark(src).srcs {
		name := fmt.Sprintf("m%d.lw", i)
		f, d := parser.ParseFile(name, []byte(part))
		if d != nil {
			t.Fatalf("parse error (the test itself is wrong):\n%s\nsource:\n%s", d.Render(nil), part)
		}
		files = append(files, f)
	}
	return files
}

// checkSrc parses and checks src.
func checkSrc(t *testing.T, src string) ([]*lang.File, lang.Diags) {
	t.Helper()
	files := parseModules(t, src)
	return files, lang.Check(files)
}

func render(ds lang.Diags) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Error() + "\n")
		for _, n := range d.Notes {
			b.WriteString("    " + n.Pos.String() + ": note: " + n.Msg + "\n")
		}
	}
	return b.String()
}

// mustCheck checks src and fails on any diagnostic.
func mustCheck(t *testing.T, src string) []*lang.File {
	t.Helper()
	files, diags := checkSrc(t, src)
	if len(diags) > 0 {
		t.Fatalf("unexpected errors:\n%s\nsource:\n%s", render(diags), src)
	}
	return files
}

// expectErrors checks src and requires exactly one diagnostic per '@'
// marker, in order, at the marker's position and containing want[i].
func expectErrors(t *testing.T, src string, want ...string) lang.Diags {
	t.Helper()
	m := unmark(src)
	if len(m.marks) != len(want) {
		t.Fatalf("test has %d markers but %d messages", len(m.marks), len(want))
	}
	_, diags := checkSrc(t, src)
	if len(diags) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%s\nwant:\n%s\nsource:\n%s", len(diags), len(want),
			render(diags), strings.Join(want, "\n"), src)
	}
	for i, w := range want {
		d := diags[i]
		if d.Pos.String() != m.marks[i] || !strings.Contains(d.Msg, w) {
			t.Errorf("error %d:\n got %s: %s\nwant %s: ...%s...\nsource:\n%s", i, d.Pos, d.Msg, m.marks[i], w, src)
		}
	}
	return diags
}

// fn finds a function by name in the last file.
func fn(t *testing.T, files []*lang.File, name string) *lang.FuncDecl {
	t.Helper()
	for _, f := range files[len(files)-1].Funcs {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no fn %s", name)
	return nil
}

// walk calls visit on every expression and statement of a function, and
// every type expression's length.
func walk(f *lang.FuncDecl, visitE func(lang.Expr), visitS func(lang.Stmt)) {
	var expr func(e lang.Expr)
	var typ func(t *lang.TypeExpr)
	typ = func(t *lang.TypeExpr) {
		if t == nil {
			return
		}
		if t.Len != nil {
			expr(t.Len)
		}
		typ(t.Elem)
		for _, x := range t.Tuple {
			typ(x)
		}
	}
	expr = func(e lang.Expr) {
		if e == nil {
			return
		}
		visitE(e)
		switch x := e.(type) {
		case *lang.IndexExpr:
			expr(x.X)
			expr(x.Index)
		case *lang.CallExpr:
			for _, a := range x.Args {
				expr(a)
			}
		case *lang.BinaryExpr:
			expr(x.L)
			expr(x.R)
		case *lang.UnaryExpr:
			expr(x.X)
		case *lang.CastExpr:
			expr(x.X)
			typ(x.To)
		case *lang.ParenExpr:
			expr(x.X)
		case *lang.ArrayLit:
			for _, el := range x.Elems {
				expr(el)
			}
		}
	}
	var stmt func(s lang.Stmt)
	stmt = func(s lang.Stmt) {
		if s == nil {
			return
		}
		visitS(s)
		switch s := s.(type) {
		case *lang.Block:
			for _, x := range s.Stmts {
				stmt(x)
			}
		case *lang.LetStmt:
			typ(s.TypeExpr)
			expr(s.Value)
		case *lang.AssignStmt:
			for _, x := range s.Targets {
				expr(x)
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
			stmt(s.Then)
			if s.Else != nil {
				stmt(s.Else)
			}
		case *lang.ForStmt:
			expr(s.Lo)
			expr(s.Hi)
			stmt(s.Body)
		case *lang.ForChunksStmt:
			for _, x := range s.Sources {
				expr(x)
			}
			expr(s.Size)
			stmt(s.Body)
		case *lang.ReturnStmt:
			for _, x := range s.Values {
				expr(x)
			}
		case *lang.AbsorbStmt:
			stmt(s.Body)
		}
	}
	for _, p := range f.Params {
		typ(p.TypeExpr)
	}
	for _, r := range f.Results {
		typ(r)
	}
	for _, r := range f.Requires {
		expr(r)
	}
	stmt(f.Body)
}

// runtimeChecks lists the run-time checks the checker left in a function,
// as "line:col kind", sorted.
func runtimeChecks(f *lang.FuncDecl) []string {
	var out []string
	add := func(p lang.Pos, kind string) { out = append(out, fmt.Sprintf("%d:%d %s", p.Line, p.Col, kind)) }
	walk(f, func(e lang.Expr) {
		switch x := e.(type) {
		case *lang.IndexExpr:
			if x.Checked {
				add(x.Pos, "index")
			}
		case *lang.CallExpr:
			if x.Checked {
				add(x.Pos, "bytes")
			}
			if x.CheckRequires {
				add(x.Pos, "requires")
			}
		case *lang.BinaryExpr:
			if x.Checked {
				add(x.Pos, "div")
			}
		}
	}, func(s lang.Stmt) {
		switch s := s.(type) {
		case *lang.AssignStmt:
			if s.Checked {
				add(s.Pos, "div")
			}
		case *lang.ForChunksStmt:
			if s.CheckLens {
				add(s.Pos, "lens")
			}
		}
	})
	sort.Strings(out)
	return out
}
