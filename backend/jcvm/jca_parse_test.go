package jcvm

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// A reader of Java Card Assembly as capgen takes it, written for the tests
// from the format's grammar (package, imports, applet, constant pool,
// classes with fields and methods): the tests load the simulator from the
// text --emit jca prints, so what is checked is the artifact itself.

// jcaTok is one token: a word or one of { } ; , =.
type jcaTok struct {
	s    string
	line int
}

// jcaLex splits src into tokens, dropping // and /* */ comments.
func jcaLex(src string) ([]jcaTok, error) {
	var toks []jcaTok
	line := 1
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return nil, fmt.Errorf("line %d: unterminated comment", line)
			}
			line += strings.Count(src[i:i+2+end], "\n")
			i += end + 4
		case strings.ContainsRune("{};,=", rune(c)):
			toks = append(toks, jcaTok{string(c), line})
			i++
		default:
			j, paren := i, 0 // a descriptor's ';' (Ljava/lang/Object;) is in the word
			for j < len(src) && (paren > 0 && src[j] != '\n' || !strings.ContainsRune("{};,= \t\r\n\f", rune(src[j])) && !strings.HasPrefix(src[j:], "//") && !strings.HasPrefix(src[j:], "/*")) {
				paren += map[byte]int{'(': 1, ')': -1}[src[j]]
				j++
			}
			toks = append(toks, jcaTok{src[i:j], line})
			i = j
		}
	}
	return toks, nil
}

// jcaFile is a parsed .jca: one package.
type jcaFile struct {
	pkg, version string
	aid          []byte
	imports      []jcaImport
	applets      []jcaApplet
	cp           []jcaEntry
	classes      []*jcaClass
}

type jcaImport struct {
	aid     []byte
	version string
}

type jcaApplet struct {
	aid   []byte
	class string
}

// jcaEntry is a constant-pool entry: its kind (staticFieldRef,
// staticMethodRef, classRef, ...) and its words.
type jcaEntry struct {
	kind  string
	words []string
}

type jcaClass struct {
	mods    []string
	name    string
	token   int // -1: none
	extends string
	fields  []*jcaField
	methods []*jcaMethod
}

type jcaField struct {
	mods     []string
	typ      string
	name     string
	token    int
	init     []int64
	hasValue bool
}

type jcaMethod struct {
	mods          []string
	name, desc    string // desc: "(...)R"
	token         int
	stack, locals int
	code          []jcaInsn
}

// jcaInsn is an instruction, or a label (label != "", op == "").
type jcaInsn struct {
	label string
	op    string
	args  []string
	line  int
}

type jcaParser struct {
	toks []jcaTok
	pos  int
}

func (p *jcaParser) errf(format string, args ...any) error {
	line := 0
	if p.pos < len(p.toks) {
		line = p.toks[p.pos].line
	} else if len(p.toks) > 0 {
		line = p.toks[len(p.toks)-1].line
	}
	return fmt.Errorf("jca line %d: %s", line, fmt.Sprintf(format, args...))
}

func (p *jcaParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos].s
	}
	return ""
}

func (p *jcaParser) next() string {
	s := p.peek()
	p.pos++
	return s
}

func (p *jcaParser) expect(s string) error {
	if got := p.next(); !strings.EqualFold(got, s) {
		p.pos--
		return p.errf("want %q, found %q", s, got)
	}
	return nil
}

// words reads words up to the terminator stop (consumed).
func (p *jcaParser) words(stop string) ([]string, error) {
	var ws []string
	for p.peek() != stop {
		if p.pos >= len(p.toks) {
			return nil, p.errf("missing %q", stop)
		}
		w := p.next()
		if strings.ContainsAny(w, "{};,=") && !strings.Contains(w, "(") {
			p.pos--
			return nil, p.errf("unexpected %q before %q", w, stop)
		}
		ws = append(ws, w)
	}
	p.pos++
	return ws, nil
}

// parseJCA parses the text of a .jca file.
func parseJCA(src string) (*jcaFile, error) {
	toks, err := jcaLex(src)
	if err != nil {
		return nil, err
	}
	p := &jcaParser{toks: toks}
	f := &jcaFile{}
	if err := p.expect(".package"); err != nil {
		return nil, err
	}
	f.pkg = p.next()
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	for {
		d := strings.ToLower(p.next())
		switch d {
		case "}":
			if p.pos != len(p.toks) {
				return nil, p.errf("text after the package")
			}
			if f.aid == nil {
				return nil, p.errf("the package has no .aid")
			}
			return f, nil
		case ".aid":
			ws, err := p.words(";")
			if err != nil {
				return nil, err
			}
			if len(ws) != 1 {
				return nil, p.errf(".aid takes one AID")
			}
			if f.aid, err = jcaAID(ws[0]); err != nil {
				return nil, p.errf("%v", err)
			}
		case ".version":
			ws, err := p.words(";")
			if err != nil || len(ws) != 1 {
				return nil, p.errf(".version takes one version")
			}
			f.version = ws[0]
		case ".imports":
			err := p.block(func(ws []string) error {
				if len(ws) != 2 {
					return p.errf("an import is an AID and a version")
				}
				aid, err := jcaAID(ws[0])
				if err != nil {
					return p.errf("%v", err)
				}
				f.imports = append(f.imports, jcaImport{aid, ws[1]})
				return nil
			})
			if err != nil {
				return nil, err
			}
		case ".applet":
			err := p.block(func(ws []string) error {
				if len(ws) != 2 {
					return p.errf("an applet is an AID and a class")
				}
				aid, err := jcaAID(ws[0])
				if err != nil {
					return p.errf("%v", err)
				}
				f.applets = append(f.applets, jcaApplet{aid, ws[1]})
				return nil
			})
			if err != nil {
				return nil, err
			}
		case ".constantpool":
			err := p.block(func(ws []string) error {
				if len(ws) < 2 {
					return p.errf("a constant-pool entry is a kind and its reference")
				}
				f.cp = append(f.cp, jcaEntry{ws[0], ws[1:]})
				return nil
			})
			if err != nil {
				return nil, err
			}
		case ".class":
			c, err := p.class()
			if err != nil {
				return nil, err
			}
			f.classes = append(f.classes, c)
		default:
			p.pos--
			return nil, p.errf("unknown directive %q in the package", d)
		}
	}
}

// block reads { (words ;)* } and hands each statement to do.
func (p *jcaParser) block(do func([]string) error) error {
	if err := p.expect("{"); err != nil {
		return err
	}
	for p.peek() != "}" {
		ws, err := p.words(";")
		if err != nil {
			return err
		}
		if err := do(ws); err != nil {
			return err
		}
	}
	p.pos++
	return nil
}

var jcaAccess = []string{"public", "private", "protected", "static", "final", "abstract", "native"}

// header splits the words before a class's or method's "{" into
// modifiers, name, token and the rest.
func header(ws []string) (mods []string, name string, token int, rest []string, err error) {
	i := 0
	for i < len(ws) && slices.Contains(jcaAccess, ws[i]) {
		i++
	}
	if i == len(ws) {
		return nil, "", 0, nil, fmt.Errorf("no name")
	}
	mods, name, token, rest = ws[:i], ws[i], -1, ws[i+1:]
	if len(rest) > 0 {
		if n, err := strconv.Atoi(rest[0]); err == nil {
			token, rest = n, rest[1:]
		}
	}
	return mods, name, token, rest, nil
}

func (p *jcaParser) class() (*jcaClass, error) {
	ws, err := p.words("{")
	if err != nil {
		return nil, err
	}
	mods, name, token, rest, err := header(ws)
	if err != nil {
		return nil, p.errf(".class: %v", err)
	}
	c := &jcaClass{mods: mods, name: name, token: token}
	switch {
	case len(rest) == 2 && rest[0] == "extends":
		c.extends = rest[1]
	case len(rest) != 0:
		return nil, p.errf(".class %s: unexpected %q", name, rest)
	}
	for {
		d := strings.ToLower(p.next())
		switch d {
		case "}":
			return c, nil
		case ".fields":
			if err := p.fields(c); err != nil {
				return nil, err
			}
		case ".publicmethodtable", ".packagemethodtable":
			if err := p.skipBlock(); err != nil {
				return nil, err
			}
		case ".method":
			m, err := p.method()
			if err != nil {
				return nil, err
			}
			c.methods = append(c.methods, m)
		default:
			p.pos--
			return nil, p.errf("unknown directive %q in class %s", d, name)
		}
	}
}

func (p *jcaParser) fields(c *jcaClass) error {
	if err := p.expect("{"); err != nil {
		return err
	}
	for p.peek() != "}" {
		var ws []string
		for p.peek() != ";" && p.peek() != "=" {
			if p.pos >= len(p.toks) || strings.ContainsAny(p.peek(), "{},") {
				return p.errf("bad field declaration")
			}
			ws = append(ws, p.next())
		}
		mods, typ, _, rest, err := header(ws)
		if err != nil || len(rest) == 0 {
			return p.errf("a field is [modifiers] type name [token]")
		}
		fd := &jcaField{mods: mods, typ: typ, name: rest[0], token: -1}
		if len(rest) == 2 {
			if fd.token, err = strconv.Atoi(rest[1]); err != nil {
				return p.errf("field %s: bad token %q", fd.name, rest[1])
			}
		} else if len(rest) > 2 {
			return p.errf("field %s: unexpected %q", fd.name, rest[2:])
		}
		if p.next() == "=" {
			fd.hasValue = true
			braces := p.peek() == "{"
			if braces {
				p.pos++
			}
			for {
				v, err := strconv.ParseInt(p.next(), 0, 64)
				if err != nil {
					p.pos--
					return p.errf("field %s: bad value %q", fd.name, p.peek())
				}
				fd.init = append(fd.init, v)
				if p.peek() != "," {
					break
				}
				p.pos++
			}
			if braces {
				if err := p.expect("}"); err != nil {
					return err
				}
			}
			if err := p.expect(";"); err != nil {
				return err
			}
		}
		c.fields = append(c.fields, fd)
	}
	p.pos++
	return nil
}

func (p *jcaParser) method() (*jcaMethod, error) {
	ws, err := p.words("{")
	if err != nil {
		return nil, err
	}
	mods, sig, token, rest, err := header(ws)
	if err != nil || len(rest) != 0 {
		return nil, p.errf(".method: want [modifiers] name(descriptor)type [token]")
	}
	open := strings.IndexByte(sig, '(')
	if open <= 0 || !strings.Contains(sig, ")") {
		return nil, p.errf(".method %s: no descriptor", sig)
	}
	m := &jcaMethod{mods: mods, name: sig[:open], desc: sig[open:], token: token, stack: -1, locals: -1}
	for p.peek() != "}" {
		if p.pos >= len(p.toks) {
			return nil, p.errf("method %s is not closed", m.name)
		}
		w := p.next()
		line := p.toks[p.pos-1].line
		switch {
		case strings.EqualFold(w, ".stack") || strings.EqualFold(w, ".locals"):
			args, err := p.words(";")
			if err != nil || len(args) != 1 {
				return nil, p.errf("%s takes one number", w)
			}
			n, err := strconv.Atoi(args[0])
			if err != nil {
				return nil, p.errf("%s %q", w, args[0])
			}
			if strings.EqualFold(w, ".stack") {
				m.stack = n
			} else {
				m.locals = n
			}
		case strings.EqualFold(w, ".exceptiontable"):
			p.pos--
			if err := p.skipBlock(); err != nil {
				return nil, err
			}
		case strings.HasSuffix(w, ":"):
			m.code = append(m.code, jcaInsn{label: strings.TrimSuffix(w, ":"), line: line})
		default:
			args, err := p.words(";")
			if err != nil {
				return nil, err
			}
			m.code = append(m.code, jcaInsn{op: w, args: args, line: line})
		}
	}
	p.pos++
	if m.stack < 0 || m.locals < 0 {
		return nil, p.errf("method %s lacks .stack or .locals", m.name)
	}
	return m, nil
}

// skipBlock passes a directive's words and its { ... } block (a method
// table, an exception table), which the tests do not read.
func (p *jcaParser) skipBlock() error {
	for p.peek() != "{" {
		if p.pos >= len(p.toks) || p.peek() == "}" {
			return p.errf("want a block")
		}
		p.pos++
	}
	for depth := 0; ; {
		switch p.next() {
		case "{":
			depth++
		case "}":
			if depth--; depth == 0 {
				return nil
			}
		case "":
			if p.pos > len(p.toks) {
				return p.errf("block not closed")
			}
		}
	}
}

// jcaAID reads an AID written 0xA0:0x00:...
func jcaAID(s string) ([]byte, error) {
	var aid []byte
	for _, b := range strings.Split(s, ":") {
		v, err := strconv.ParseUint(b, 0, 8)
		if err != nil {
			return nil, fmt.Errorf("bad AID %q", s)
		}
		aid = append(aid, byte(v))
	}
	if len(aid) < 5 || len(aid) > 16 {
		return nil, fmt.Errorf("AID %q has %d bytes (5 to 16)", s, len(aid))
	}
	return aid, nil
}

// jcaIdent reports whether s is a Java identifier (the names the loader
// takes as its own classes and members).
func jcaIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r == '$' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}
