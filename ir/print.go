package ir

import (
	"fmt"
	"io"
	"strings"
)

// The printer writes a module as stable, readable text: values are numbered
// %0, %1, ... in program order at print time, so two dumps of equal IR are
// byte-identical whatever the IDs inside.

// String returns m as text.
func (m *Module) String() string {
	var b strings.Builder
	m.Print(&b)
	return b.String()
}

// Print writes m as text to w.
func (m *Module) Print(w io.Writer) {
	p := &printer{w: w, m: m}
	if m.W > 0 {
		p.printf("module %s w=%d\n", m.Name, m.W)
	} else {
		p.printf("module %s\n", m.Name)
	}
	for _, g := range m.Globals {
		p.printf("\nglobal %s: [%d]%s = %s\n", g.Name, g.Len, g.Elem, wrapWords(g.Data))
	}
	for _, f := range m.Funcs {
		p.printf("\n")
		p.function(f)
	}
}

// String returns f as text.
func (f *Function) String() string {
	var b strings.Builder
	p := &printer{w: &b}
	p.function(f)
	return b.String()
}

type printer struct {
	w     io.Writer
	m     *Module
	names map[*Value]int
	next  int
}

func (p *printer) printf(format string, args ...any) { fmt.Fprintf(p.w, format, args...) }

func (p *printer) function(f *Function) {
	p.names = map[*Value]int{}
	p.next = 0
	var params []string
	for _, prm := range f.Params {
		if prm.Arr != nil {
			params = append(params, prm.Name+": "+arrayType(prm.Arr))
		} else {
			params = append(params, p.def(prm.Val)+" "+prm.Name)
		}
	}
	kw := "func"
	if f.Export {
		kw = "export func"
	}
	p.printf("%s %s(%s)", kw, f.Name, strings.Join(params, ", "))
	if len(f.Results) > 0 {
		rs := make([]string, len(f.Results))
		for i, t := range f.Results {
			rs[i] = t.String()
		}
		p.printf(" -> (%s)", strings.Join(rs, ", "))
	}
	p.printf(" {\n")
	for _, a := range f.Locals {
		p.printf("  local %s: %s\n", a.Name, arrayType(a))
	}
	p.block(f.Body, 1)
	p.printf("}\n")
}

func arrayType(a *Array) string {
	s := ""
	if a.Mut && a.Kind == ArrParam {
		s = "mut "
	}
	if a.IsSlice() {
		s += "[]" + a.Elem.String()
	} else {
		s += fmt.Sprintf("[%d]%s", a.Len, a.Elem)
	}
	if a.Per > 1 {
		s += fmt.Sprintf(" (%d limbs per element)", a.Per)
	}
	return s
}

// def names a value at its definition: %N:type.
func (p *printer) def(v *Value) string {
	p.names[v] = p.next
	p.next++
	return fmt.Sprintf("%%%d:%s", p.names[v], v.Type)
}

// use names a value at a use; an undefined value shows its internal ID.
func (p *printer) use(v *Value) string {
	if v == nil {
		return "<nil>"
	}
	if n, ok := p.names[v]; ok {
		return fmt.Sprintf("%%%d", n)
	}
	return fmt.Sprintf("%%?%d", v.ID)
}

func (p *printer) uses(vs []*Value) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = p.use(v)
	}
	return strings.Join(s, ", ")
}

// group prints a limb group: a single value plainly, several in braces.
func (p *printer) group(vs []*Value) string {
	if len(vs) == 1 {
		return p.use(vs[0])
	}
	return "{" + p.uses(vs) + "}"
}

func (p *printer) block(b *Block, depth int) {
	ind := strings.Repeat("  ", depth)
	for _, in := range b.Instrs {
		p.printf("%s", ind)
		p.instr(in, depth)
		p.printf("\n")
	}
}

func (p *printer) instr(in *Instr, depth int) {
	ind := strings.Repeat("  ", depth)
	switch in.Op {
	case OpIf:
		p.results(in)
		p.printf("if %s {\n", p.use(in.Args[0]))
		p.block(in.Blocks[0], depth+1)
		p.printf("%s} else {\n", ind)
		p.block(in.Blocks[1], depth+1)
		p.printf("%s}", ind)
		return
	case OpFor:
		n := len(in.Blocks[0].Params) - len(in.Results)
		lo, hi := in.Args[:n], in.Args[n:2*n]
		inits := in.Args[2*n:]
		los, his := p.group(lo), p.group(hi)
		p.results(in)
		idx := make([]string, n)
		for i, v := range in.Blocks[0].Params[:n] {
			idx[i] = p.def(v)
		}
		idxs := strings.Join(idx, ", ")
		if n > 1 {
			idxs = "{" + idxs + "}"
		}
		p.printf("for %s = %s to %s", idxs, los, his)
		if len(inits) > 0 {
			its := make([]string, len(inits))
			for i, v := range in.Blocks[0].Params[n:] {
				its[i] = p.def(v) + " = " + p.use(inits[i])
			}
			p.printf(" iter(%s)", strings.Join(its, ", "))
		}
		p.printf(" {\n")
		p.block(in.Blocks[0], depth+1)
		p.printf("%s}", ind)
		return
	}
	p.results(in)
	p.printf("%s", p.body(in))
}

func (p *printer) results(in *Instr) {
	if len(in.Results) > 0 {
		p.printf("%s = ", p.defs(in.Results))
	}
}

func (p *printer) defs(vs []*Value) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = p.def(v)
	}
	return strings.Join(s, ", ")
}

// body renders everything right of `=`.
func (p *printer) body(in *Instr) string {
	name := in.Op.String()
	switch in.Op {
	case OpConst:
		return "const " + word(in.Aux)
	case OpFshl, OpFshr:
		return fmt.Sprintf("%s %s, %d", name, p.uses(in.Args), in.Aux)
	case OpLoad:
		return fmt.Sprintf("load %s[%s]", in.Arr.Name, p.uses(in.Args))
	case OpStore:
		n := len(in.Args) - 1
		return fmt.Sprintf("store %s[%s], %s", in.Arr.Name, p.uses(in.Args[:n]), p.use(in.Args[n]))
	case OpLen:
		return "len " + in.Arr.Name
	case OpLoadLE, OpLoadBE:
		return fmt.Sprintf("%s%d %s[%s]", name, in.Aux, in.Arr.Name, p.uses(in.Args))
	case OpStoreLE, OpStoreBE:
		n := len(in.Args) - 1
		return fmt.Sprintf("%s%d %s[%s], %s", name, in.Aux, in.Arr.Name, p.uses(in.Args[:n]), p.use(in.Args[n]))
	case OpCheck:
		c := in.Check
		return fmt.Sprintf("check %s %s %q at %s", p.use(in.Args[0]), c.Kind, c.Msg, c.Pos)
	case OpCall:
		return "call " + in.Callee.Name + "(" + p.callArgs(in) + ")"
	}
	if len(in.Args) == 0 {
		return name
	}
	return name + " " + p.uses(in.Args)
}

// callArgs shows a call's arguments in the callee's parameter order: a
// scalar (or limb) as its value, an array as arr[offset, length], with
// limb groups in braces after legalization.
func (p *printer) callArgs(in *Instr) string {
	ns := 0
	for _, prm := range in.Callee.Params {
		if prm.Arr == nil {
			ns++
		}
	}
	k := 1
	if len(in.Arrs) > 0 && len(in.Args) > ns {
		k = (len(in.Args) - ns) / (2 * len(in.Arrs))
	}
	var out []string
	s, a := 0, 0
	for _, prm := range in.Callee.Params {
		if prm.Arr != nil {
			at := ns + 2*k*a
			if a < len(in.Arrs) && at+2*k <= len(in.Args) {
				out = append(out, fmt.Sprintf("%s[%s, %s]", in.Arrs[a].Name, p.group(in.Args[at:at+k]), p.group(in.Args[at+k:at+2*k])))
			}
			a++
		} else {
			if s < len(in.Args) {
				out = append(out, p.use(in.Args[s]))
			}
			s++
		}
	}
	return strings.Join(out, ", ")
}

func word(c uint64) string {
	if c < 1024 {
		return fmt.Sprint(c)
	}
	return fmt.Sprintf("%#x", c)
}

func wrapWords(data []uint64) string {
	s := make([]string, len(data))
	for i, d := range data {
		s[i] = word(d)
	}
	var b strings.Builder
	b.WriteString("[")
	line := 0
	for i, w := range s {
		if i > 0 {
			b.WriteString(",")
			if line+len(w) > 72 {
				b.WriteString("\n    ")
				line = 0
			} else {
				b.WriteString(" ")
			}
		}
		b.WriteString(w)
		line += len(w) + 2
	}
	b.WriteString("]")
	return b.String()
}
