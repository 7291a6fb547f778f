// Package parser turns Lowent source text into lang's syntax tree. The
// grammar is written for participle (grammar.go); convert.go maps its parse
// tree onto lang's AST, keeping a position on every node.
package parser

import (
	"errors"
	"fmt"
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

var fileParser = participle.MustBuild[gFile](
	participle.Lexer(lowentLexer),
	participle.Elide("Comment", "Whitespace"),
	participle.UseLookahead(2),
)

// MaxNesting bounds the bracket depth of a source file, so that no input can
// exhaust the parser's stack.
const MaxNesting = 256

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
	if d := checkText(name, src); d != nil {
		return nil, lang.Diags{d}
	}
	g, err := fileParser.ParseBytes(name, src)
	if err != nil {
		return nil, lang.Diags{syntaxError(name, err)}
	}
	c := &converter{name: name, src: src}
	f = c.file(g)
	f.Src = src
	if len(c.diags) > 0 {
		return nil, c.diags
	}
	return f, nil
}

// checkText rejects what the grammar cannot report well: text that is not
// UTF-8-clean ASCII-compatible source, and bracket nesting deep enough to
// exhaust the recursive-descent parser.
func checkText(name string, src []byte) *lang.Diag {
	line, col, depth := 1, 1, 0
	inComment, inString := false, false
	for i := 0; i < len(src); i++ {
		c := src[i]
		pos := lang.Pos{File: name, Line: line, Col: col}
		switch {
		case c == '\n':
			line, col = line+1, 0
			inComment, inString = false, false
		case inComment:
		case inString:
			if c == '\\' && i+1 < len(src) && src[i+1] != '\n' {
				i++
				col++
			} else if c == '"' {
				inString = false
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			inComment = true
		case c == '"':
			inString = true
		case c == '(' || c == '[' || c == '{':
			depth++
			if depth > MaxNesting {
				return lang.Errorf(pos, "brackets nested more than %d deep", MaxNesting)
			}
		case c == ')' || c == ']' || c == '}':
			depth--
		}
		if c == 0 || (c >= 0x80 && !inComment && !inString) {
			return lang.Errorf(pos, "unexpected byte 0x%02x: Lowent source is ASCII outside comments and strings", c)
		}
		col++
	}
	return nil
}

// syntaxError turns participle's error into a positioned diagnostic with a
// message in the project's words.
func syntaxError(name string, err error) *lang.Diag {
	var perr participle.Error
	if errors.As(err, &perr) {
		p := perr.Position()
		if p.Filename == "" {
			p.Filename = name
		}
		msg := perr.Message()
		msg = strings.ReplaceAll(msg, "unexpected token", "unexpected")
		msg = shortenExpected(msg)
		return &lang.Diag{Pos: lang.Pos{File: p.Filename, Line: max(p.Line, 1), Col: max(p.Column, 1)}, Msg: "syntax error: " + msg}
	}
	return lang.Errorf(lang.Pos{File: name, Line: 1, Col: 1}, "syntax error: %v", err)
}

// shortenExpected keeps only the first token of a long "(expected ...)"
// clause: participle spells out the rest of the production with internal
// names that mean nothing to a user.
func shortenExpected(msg string) string {
	i := strings.Index(msg, "(expected ")
	if i < 0 || len(msg)-i < 40 {
		return msg
	}
	rest := msg[i+len("(expected "):]
	if j := strings.IndexByte(rest, ' '); j > 0 {
		rest = rest[:j]
	}
	rest = strings.TrimSuffix(rest, ")")
	if rest == "<ident>" {
		rest = "a name"
	}
	return msg[:i] + "(expected " + rest + ")"
}

func pos(p lexer.Position) lang.Pos {
	return lang.Pos{File: p.Filename, Line: p.Line, Col: p.Column}
}

// Grammar returns the EBNF of the language, for documentation.
func Grammar() string { return fmt.Sprint(fileParser.String()) }
