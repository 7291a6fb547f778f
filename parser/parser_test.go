package parser

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/sem"
)

func parse(t *testing.T, src string) *lang.File {
	t.Helper()
	f, ds := ParseFile("t.lw", []byte(src))
	require.Empty(t, ds, "diagnostics: %v", ds)
	return f
}

// body parses `module m fn f() { BODY }` and returns f's statements.
func body(t *testing.T, stmts string) []lang.Stmt {
	t.Helper()
	return parse(t, "module m\nfn f() {\n"+stmts+"\n}").Funcs[0].Body.Stmts
}

// show prints an expression fully parenthesised, to test precedence.
func show(e lang.Expr) string {
	switch e := e.(type) {
	case *lang.IntLit:
		return e.Text
	case *lang.BoolLit:
		if e.Val {
			return "true"
		}
		return "false"
	case *lang.Ident:
		if e.Module != "" {
			return e.Module + "." + e.Name
		}
		return e.Name
	case *lang.BinaryExpr:
		return "(" + show(e.L) + " " + e.Op.String() + " " + show(e.R) + ")"
	case *lang.UnaryExpr:
		return "(" + e.Op.String() + show(e.X) + ")"
	case *lang.CastExpr:
		return "(" + show(e.X) + " as " + e.To.Name + ")"
	case *lang.ParenExpr:
		return show(e.X)
	case *lang.IndexExpr:
		return show(e.X) + "[" + show(e.Index) + "]"
	case *lang.CallExpr:
		var args []string
		for _, a := range e.Args {
			args = append(args, show(a))
		}
		name := e.Name
		if e.Module != "" {
			name = e.Module + "." + name
		}
		return name + "(" + strings.Join(args, ", ") + ")"
	case *lang.ArrayLit:
		var el []string
		for _, a := range e.Elems {
			el = append(el, show(a))
		}
		return "[" + strings.Join(el, ", ") + "]"
	}
	return "?"
}

func expr(t *testing.T, src string) string {
	t.Helper()
	s := body(t, "x = "+src)
	require.Len(t, s, 1)
	return show(s[0].(*lang.AssignStmt).Value)
}

func TestPrecedence(t *testing.T) {
	cases := map[string]string{
		"a + b * c":            "(a + (b * c))",
		"a << 2 + 1":           "(a << (2 + 1))",
		"a & b ^ c | d":        "(((a & b) ^ c) | d)",
		"a ^ b & c":            "(a ^ (b & c))",
		"a == b | c":           "(a == (b | c))",
		"a < b && c || !d":     "(((a < b) && c) || (!d))",
		"-a as u32 * b":        "(((-a) as u32) * b)",
		"x >>> 7 ^ x <<< 3":    "((x >>> 7) ^ (x <<< 3))",
		"a - b - c":            "((a - b) - c)",
		"(a + b) * c":          "((a + b) * c)",
		"~m.K[i][j] % 3":       "((~m.K[i][j]) % 3)",
		"f(a, g(b), [1, 2],)":  "f(a, g(b), [1, 2])",
		"0x6a09_e667 + 0b1_01": "(0x6a09_e667 + 0b1_01)",
	}
	for src, want := range cases {
		assert.Equal(t, want, expr(t, src), src)
	}
}

func TestIntLiterals(t *testing.T) {
	for text, want := range map[string]uint64{"0": 0, "1_000": 1000, "0xff": 255, "0B101": 5, "18446744073709551615": 1<<64 - 1} {
		s := body(t, "x = "+text)
		assert.Equal(t, want, s[0].(*lang.AssignStmt).Value.(*lang.IntLit).Val, text)
	}
}

func TestStatements(t *testing.T) {
	s := body(t, `let x: u32 = 1
var (a, b) = two()
var z: [4]u64
a, b = two()
y[i] <<<= 3
if a { } else if b { } else { }
for i in 0..16 { }
for k, s, d in chunks(src, dst, 16) { }
for blk in chunks(msg, 64) { }
return 1, 2
absorb unsafe, trap because "why \"q\"" { g() }
{ }
g()`)
	require.Len(t, s, 13)
	assert.Equal(t, []string{"x"}, s[0].(*lang.LetStmt).Names)
	assert.True(t, s[1].(*lang.LetStmt).Mutable)
	assert.Equal(t, []string{"a", "b"}, s[1].(*lang.LetStmt).Names)
	assert.Nil(t, s[2].(*lang.LetStmt).Value)
	assert.Len(t, s[3].(*lang.AssignStmt).Targets, 2)
	assert.Equal(t, sem.OpRotl, s[4].(*lang.AssignStmt).Op)
	assert.Equal(t, "<<<=", s[4].(*lang.AssignStmt).OpText())
	assert.IsType(t, &lang.IfStmt{}, s[5].(*lang.IfStmt).Else)
	assert.Equal(t, "i", s[6].(*lang.ForStmt).Var)
	fc := s[7].(*lang.ForChunksStmt)
	assert.Equal(t, "k", fc.Index)
	assert.Equal(t, []string{"s", "d"}, fc.Vars)
	assert.Len(t, fc.Sources, 2)
	assert.Equal(t, "", s[8].(*lang.ForChunksStmt).Index)
	assert.Len(t, s[9].(*lang.ReturnStmt).Values, 2)
	ab := s[10].(*lang.AbsorbStmt)
	assert.Equal(t, `why "q"`, ab.Reason)
	assert.Equal(t, []string{"unsafe", "trap"}, ab.Effects)
	assert.IsType(t, &lang.Block{}, s[11])
	assert.IsType(t, &lang.ExprStmt{}, s[12])
}

func TestDeclarations(t *testing.T) {
	f := parse(t, `module m
import crypto_hw
const K: [2][3]u8 = [[1, 2, 3], [4, 5, 6]]
fn two(a: u64) -> (u64, u64) { return a, a }
export fn e(out: mut []u64, k: [16]u8) requires len(out) >= 2 requires len(k) == 16, true effects trap, io { }
fn n() effects none { }`)
	assert.Equal(t, "m", f.Module)
	assert.Equal(t, "crypto_hw", f.Imports[0].Name)
	assert.Equal(t, "K", f.Consts[0].Name)
	require.Len(t, f.Funcs, 3)
	assert.Len(t, f.Funcs[0].Results, 2)
	e := f.Funcs[1]
	assert.True(t, e.Export)
	assert.True(t, e.Params[0].Mut)
	assert.True(t, e.Params[0].TypeExpr.Slice)
	assert.Len(t, e.Requires, 3)
	assert.Equal(t, []string{"trap", "io"}, e.Effects.Names)
	assert.NotNil(t, f.Funcs[2].Effects)
	assert.Empty(t, f.Funcs[2].Effects.Names)
	assert.Equal(t, lang.Pos{File: "t.lw", Line: 5, Col: 1}, e.Pos)
	assert.Equal(t, lang.Pos{File: "t.lw", Line: 5, Col: 13}, e.Params[0].Pos)
}

// TestRequiresText: each requires condition keeps where it starts and its
// text as written, on one line without comments (what a fault reports).
func TestRequiresText(t *testing.T) {
	f := parse(t, `module m
export fn e(out: mut []u8, k: [16]u8)
    requires len(out) >= 2, (len(out) <   // a comment
        100)
    requires len(k)==16 {
}`)
	want := []lang.SrcText{
		{Pos: lang.Pos{File: "t.lw", Line: 3, Col: 14}, Text: "len(out) >= 2"},
		{Pos: lang.Pos{File: "t.lw", Line: 3, Col: 29}, Text: "(len(out) < 100)"},
		{Pos: lang.Pos{File: "t.lw", Line: 5, Col: 14}, Text: "len(k)==16"},
	}
	assert.Equal(t, want, f.Funcs[0].RequiresSrc)
}

// TestParallelAssignment: `a, b = E1, E2` keeps one value per target;
// `a, b = f(x)` stays one multi-result value.
func TestParallelAssignment(t *testing.T) {
	s := body(t, `a, b = b, a
v[0], v[i + 1], c = v[1], v[0] + 1, f(x)
a, b = two(x)`)
	require.Len(t, s, 3)
	p := s[0].(*lang.AssignStmt)
	assert.Nil(t, p.Value)
	require.Len(t, p.Values, 2)
	assert.Equal(t, "b", show(p.Values[0]))
	assert.Equal(t, "a", show(p.Values[1]))
	q := s[1].(*lang.AssignStmt)
	require.Len(t, q.Targets, 3)
	require.Len(t, q.Values, 3)
	assert.Equal(t, "v[(i + 1)]", show(q.Targets[1]))
	assert.Equal(t, "(v[0] + 1)", show(q.Values[1]))
	assert.Equal(t, "f(x)", show(q.Values[2]))
	m := s[2].(*lang.AssignStmt)
	assert.Nil(t, m.Values)
	assert.Equal(t, "two(x)", show(m.Value))
}

// TestRangeView: a[i..j] is a call of the view builtin on a, i and j,
// and indexes and views chain left to right.
func TestRangeView(t *testing.T) {
	assert.Equal(t, "[..](a, i, (j + 1))", expr(t, "a[i..j + 1]"))
	assert.Equal(t, "[..](a, 0, 4)[2]", expr(t, "a[0..4][2]"))
	assert.Equal(t, "[..](m[1], 2, len(s))", expr(t, "m[1][2..len(s)]"))
}

func TestErrors(t *testing.T) {
	cases := map[string]string{
		"module m\nfn f() { x = 1 +* 2 }":                       `t.lw:2:17: syntax error: unexpected "*"; expected an expression`,
		"module m\nconst X: u8 = 0x1_0000_0000_0000_0000":       "t.lw:2:15: integer literal 0x1_0000_0000_0000_0000 does not fit in 64 bits",
		"module m\nfn if() {}":                                  "t.lw:2:4: if is a keyword, not a name",
		"\xef\xbb\xbfmodule m\n":                                "t.lw:1:1: the file starts with a UTF-8 byte order mark (EF BB BF)",
		"module m\nconst X: u64 = " + strings.Repeat("9", 5000): "t.lw:2:16: integer literal 9999999999999999999999999999999999999999... (5000 characters) does not fit in 64 bits",
		"module m\nfn f() { let x: u8 }":                        "t.lw:2:10: let x needs a value",
		"module m\nfn f() { var x }":                            "t.lw:2:10: var x needs a type or a value",
		"module m\nfn f() { for a, b in 0..3 {} }":              "t.lw:2:10: a range loop binds one name, not 2",
		"module m\nfn f() { for a in g(x) {} }":                 "t.lw:2:19: a for loop runs over a range",
		"module m\nfn f() { for a in chunks(x) {} }":            "t.lw:2:19: chunks needs at least one slice and a chunk size",
		"module m\nfn f() { a, b += g() }":                      "t.lw:2:10: += takes one target",
		"module m\nfn f() { a += 1, 2 }":                        "t.lw:2:18: += takes one value",
		"module m\nfn f() { é }":                                "t.lw:2:10: unexpected byte 0xc3",
		"module m\nfn f() {" + strings.Repeat("(", 300):         "brackets nested more than 256 deep",
		"": "t.lw:1:1: syntax error",
	}
	for src, want := range cases {
		_, ds := ParseFile("t.lw", []byte(src))
		require.NotEmpty(t, ds, src)
		assert.Contains(t, ds[0].Error(), want, src)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("module m\nfn f(a: u8) -> u8 { return a <<< 3 }"))
	f.Add([]byte("module m\nconst K: [2]u64 = [1, 2]\nexport fn e(x: mut []u8) effects none { for b in chunks(x, 4) { b[0] = 1 } }"))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, ds := ParseFile("f.lw", src)
		if (file == nil) == (len(ds) == 0) {
			t.Fatalf("file %v with %d diagnostics", file != nil, len(ds))
		}
		for _, d := range ds {
			if d.Pos.File != "f.lw" || d.Pos.Line < 1 || d.Pos.Col < 1 {
				t.Fatalf("diagnostic without a position: %v", d)
			}
			if w := internalWord(d.Msg, src); w != "" {
				t.Fatalf("diagnostic in the parser's own words (%s): %v", w, d)
			}
		}
	})
}

// grammarWord matches the names of the grammar's rules (gBlock, GExpr, ...)
// and the parser library's lexer messages.
var grammarWord = regexp.MustCompile(`\b[gG](File|Item|Import|Const|Type|ArrayType|Func|Effects|Param|Block|Stmt|Let|If|For|Return|Absorb|Simple|Expr|OrOp|And|AndOp|Cmp|CmpOp|BitOr|OrBit|Xor|XorOp|BitAnd|AndBit|Shift|ShiftOp|Add|AddOp|Mul|MulOp|Cast|AsOp|Unary|Postfix|Index|Primary|Array|Name|Args)\b|lexer:|participle|struct \{`)

// internalWord returns a word of msg that belongs to the parser's
// implementation rather than to the language, unless src itself has it
// (a name the user chose may be quoted back).
func internalWord(msg string, src []byte) string {
	for _, w := range grammarWord.FindAllString(msg, -1) {
		if !strings.Contains(string(src), w) {
			return w
		}
	}
	return ""
}
