// Package parser turns Lowent source text into lang's syntax tree. The
// grammar is written for participle (grammar.go); convert.go maps its parse
// tree onto lang's AST, keeping a position on every node.
package parser

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/lowent/lowentc/lang"
)

// Keywords are reserved: they never lex as identifiers.
var Keywords = []string{
	"module", "import", "const", "fn", "export", "mut", "let", "var", "if", "else",
	"for", "in", "return", "requires", "effects", "none", "absorb", "because", "as",
	"true", "false", "have",
}

var lowentLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Comment", Pattern: `//[^\n]*`},
	{Name: "Whitespace", Pattern: `[ \t\r\n]+`},
	{Name: "String", Pattern: `"(\\.|[^"\\\n])*"`},
	{Name: "Int", Pattern: `0[xX][0-9a-fA-F_]+|0[bB][01_]+|[0-9][0-9_]*`},
	{Name: "Keyword", Pattern: `\b(` + strings.Join(Keywords, "|") + `)\b`},
	{Name: "Ident", Pattern: `[a-zA-Z_][a-zA-Z0-9_]*`},
	{Name: "Op", Pattern: `<<<=|>>>=|<<=|>>=|<<<|>>>|->|\.\.|&&|\|\||==|!=|<=|>=|<<|>>|\+=|-=|\*=|/=|%=|&=|\|=|\^=|[-+*/%&|^~!<>=(){}\[\],:.]`},
})

var parserOptions = []participle.Option{
	participle.Lexer(lowentLexer),
	participle.Elide("Comment", "Whitespace"),
	participle.UseLookahead(2),
}

var (
	fileParser = participle.MustBuild[gFile](parserOptions...)
	// deepParser re-reads a file that failed with unbounded lookahead
	// (deeperError); the bracket and expression limits bound its recursion.
	deepParser = participle.MustBuild[gFile](append(parserOptions, participle.UseLookahead(1<<20))...)
)

// ParseFile parses one Lowent source file. name is used in positions. It
// never panics: every problem is a diagnostic with a position.
func ParseFile(name string, src []byte) (f *lang.File, diags lang.Diags) {
	defer func() {
		if r := recover(); r != nil {
			f = nil
			diags = lang.Diags{lang.Errorf(lang.Pos{File: name, Line: 1, Col: 1},
				"internal error while parsing (please report): %v", r)}
		}
	}()
	if d := scan(name, src); d != nil {
		return nil, lang.Diags{d}
	}
	g, err := fileParser.ParseBytes(name, src)
	if err != nil {
		return nil, lang.Diags{syntaxError(name, deeperError(name, src, err))}
	}
	c := &converter{name: name, src: src}
	f = c.file(g)
	f.Src = src
	if len(c.diags) > 0 {
		return nil, c.diags
	}
	return f, nil
}

// syntaxError turns participle's error into a positioned diagnostic in the
// language's words: what was found, and what could have come there instead
// (never the grammar's internal rule names).
func syntaxError(name string, err error) *lang.Diag {
	at := lang.Pos{File: name, Line: 1, Col: 1}
	var perr participle.Error
	if !errors.As(err, &perr) {
		return &lang.Diag{Pos: at, Msg: "syntax error"}
	}
	if p := perr.Position(); p.Line > 0 {
		at = lang.Pos{File: name, Line: p.Line, Col: max(p.Column, 1)}
	}
	msg := "syntax error"
	var uerr *participle.UnexpectedTokenError
	if errors.As(err, &uerr) {
		msg += ": unexpected " + describeToken(uerr.Unexpected)
		_, exp, ok := strings.Cut(uerr.Message(), " (expected ")
		if ok {
			if want := describeExpected(strings.TrimSuffix(exp, ")")); want != "" {
				msg += "; expected " + want
			}
		}
	}
	return &lang.Diag{Pos: at, Msg: msg}
}

// deeperError parses a file that failed again, trying every alternative
// as far as it goes. The fast parse gives up on a repeated item or
// statement at its first token when it fails further on (and then says what
// could have come instead of the whole statement); this one reports the
// token where the input really stopped making sense.
func deeperError(name string, src []byte, err error) error {
	if _, derr := deepParser.ParseBytes(name, src); derr != nil {
		return derr
	}
	return err
}

// describeToken names a token as the user wrote it.
func describeToken(t lexer.Token) string {
	switch {
	case t.EOF():
		return "end of file"
	case strings.HasPrefix(t.Value, `"`):
		return "string " + t.Value
	}
	return strconv.Quote(t.Value)
}

// ruleWords says what each grammar rule is, in the language's words.
var ruleWords = map[string]string{
	"GFile": "module", "GItem": `"fn", "const" or "import"`, "GImport": `"import"`, "GConst": `"const"`,
	"GType": "a type", "GArrayType": "an array type", "GFunc": `"fn"`, "GEffects": `"effects"`,
	"GParam": "a parameter", "GBlock": "a block { ... }", "GStmt": "a statement", "GLet": `"let" or "var"`,
	"GIf": `"if"`, "GFor": `"for"`, "GReturn": `"return"`, "GAbsorb": `"absorb"`, "GSimple": "a statement",
	"GArgs": `"("`, "GIndex": `"["`, "GArray": "an array literal", "GName": "a name",
}

// describeExpected reads participle's description of what could come next
// (a sequence of rule names, literals and groups) and says what its first
// element can be.
func describeExpected(exp string) string {
	words := firstWords(splitElems(exp))
	if len(words) == 1 && words[0] == `"}"` {
		return `a statement or "}"`
	}
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// firstWords describes the possible first tokens of a sequence of grammar
// elements.
func firstWords(elems []string) []string {
	if len(elems) == 0 {
		return nil
	}
	e := elems[0]
	var out []string
	add := func(ws ...string) {
		for _, w := range ws {
			if w != "" && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	switch {
	case strings.HasPrefix(e, "("):
		inner := strings.TrimRight(e, "?*+")
		optional := strings.HasSuffix(e, "?") || strings.HasSuffix(e, "*")
		inner = strings.TrimSuffix(strings.TrimPrefix(inner, "("), ")")
		for _, alt := range splitAlternatives(inner) {
			add(firstWords(splitElems(alt))...)
		}
		if optional {
			add(firstWords(elems[1:])...)
		}
	case strings.HasPrefix(e, `"`):
		add(strings.TrimRight(e, "?*+"))
	case strings.HasPrefix(e, "<ident>"):
		add("a name")
	case strings.HasPrefix(e, "<int>"):
		add("a number")
	case strings.HasPrefix(e, "<string>"):
		add("a string")
	default:
		rule := strings.TrimRight(e, "?*+")
		if w, ok := ruleWords[rule]; ok {
			add(w)
		} else if strings.HasPrefix(rule, "G") {
			add("an expression") // the precedence levels: GExpr, GAnd, ... GPrimary
		}
		if strings.HasSuffix(e, "?") || strings.HasSuffix(e, "*") {
			add(firstWords(elems[1:])...)
		}
	}
	return out
}

// splitElems splits a grammar sequence at its top-level spaces.
func splitElems(s string) []string {
	var out []string
	for _, e := range splitTop(s, ' ') {
		if e != "" {
			out = append(out, e)
		}
	}
	return out
}

// splitAlternatives splits a group's body at its top-level '|'.
func splitAlternatives(s string) []string {
	out := splitTop(s, '|')
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
}

// splitTop splits s at each sep outside brackets and quoted strings.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted:
			if c == '\\' {
				i++
			} else if c == '"' {
				quoted = false
			}
		case c == '"':
			quoted = true
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == sep && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func pos(p lexer.Position) lang.Pos {
	return lang.Pos{File: p.Filename, Line: p.Line, Col: p.Column}
}

// Grammar returns the EBNF of the language, for documentation.
func Grammar() string { return fmt.Sprint(fileParser.String()) }
