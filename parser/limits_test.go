package parser

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fnBody wraps statements in an export.
func fnBody(stmts string) string {
	return "module m\nexport fn f(x: u8) -> u8 effects none {\n" + stmts + "\n}\n"
}

// TestDeepInputsAreBounded: inputs that used to overflow the parser's stack
// (or take gigabytes) stop at a limit, with a position, quickly and in
// little memory.
func TestDeepInputsAreBounded(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"unary chain", fnBody("return " + strings.Repeat("~", 400_000) + "x"), "t.lw:3:1031: expression nested more than 1024 deep"},
		{"array type", fnBody("var a: " + strings.Repeat("[1]", 500_000) + "u8\nreturn x"), "t.lw:3:200: type nested more than 64 deep"},
		{"slice type", "module m\nfn g(a: " + strings.Repeat("[]", 100) + "u8) {}", "t.lw:2:137: type nested more than 64 deep"},
		{"index chain", fnBody("return x" + strings.Repeat("[1]", 500_000)), "t.lw:3:3072: expression nested more than 1024 deep"},
		{"indexed literal", fnBody("let a = [1]" + strings.Repeat("[1]", 500_000)), "t.lw:3:3075: expression nested more than 1024 deep"},
		{"sum chain", fnBody("return x" + strings.Repeat(" + x", 1_000_000)), "t.lw:3:4102: expression nested more than 1024 deep"},
		{"cast chain", fnBody("return x" + strings.Repeat(" as u8", 2000)), "expression nested more than 1024 deep"},
		{"chain across parentheses", fnBody("return " + strings.Repeat("x + (", 200) + "x" + strings.Repeat(" + x + x + x + x)", 200)), "expression nested more than 1024 deep"},
		{"parentheses", fnBody("return " + strings.Repeat("(", 300_000) + "x"), "brackets nested more than 256 deep"},
		{"tokens", fnBody(strings.Repeat("x = 1\n", 40_000)), "t.lw:33331:3: the file has more than 100000 tokens"},
	}
	for _, c := range cases {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		start := time.Now()
		f, ds := ParseFile("t.lw", []byte(c.src))
		elapsed := time.Since(start)
		runtime.ReadMemStats(&m1)
		assert.Nil(t, f, c.name)
		require.Len(t, ds, 1, c.name)
		assert.Contains(t, ds[0].Error(), c.want, c.name)
		assert.Less(t, elapsed, 2*time.Second, c.name)
		assert.Less(t, m1.TotalAlloc-m0.TotalAlloc, uint64(64<<20), "%s: bytes allocated", c.name)
	}
}

// TestLimitsAdmitWhatIsWithin: at the limits, programs still parse.
func TestLimitsAdmitWhatIsWithin(t *testing.T) {
	for _, src := range []string{
		fnBody("return " + strings.Repeat("~", 1000) + "x"),
		fnBody("return x" + strings.Repeat(" + x", 1000)),
		fnBody("var a: " + strings.Repeat("[1]", MaxTypeDepth) + "u8\nreturn x"),
		fnBody("return " + strings.Repeat("(", 250) + "x" + strings.Repeat(")", 250)),
		// Every statement starts a new expression: many long lines are fine.
		fnBody(strings.Repeat("x = x"+strings.Repeat(" + 1", 500)+"\n", 20) + "return x"),
		"module m\nconst T: [64]u8 = [" + strings.Repeat("1, ", 63) + "1]\nfn g(a: [2][3]u8) -> ([2]u8, u8) { return [a[0][1] + a[1][2] as u8, 1], 2 }",
	} {
		_, ds := ParseFile("t.lw", []byte(src))
		assert.Empty(t, ds, "%.80s: %v", src, ds)
	}
}

var grammarWords = regexp.MustCompile(`\bG[A-Z]|lexer:|<ident>|<int>|<string>|<EOF>|unexpected token`)

// TestMessagesInLanguageWords: broken snippets get messages in the
// language's words, never the grammar's rule names or the lexer's.
func TestMessagesInLanguageWords(t *testing.T) {
	cases := map[string]string{
		"x = 1;":                       "t.lw:3:6: Lowent has no ;: statements need no separator; remove the ;",
		"x = 0x_":                      "t.lw:3:5: malformed hex literal 0x_: no digits",
		"x = 0xfg":                     "t.lw:3:5: malformed hex literal 0xfg: 'g' is not a hex digit",
		"x = 0b2":                      "t.lw:3:5: malformed binary literal 0b2: '2' is not a binary digit",
		"x = 0b":                       "t.lw:3:5: malformed binary literal 0b: no digits",
		"x = 12ab":                     "t.lw:3:5: malformed number 12ab",
		"let absorb = 1":               "t.lw:3:5: absorb is a keyword, not a name",
		"var in: u8":                   "t.lw:3:5: in is a keyword, not a name",
		"let (a, if) = g()":            "t.lw:3:9: if is a keyword, not a name",
		"x = g(a, return)":             "t.lw:3:10: return is a keyword, not a name",
		"x = m.fn()":                   "t.lw:3:7: fn is a keyword, not a name",
		"for in in 0..3 {}":            "t.lw:3:5: in is a keyword, not a name",
		"let = 3":                      "t.lw:3:5: expected a name after let",
		"x = @":                        "t.lw:3:5: unexpected character @",
		"x = 'a'":                      "t.lw:3:5: unexpected character ': Lowent has no character literals",
		`absorb trap because "why { }`: "t.lw:3:21: unterminated string",
		"x = 1 +":                      `t.lw:4:1: syntax error: unexpected "}"; expected an expression`,
		"var x: [2]":                   `t.lw:4:1: syntax error: unexpected "}"; expected a type`,
		"if x { ":                      `t.lw:5:1: syntax error: unexpected end of file; expected a statement or "}"`,
		"for i 0..3 {}":                `t.lw:3:7: syntax error: unexpected "0"; expected "in"`,
		"if x return 1":                `t.lw:3:6: syntax error: unexpected "return"; expected a block { ... }`,
		"x = g(1 2)":                   `t.lw:3:9: syntax error: unexpected "2"; expected ")"`,
		`x = "s"`:                      `t.lw:3:5: syntax error: unexpected string "s"`,
		"let (a b) = g()":              `t.lw:3:8: syntax error: unexpected "b"; expected ")"`,
	}
	for stmt, want := range cases {
		_, ds := ParseFile("t.lw", []byte("module m\nfn f() {\n"+stmt+"\n}\n"))
		require.NotEmpty(t, ds, stmt)
		assert.Equal(t, want, ds[0].Error()[:min(len(ds[0].Error()), len(want))], stmt)
	}
	files := map[string]string{
		"module":                       `t.lw:1:7: syntax error: unexpected end of file; expected a name`,
		"module m\nexport const":       `t.lw:2:8: syntax error: unexpected "const"; expected "fn"`,
		"module m\nfn f(a u8) {}":      `t.lw:2:8: syntax error: unexpected "u8"; expected ":"`,
		"module m\nfn f() -> {}":       `t.lw:2:11: syntax error: unexpected "{"; expected a type`,
		"module m\nconst K: u8 = ":     `t.lw:2:15: syntax error: unexpected end of file; expected an expression`,
		"module m\nfn f(a: (u8, )) {}": `t.lw:2:14: syntax error: unexpected ")"; expected a type`,
		"module m\nx = 1":              `t.lw:2:1: syntax error: unexpected "x"`,
	}
	for src, want := range files {
		_, ds := ParseFile("t.lw", []byte(src))
		require.NotEmpty(t, ds, src)
		assert.Equal(t, want, ds[0].Error(), src)
	}
}

// TestMutatedSourcesNeverShowGrammarNames mutates the standard library's
// functions (a token deleted, replaced or inserted) and checks every message.
func TestMutatedSourcesNeverShowGrammarNames(t *testing.T) {
	files, err := filepath.Glob("../stdlib/*.lw")
	require.NoError(t, err)
	var fns []string
	split := regexp.MustCompile(`\n(?:export fn|fn|const) `)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, part := range split.Split(string(b), -1)[1:] {
			fns = append(fns, "module m\nfn "+part)
		}
	}
	require.NotEmpty(t, fns)
	token := regexp.MustCompile(`//[^\n]*|"[^"\n]*"|\w+|<<<=|>>>=|<<=|>>=|<<<|>>>|->|\.\.|&&|\|\||[=!<>]=|<<|>>|[-+*/%&|^]=|\S`)
	inserts := []string{"(", ")", "[", "]", "{", "}", ",", ":", "=", "+", "-", "->", "..", ".", "!", "~", "x", "1", "0x", `"s"`, ";", "@", "#",
		"let", "var", "fn", "if", "else", "for", "in", "return", "as", "absorb", "because", "requires", "effects", "none",
		"export", "mut", "const", "import", "module", "have", "true"}
	rng := rand.New(rand.NewPCG(1, 2))
	n := 400
	if testing.Short() {
		n = 100
	}
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		src := fns[rng.IntN(len(fns))]
		for k := 0; k < 1+rng.IntN(2); k++ {
			locs := token.FindAllStringIndex(src, -1)
			l := locs[rng.IntN(len(locs))]
			ins := inserts[rng.IntN(len(inserts))]
			switch rng.IntN(3) {
			case 0:
				src = src[:l[0]] + src[l[1]:]
			case 1:
				src = src[:l[0]] + ins + " " + src[l[0]:]
			default:
				src = src[:l[0]] + ins + src[l[1]:]
			}
		}
		_, ds := ParseFile("m.lw", []byte(src))
		for _, d := range ds {
			seen[d.Msg] = true
			assert.NotRegexp(t, grammarWords, d.Msg, "source:\n%s", src)
			assert.True(t, d.Pos.File == "m.lw" && d.Pos.Line >= 1 && d.Pos.Col >= 1, "position of %v", d)
		}
	}
	assert.Greater(t, len(seen), 20, "kinds of message seen")
	if testing.Verbose() {
		for m := range seen {
			fmt.Println(m)
		}
	}
}
