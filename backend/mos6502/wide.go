package mos6502

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lowent/lowentc/ir"
)

// The --opt size generator: the IR legalized at W=64 (words stay whole)
// becomes interpreter ops (wide_interp.go). Every value that is not a
// constant has ceil(bits/8) consecutive bytes in the absolute area, in
// its function's static frame (frame.go's discipline: a frame starts after
// its callees'); constants are one shared pool; array parameters are
// zero-page pointers as in the byte generator, so exports keep their ABI.

// wideW is the legalization width the size generator takes.
const wideW = 64

// wmod generates one module in size mode: the codeGen of the size
// interpreter (module.go), over the module state it shares with the byte
// generator.
type wmod struct {
	*modgen
	interp  wInterp
	consts  map[string]string
	cdata   [][]byte
	lastLbl int
	// err is the first construct the size generator does not handle (an
	// element wider than 8 bytes, a loop with more than one index, ...):
	// once set, nothing more is emitted, and genFunc returns it as a
	// fitError, so that build falls back to the byte generator.
	err error
}

// newWmod is the size interpreter's generator of mg's module.
func newWmod(mg *modgen) *wmod {
	return &wmod{modgen: mg, interp: wInterp{codes: map[string]int{}}, consts: map[string]string{}}
}

// typeBytes is the storage size of a value or element of type t.
func typeBytes(t ir.Type) int { return max(1, t.Bits()/8) }

// elemBytes is the size of one element of arr.
func elemBytes(arr *ir.Array) int { return typeBytes(arr.Elem) * arr.Per }

// log2 returns k with 1<<k == n, n a power of two up to 8; another n is
// a construct the size generator does not handle.
func (g *wgen) log2(n int) int {
	for k := 0; k < 4; k++ {
		if 1<<k == n {
			return k
		}
	}
	g.refuse(fmt.Sprintf("element of %d bytes", n))
	return 0
}

// konst returns the label of a pool constant holding the n bytes of c.
func (w *wmod) konst(c uint64, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(c >> (8 * i))
	}
	k := string(b)
	if l, ok := w.consts[k]; ok {
		return l
	}
	l := fmt.Sprintf("k%d", len(w.cdata))
	w.consts[k] = l
	w.cdata = append(w.cdata, b)
	return l
}

// wgen generates one function in size mode.
type wgen struct {
	w         *wmod
	f         *ir.Function
	a         *asmBuf
	lv        *liveness
	loc       map[*ir.Value]string
	arrs      map[*ir.Array]arrInfo
	slen      map[*ir.Array]int
	res       []string // storage of each result
	lastClmul []*ir.Value
}

// genFunc lays out f's frame and emits its ops.
func (w *wmod) genFunc(f *ir.Function, labels map[string]bool) (*funcABI, error) {
	f.Renumber()
	g := &wgen{w: w, f: f, a: &w.code, loc: map[*ir.Value]string{}, arrs: map[*ir.Array]arrInfo{},
		slen: map[*ir.Array]int{}}
	abi := &funcABI{Name: f.Name}
	fr := &frame{label: fmt.Sprintf("fn%d", len(w.frames))}
	fa := w.frameBase(f)
	fa.zp = max(fa.zp, wZPFirst)
	for _, p := range f.Params {
		if p.Arr == nil {
			continue
		}
		ptr, ok := fa.zpBytes(2)
		ap := arrayParm{ptr: ptr}
		if ok && p.Arr.IsSlice() {
			ap.len, ok = fa.zpBytes(2)
		}
		if !ok {
			return nil, &fitError{msg: fmt.Sprintf("mos6502: %s: zero page exhausted (array parameter %s)", f.Name, p.Arr.Name)}
		}
		g.arrs[p.Arr] = arrInfo{ptr: ptr}
		g.slen[p.Arr] = ap.len
		fr.arrays = append(fr.arrays, ap)
	}
	abs := func(n int) int {
		fa.abs += n
		return fa.abs - n
	}
	for _, p := range f.Params {
		if p.Val == nil {
			abi.Params = append(abi.Params, paramABI{Name: p.Name, Ptr: g.arrs[p.Arr].ptr, Len: g.slen[p.Arr]})
			continue
		}
		n := typeBytes(p.Val.Type)
		at := abs(n)
		g.loc[p.Val] = fmt.Sprintf("vb+%d", at)
		fr.scalars = append(fr.scalars, g.loc[p.Val])
		for j := 0; j < n; j++ {
			abi.Params = append(abi.Params, paramABI{Name: p.Name, Loc: fmt.Sprintf("vb+%d", at+j)})
		}
	}
	for _, t := range f.Results {
		n := typeBytes(t)
		at := abs(n)
		fr.results = append(fr.results, fmt.Sprintf("vb+%d", at))
		for j := 0; j < n; j++ {
			abi.ResultLocs = append(abi.ResultLocs, fmt.Sprintf("vb+%d", at+j))
		}
	}
	g.res = fr.results
	for gl, l := range w.globals {
		g.arrs[gl] = arrInfo{label: l}
	}
	// Locals are part of the frame: the locals of functions that are
	// never active together share memory.
	for _, a := range f.Locals {
		g.arrs[a] = arrInfo{label: fmt.Sprintf("vb+%d", abs(a.Len*elemBytes(a)))}
	}
	g.lv = computeLiveness(f, nil, nil)
	fa.abs += g.allocate(fa.abs)
	fr.zpEnd, fr.absEnd = fa.zp, fa.abs
	abi.ZPTop = fa.zp - 1
	w.nabs = max(w.nabs, fa.abs)
	g.a.comment(f.QualName)
	if f.Export {
		w.exportEntry(g.a, f, fr, abi, labels)
	}
	g.a.label(fr.label)
	g.a.op("jsr wop")
	g.block(f.Body)
	if w.err != nil {
		return nil, w.err
	}
	w.frames[f] = fr
	return abi, nil
}

// allocate places every value with storage at an offset from base: the
// live ranges in order of start, each at the lowest offset free in
// memory for all of its range. It returns the bytes used.
func (g *wgen) allocate(base int) int {
	size := map[*interval]int{}
	var ivs []*interval
	for v, iv := range g.lv.iv {
		if _, ok := g.constOf(v); ok {
			continue
		}
		if _, ok := size[iv]; !ok {
			ivs = append(ivs, iv)
		}
		size[iv] = max(size[iv], typeBytes(v.Type))
	}
	sort.Slice(ivs, func(i, j int) bool {
		if ivs[i].start != ivs[j].start {
			return ivs[i].start < ivs[j].start
		}
		return ivs[i].id < ivs[j].id
	})
	type placed struct {
		iv  *interval
		off int
	}
	var done []placed
	at := map[*interval]int{}
	top := 0
	for _, iv := range ivs {
		n := size[iv]
		off := 0
		for moved := true; moved; {
			moved = false
			for _, p := range done {
				if iv.start <= p.iv.end && p.iv.start <= iv.end && off < p.off+size[p.iv] && p.off < off+n {
					off = p.off + size[p.iv]
					moved = true
				}
			}
		}
		done = append(done, placed{iv, off})
		at[iv] = off
		top = max(top, off+n)
	}
	for v, iv := range g.lv.iv {
		if o, ok := at[iv]; ok {
			g.loc[v] = fmt.Sprintf("vb+%d", base+o)
		}
	}
	return top
}

func (g *wgen) constOf(v *ir.Value) (uint64, bool) {
	if v.Def != nil && v.Def.Op == ir.OpConst {
		return v.Def.Aux, true
	}
	return 0, false
}

// val is the address expression of v's bytes (a pool label for constants).
func (g *wgen) val(v *ir.Value) string {
	if c, ok := g.constOf(v); ok {
		return g.w.konst(c, typeBytes(v.Type))
	}
	s, ok := g.loc[v]
	if !ok {
		panic(fmt.Sprintf("BUG: mos6502: %s: value %d has no storage", g.f.Name, v.ID))
	}
	return s
}

// dest is where an op writes r: its storage, or the scratch buffer wt2
// for a result nothing reads (it has none).
func (g *wgen) dest(r *ir.Value) string {
	if s, ok := g.loc[r]; ok {
		return s
	}
	return "wt2"
}

// wf is one operand field of an op: a byte or a 16-bit word.
type wf struct {
	word bool
	s    string
}

func wb(n int) wf         { return wf{s: fmt.Sprintf("$%02x", n&0xff)} }
func ww(s string) wf      { return wf{word: true, s: s} }
func wzp(addr int) wf     { return wf{word: true, s: fmt.Sprintf("$%04x", addr)} }
func wtarget(l string) wf { return wf{word: true, s: l + "-1"} }

// op emits interpreter op name with its fields.
func (g *wgen) op(name string, fields ...wf) {
	all := append([]wf{wb(g.w.interp.code(name))}, fields...)
	for i := 0; i < len(all); {
		j := i
		var parts []string
		line := 0
		for j < len(all) && all[j].word == all[i].word && line+len(all[j].s)+1 <= 24 {
			parts = append(parts, all[j].s)
			line += len(all[j].s) + 1
			j++
		}
		if all[i].word {
			g.a.op(".word %s", strings.Join(parts, ","))
		} else {
			g.a.op(".byte %s", strings.Join(parts, ","))
		}
		i = j
	}
}

// mov copies n bytes from address expression a to d.
func (g *wgen) mov(n int, d, a string) {
	if d != a {
		g.op("mov", wb(n), ww(d), ww(a))
	}
}

// label places a jump target; nothing is known there.
func (g *wgen) label(l string) {
	g.a.label(l)
	g.lastClmul = nil
}

func (g *wgen) newLabel() string { return g.a.newLabel() }

func (g *wgen) block(b *ir.Block) {
	for _, in := range b.Instrs {
		g.instr(in)
	}
}

// unsupported records that the size generator does not handle in.
func (g *wgen) unsupported(in *ir.Instr) { g.refuse(fmt.Sprintf("%s: %s", g.f.Name, in.Op)) }

// refuse records the first construct the size generator does not handle.
func (g *wgen) refuse(what string) {
	if g.w.err == nil {
		g.w.err = &fitError{msg: "mos6502: size generator: " + what}
	}
}

// assemble puts the size-mode program together: tables, constant globals
// and the constant pool, code, helpers and the interpreter, then the
// variable areas.
func (w *wmod) assemble() string {
	var out asmBuf
	w.prologue(&out, " (--opt size)")
	for _, gl := range w.m.Globals {
		out.comment(gl.Name)
		out.label(w.globals[gl])
		per := elemBytes(gl) / gl.Per // bytes of each stored limb
		var data []byte
		for _, x := range gl.Data {
			for j := 0; j < per; j++ {
				data = append(data, byte(x>>(8*j)))
			}
		}
		out.bytes(data)
	}
	for i, c := range w.cdata {
		out.label(fmt.Sprintf("k%d", i))
		out.bytes(c)
	}
	out.lines = append(out.lines, w.code.lines...)
	wideHelpers(&out, w.modgen)
	w.interp.emit(&out)
	w.variables(&out, wBuffers)
	return out.String()
}
