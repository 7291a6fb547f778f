package parser

import (
	"fmt"
	"strings"

	"github.com/lowent/lowentc/lang"
)

// Limits of one source file, checked by scan before the grammar runs: the
// grammar parser recurses once per nesting level and holds every token, so
// without them an input could exhaust its stack or the memory.
const (
	// MaxNesting bounds the bracket depth: ( [ {.
	MaxNesting = 256
	// MaxExprDepth bounds how deep one expression nests: the operators along
	// its chains (a + b + c ..., ~~~x, x as T as U, a[i][j] ...) plus the
	// brackets around them.
	MaxExprDepth = 1024
	// MaxTypeDepth bounds the dimensions of one array type ([2][3]u8 is 2).
	MaxTypeDepth = 64
	// MaxTokens bounds the tokens of one file (comments and spaces aside).
	MaxTokens = 100_000
)

// operators are the operator and punctuation tokens, longest first so that
// the first match is the longest.
var operators = []string{
	"<<<=", ">>>=", "<<=", ">>=", "<<<", ">>>", "->", "..", "&&", "||", "==", "!=", "<=", ">=", "<<", ">>",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
	"-", "+", "*", "/", "%", "&", "|", "^", "~", "!", "<", ">", "=", "(", ")", "{", "}", "[", "]", ",", ":", ".",
}

// exprOps are the tokens that add a level to an expression tree: binary and
// unary operators, and casts.
var exprOps = map[string]bool{
	"+": true, "-": true, "*": true, "/": true, "%": true, "&": true, "|": true, "^": true, "~": true, "!": true,
	"<": true, ">": true, "<=": true, ">=": true, "==": true, "!=": true, "&&": true, "||": true,
	"<<": true, ">>": true, "<<<": true, ">>>": true, "as": true,
}

// nameAfter are the tokens a name always follows: a keyword there is a
// keyword used as a name.
var nameAfter = map[string]bool{"fn": true, "let": true, "var": true, "const": true, "import": true, "module": true, "for": true, ".": true}

// closesName are the tokens that may follow a name but never a keyword
// (other than true and false).
var closesName = map[string]bool{":": true, "=": true, ",": true, ")": true, "]": true}

var keywordSet = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range Keywords {
		m[k] = true
	}
	return m
}()

type scanTok struct {
	kind rune // 'i' name, 'k' keyword, 'n' number, 's' string, 'o' operator
	text string
	pos  lang.Pos
}

// level is one open bracket (the file itself is the outermost level).
type level struct {
	open      byte // '(', '[', '{', 0 for the file
	ops       int  // expression operators since the last boundary
	inner     int  // the deepest bracketed part of that expression
	inType    bool // a type is being read at this level
	typeDepth int  // array dimensions of that type so far
	tuple     bool // a tuple type's parentheses: after a comma comes a type
}

// scan reads src once, without building anything, and reports the first
// problem the grammar would report badly or not survive: bytes outside the
// language, malformed literals, a ';', a keyword used as a name, and the
// limits above.
func scan(name string, src []byte) *lang.Diag {
	s := &scanner{name: name, src: src, line: 1, col: 1}
	stack := []*level{{}}
	// depth bounds the depth of the expression trees being read: the
	// operators and deepest bracketed part of each open level's current
	// expression, plus the brackets. It only grows while an expression
	// is read, so the check at every token catches the first one too deep.
	depth := 0
	reset := func(l *level) {
		depth -= l.ops + l.inner
		l.ops, l.inner = 0, 0
	}
	var prev, prev2 scanTok
	ntok := 0
	for {
		t, d := s.next()
		if d != nil {
			return d
		}
		if t.kind == 0 {
			return nil
		}
		if ntok++; ntok > MaxTokens {
			return lang.Errorf(t.pos, "the file has more than %d tokens; split it into modules", MaxTokens)
		}
		top := stack[len(stack)-1]
		if t.kind == 'k' && (nameAfter[prev.text] || prev.text == "(" && (prev2.text == "let" || prev2.text == "var")) {
			return lang.Errorf(t.pos, "%s is a keyword, not a name", t.text)
		}
		if t.kind == 'o' && prev.kind == 'k' && nameAfter[prev.text] && !(t.text == "(" && (prev.text == "let" || prev.text == "var")) {
			return lang.Errorf(t.pos, "expected a name after %s", prev.text)
		}
		if t.kind == 'o' && closesName[t.text] && prev.kind == 'k' && !nameAfter[prev.text] && prev.text != "true" && prev.text != "false" {
			return lang.Errorf(prev.pos, "%s is a keyword, not a name", prev.text)
		}
		// Types: after ':', '->' and 'as' come array dimensions, then a
		// name or a parenthesised tuple.
		wasInType := top.inType
		if top.inType {
			switch {
			case t.text == "[" && t.kind == 'o':
				top.typeDepth++
				if top.typeDepth > MaxTypeDepth {
					return lang.Errorf(t.pos, "type nested more than %d deep", MaxTypeDepth)
				}
			case t.text == "(" && t.kind == 'o':
				top.inType = false
			default:
				top.inType, top.typeDepth = false, 0
			}
		}
		switch {
		case t.kind == 'o' && (t.text == "(" || t.text == "[" || t.text == "{"):
			typeParen := t.text == "(" && wasInType
			if t.text == "[" && !wasInType && top.typeDepth == 0 && (prev.kind == 'i' || prev.kind == 'n' || prev.text == "]" || prev.text == ")" || prev.text == "true" || prev.text == "false") {
				// An index: one more level of the expression.
				top.ops++
				depth++
			}
			if t.text == "{" {
				reset(top)
			}
			if len(stack) > MaxNesting {
				return lang.Errorf(t.pos, "brackets nested more than %d deep", MaxNesting)
			}
			nl := &level{open: t.text[0], tuple: typeParen, inType: typeParen}
			stack = append(stack, nl)
		case t.kind == 'o' && (t.text == ")" || t.text == "]" || t.text == "}"):
			if len(stack) > 1 {
				inner := top.ops + top.inner + 1
				reset(top)
				stack = stack[:len(stack)-1]
				parent := stack[len(stack)-1]
				if inner > parent.inner {
					depth += inner - parent.inner
					parent.inner = inner
				}
				if t.text == "]" && parent.typeDepth > 0 {
					parent.inType = true // the element type follows
				}
			}
		case (t.kind == 'o' || t.kind == 'k') && exprOps[t.text]:
			top.ops++
			depth++
			if t.text == "as" {
				top.inType = true
			}
		case t.kind == 'o' && (t.text == ":" || t.text == "->"):
			reset(top)
			top.inType = true
		case t.kind == 'o' && t.text == "," && top.tuple:
			top.inType = true
		case t.kind == 'o' && t.text != ".", t.kind == 'k' && t.text != "true" && t.text != "false" && t.text != "have":
			// '=', ',', '..', a keyword: a new expression starts here.
			reset(top)
		}
		if depth+len(stack)-1 > MaxExprDepth {
			return lang.Errorf(t.pos, "expression nested more than %d deep (operators, casts and indexes in a chain); split it with let", MaxExprDepth)
		}
		prev2, prev = prev, t
	}
}

type scanner struct {
	name      string
	src       []byte
	i         int
	line, col int
}

func (s *scanner) pos() lang.Pos { return lang.Pos{File: s.name, Line: s.line, Col: s.col} }

// advance moves over n bytes of one line.
func (s *scanner) advance(n int) {
	s.i += n
	s.col += n
}

// next returns the next token (kind 0 at the end) or a diagnostic.
func (s *scanner) next() (scanTok, *lang.Diag) {
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '\n':
			s.i++
			s.line, s.col = s.line+1, 1
		case c == ' ' || c == '\t' || c == '\r':
			s.advance(1)
		case c == '/' && s.i+1 < len(s.src) && s.src[s.i+1] == '/':
			j := s.i
			for j < len(s.src) && s.src[j] != '\n' {
				if s.src[j] == 0 {
					s.advance(j - s.i)
					return scanTok{}, lang.Errorf(s.pos(), "unexpected byte 0x00 in a comment")
				}
				j++
			}
			s.advance(j - s.i)
		default:
			return s.token()
		}
	}
	return scanTok{}, nil
}

func (s *scanner) token() (scanTok, *lang.Diag) {
	p := s.pos()
	c := s.src[s.i]
	rest := s.src[s.i:]
	span := func(ok func(byte) bool) int {
		n := 1
		for n < len(rest) && ok(rest[n]) {
			n++
		}
		return n
	}
	switch {
	case c == '"':
		for n := 1; n < len(rest) && rest[n] != '\n'; n++ {
			switch rest[n] {
			case '\\':
				if n+1 < len(rest) && rest[n+1] != '\n' {
					n++
				}
			case '"':
				s.advance(n + 1)
				return scanTok{kind: 's', text: string(rest[:n+1]), pos: p}, nil
			case 0:
				s.advance(n)
				return scanTok{}, lang.Errorf(s.pos(), "unexpected byte 0x00 in a string")
			}
		}
		return scanTok{}, lang.Errorf(p, "unterminated string: a string ends with \" on its own line")
	case isDigit(c):
		n := span(isWordByte)
		text := string(rest[:n])
		s.advance(n)
		if msg := checkNumber(text); msg != "" {
			return scanTok{}, lang.Errorf(p, "%s", msg)
		}
		return scanTok{kind: 'n', text: text, pos: p}, nil
	case isWordByte(c):
		n := span(isWordByte)
		text := string(rest[:n])
		s.advance(n)
		if keywordSet[text] {
			return scanTok{kind: 'k', text: text, pos: p}, nil
		}
		return scanTok{kind: 'i', text: text, pos: p}, nil
	}
	for _, op := range operators {
		if len(rest) >= len(op) && string(rest[:len(op)]) == op {
			s.advance(len(op))
			return scanTok{kind: 'o', text: op, pos: p}, nil
		}
	}
	switch {
	case c == ';':
		return scanTok{}, lang.Errorf(p, "Lowent has no ;: statements need no separator; remove the ;")
	case s.i == 0 && len(rest) >= 3 && string(rest[:3]) == "\xef\xbb\xbf":
		return scanTok{}, lang.Errorf(p, "the file starts with a UTF-8 byte order mark (EF BB BF): Lowent source is ASCII outside comments and strings; save it without the mark")
	case c >= 0x80:
		return scanTok{}, lang.Errorf(p, "unexpected byte 0x%02x: Lowent source is ASCII outside comments and strings", c)
	case c == '\'':
		return scanTok{}, lang.Errorf(p, "unexpected character ': Lowent has no character literals (write the number, e.g. 0x61)")
	case c > ' ' && c < 0x7f:
		return scanTok{}, lang.Errorf(p, "unexpected character %c", c)
	}
	return scanTok{}, lang.Errorf(p, "unexpected byte 0x%02x", c)
}

func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isWordByte(c byte) bool { return isDigit(c) || c == '_' || c|0x20 >= 'a' && c|0x20 <= 'z' }

// checkNumber says what is wrong with a number's text ("" if nothing): a
// number is decimal, 0x hex or 0b binary, with '_' between digits.
func checkNumber(text string) string {
	lower := strings.ToLower(text)
	digits, kind, valid := lower, "decimal", "0123456789_"
	switch {
	case strings.HasPrefix(lower, "0x"):
		digits, kind, valid = lower[2:], "hex", "0123456789abcdef_"
	case strings.HasPrefix(lower, "0b"):
		digits, kind, valid = lower[2:], "binary", "01_"
	}
	bad := strings.IndexFunc(digits, func(r rune) bool { return !strings.ContainsRune(valid, r) })
	switch {
	case kind == "decimal" && bad >= 0:
		return fmt.Sprintf("malformed number %s: numbers are decimal (123), hex (0xff) or binary (0b101)", text)
	case bad >= 0:
		return fmt.Sprintf("malformed %s literal %s: %q is not a %s digit", kind, text, digits[bad], kind)
	case strings.Trim(digits, "_") == "":
		return fmt.Sprintf("malformed %s literal %s: no digits", kind, text)
	}
	return ""
}
