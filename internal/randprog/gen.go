package randprog

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// effSet is the set of effects the generator knows a piece of code may have.
type effSet uint8

const (
	effTrap effSet = 1 << iota
	effUnsafe
)

// names lists the effects of s in the order the language prints them.
func (s effSet) names() []string {
	var out []string
	if s&effTrap != 0 {
		out = append(out, "trap")
	}
	if s&effUnsafe != 0 {
		out = append(out, "unsafe")
	}
	return out
}

// param is a function parameter.
type param struct {
	name string
	t    *ty
	mut  bool
}

// reqKind is the shape of a generated `requires` condition.
type reqKind uint8

const (
	reqMin    reqKind = iota // len(a) >= k
	reqLt                    // len(a) < k
	reqEq                    // len(a) == len(b)
	reqMod                   // len(a) % k == 0
	reqWordLt                // a < k, a a word parameter
)

// req is one `requires` condition over the slice parameters a and b.
type req struct {
	kind reqKind
	a, b int
	k    int
}

// fnSig is a generated function: its signature, and once its body exists,
// what it may do.
type fnSig struct {
	name    string
	export  bool
	params  []param
	results []*ty
	reqs    []req
	eff     effSet // effects the body may have (a superset of the checker's)
	cost    int    // estimated statement executions per call
	text    string
}

// hasMut reports whether f takes a mut parameter.
func (f *fnSig) hasMut() bool {
	for _, p := range f.params {
		if p.mut {
			return true
		}
	}
	return false
}

// gen is the state of one program's generation.
type gen struct {
	r      *rand.Rand
	cfg    Config
	consts []*vr
	decls  []string // constant declarations, in order
	funcs  []*fnSig // helpers and exports, in dependency order
	extern []*fnSig // functions of imported modules
	fn     *fnCtx   // the function being generated
}

// importCryptoHW makes the program import the standard library's crypto_hw
// module: its functions become callees (inlined across modules by the IR)
// and its constant POLY a qualified name.
func (g *gen) importCryptoHW() {
	u64 := tU64
	s64 := sliceOf(64)
	g.extern = []*fnSig{
		{name: "crypto_hw.clmul128", params: []param{{"out", s64, true}, {"a", u64, false}, {"b", u64, false}},
			reqs: []req{{kind: reqMin, a: 0, k: 2}}, cost: 3},
		{name: "crypto_hw.gf128_mul_acc", params: []param{{"acc", s64, true}, {"x0", u64, false}, {"x1", u64, false}, {"h0", u64, false}, {"h1", u64, false}},
			reqs: []req{{kind: reqMin, a: 0, k: 6}}, cost: 8},
		{name: "crypto_hw.gf128_mul", params: []param{{"out", s64, true}, {"x", s64, false}, {"h", s64, false}},
			reqs: []req{{kind: reqMin, a: 0, k: 2}, {kind: reqMin, a: 1, k: 2}, {kind: reqMin, a: 2, k: 2}}, cost: 40},
	}
	g.consts = append(g.consts, &vr{name: "crypto_hw.POLY", t: u64, kind: vConst, konst: true, val: 0xc200_0000_0000_0000, hasVal: true})
}

// File is one source file of a generated program.
type File struct {
	Name string // rnd.lw, rndlib0.lw, ...
	Src  string
}

// fileMark starts each imported module's text in Generate's bundle.
const fileMark = "// file "

// Generate returns the source text of a random, well-typed, terminating
// Lowent program (module rnd) with one or more exported functions. The same
// seed and configuration always give the same text. When the program has
// generated modules of its own (Config.Modules) the text is a bundle: the
// root file, then each module's file after a line `// file NAME.lw`
// (SplitFiles takes it apart).
func Generate(seed uint64, cfg Config) string {
	files := GenerateFiles(seed, cfg)
	var b strings.Builder
	for i, f := range files {
		if i > 0 {
			fmt.Fprintf(&b, "\n%s%s\n", fileMark, f.Name)
		}
		b.WriteString(f.Src)
	}
	return b.String()
}

// SplitFiles takes apart a text Generate returned: the root file (named
// root), then the imported modules' files.
func SplitFiles(root, text string) []File {
	files := []File{{Name: root}}
	for _, line := range strings.SplitAfter(text, "\n") {
		if name, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), fileMark); ok && strings.HasSuffix(name, ".lw") && !strings.ContainsAny(name, "/\\ ") {
			files[len(files)-1].Src = strings.TrimSuffix(files[len(files)-1].Src, "\n")
			files = append(files, File{Name: name})
			continue
		}
		files[len(files)-1].Src += line
	}
	return files
}

// GenerateFiles is Generate as separate files, the root first.
func GenerateFiles(seed uint64, cfg Config) []File {
	g := &gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), cfg: cfg.withDefaults()}
	var libs []File
	if cfg.Modules > 0 && g.chance(0.3) {
		for i, n := 0, 1+g.r.IntN(cfg.Modules); i < n; i++ {
			libs = append(libs, g.genLibrary(seed, fmt.Sprintf("rndlib%d", i), libs))
		}
	}
	imports := g.chance(0.2)
	if imports {
		g.importCryptoHW()
	}
	g.genConsts()
	nh := g.r.IntN(g.cfg.MaxHelpers + 1)
	for i := 0; i < nh; i++ {
		g.genFunc(fmt.Sprintf("h%d", i), false)
	}
	ne := 1 + g.r.IntN(g.cfg.MaxExports)
	for i := 0; i < ne; i++ {
		g.genFunc(fmt.Sprintf("e%d", i), true)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// Generated by randprog (seed %d).\nmodule rnd\n\n", seed)
	if imports {
		b.WriteString("import crypto_hw\n")
	}
	for _, l := range libs {
		fmt.Fprintf(&b, "import %s\n", strings.TrimSuffix(l.Name, ".lw"))
	}
	if imports || len(libs) > 0 {
		b.WriteByte('\n')
	}
	g.body(&b)
	return append([]File{{Name: srcName, Src: b.String()}}, libs...)
}

// body writes the module's constants and functions.
func (g *gen) body(b *strings.Builder) {
	for _, d := range g.decls {
		b.WriteString(d)
		b.WriteByte('\n')
	}
	// Declaration order does not matter in Lowent: shuffle the functions so
	// that callees sometimes come after their callers.
	order := g.r.Perm(len(g.funcs))
	for _, i := range order {
		b.WriteByte('\n')
		b.WriteString(g.funcs[i].text)
	}
}

// genLibrary generates module name: constants and helpers that the
// modules generated after it (the root among them) see qualified by its
// name, as g.extern functions and g.consts constants. It imports every
// module generated before it (prev), whose functions and constants it may
// use in turn.
func (g *gen) genLibrary(seed uint64, name string, prev []File) File {
	outer := g.consts
	g.consts = append([]*vr(nil), outer...)
	g.genConsts()
	own := g.consts[len(outer):]
	nh := 1 + g.r.IntN(max(1, g.cfg.MaxHelpers/2))
	for i := 0; i < nh; i++ {
		g.genFunc(fmt.Sprintf("h%d", i), false)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// Generated by randprog (seed %d), imported by module rnd.\nmodule %s\n\n", seed, name)
	for _, l := range prev {
		fmt.Fprintf(&b, "import %s\n", strings.TrimSuffix(l.Name, ".lw"))
	}
	if len(prev) > 0 {
		b.WriteByte('\n')
	}
	g.body(&b)
	g.consts = outer
	for _, c := range own {
		q := *c
		q.name = name + "." + c.name
		g.consts = append(g.consts, &q)
	}
	for _, f := range g.funcs {
		q := *f
		q.name = name + "." + f.name
		g.extern = append(g.extern, &q)
	}
	g.decls, g.funcs = nil, nil
	return File{Name: name + ".lw", Src: b.String()}
}

// chance returns true with probability p.
func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// pick returns a random element of xs.
func pick[T any](g *gen, xs []T) T { return xs[g.r.IntN(len(xs))] }

// randWidth returns a random word width.
func (g *gen) randWidth() int { return widths[g.r.IntN(len(widths))] }

// edgeValue returns a value of a word of the given width, biased to the
// edges where wrapping, carries and shifts go wrong.
func (g *gen) edgeValue(bits int) uint64 {
	m := mask(bits)
	switch g.r.IntN(12) {
	case 0:
		return 0
	case 1:
		return 1
	case 2:
		return m
	case 3:
		return m - 1
	case 4:
		return 1 << uint(bits-1)
	case 5:
		return 1<<uint(bits-1) - 1
	case 6:
		return uint64(g.r.IntN(17))
	case 7:
		return uint64(bits - 1 + g.r.IntN(3))
	case 8:
		return 0x5555555555555555 & m
	default:
		return g.r.Uint64() & m
	}
}

// fmtLit writes a literal in one of the language's spellings.
func (g *gen) fmtLit(v uint64) string {
	switch n := g.r.IntN(20); {
	case n < 11 || v < 10:
		return fmt.Sprint(v)
	case n < 16:
		return fmt.Sprintf("0x%x", v)
	case n < 17 && v < 1<<12:
		return fmt.Sprintf("0b%b", v)
	case n < 19:
		// Group hex digits by four from the right, as in 0x6a09_e667.
		h := fmt.Sprintf("%x", v)
		var parts []string
		for len(h) > 4 {
			parts = append([]string{h[len(h)-4:]}, parts...)
			h = h[:len(h)-4]
		}
		parts = append([]string{h}, parts...)
		return "0x" + strings.Join(parts, "_")
	default:
		return fmt.Sprintf("0X%X", v)
	}
}

// ---------------------------------------------------------------- constants

// genConsts declares module constants: words of every width (some defined
// from others), a bool, flat and nested array tables, and a 256-entry byte
// table that u8 indices provably fit.
func (g *gen) genConsts() {
	n := 1 + g.r.IntN(g.cfg.MaxConsts)
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("K%d", i)
		switch g.r.IntN(10) {
		case 0, 1, 2, 3:
			bits := g.randWidth()
			v := g.edgeValue(bits)
			c := &vr{name: name, t: word(bits), kind: vConst, konst: true, val: v, hasVal: true}
			g.decls = append(g.decls, fmt.Sprintf("const %s: %s = %s", name, c.t, g.fmtLit(v)))
			g.consts = append(g.consts, c)
		case 4:
			// A constant defined from another one, with a cast and wrapping
			// arithmetic: its value is left to the checker.
			if w := g.constWord(); w != nil {
				bits := g.randWidth()
				text := fmt.Sprintf("(%s as u%d) * %s + %s", w.name, bits, g.fmtLit(uint64(1+g.r.IntN(200))), g.fmtLit(g.edgeValue(8)))
				if g.chance(0.5) {
					text = fmt.Sprintf("~(%s as u%d) >>> %d", w.name, bits, g.r.IntN(bits*2))
				}
				c := &vr{name: name, t: word(bits), kind: vConst, konst: true}
				g.decls = append(g.decls, fmt.Sprintf("const %s: u%d = %s", name, bits, text))
				g.consts = append(g.consts, c)
			}
		case 5:
			c := &vr{name: name, t: tBool, kind: vConst, konst: true}
			g.decls = append(g.decls, fmt.Sprintf("const %s: bool = %v", name, g.chance(0.5)))
			g.consts = append(g.consts, c)
		case 6, 7:
			t := arrOf(pick(g, []int{2, 3, 4, 5, 8, 16}), word(g.randWidth()))
			g.declConstArray(name, t)
		case 8:
			t := arrOf(2+g.r.IntN(3), arrOf(2+g.r.IntN(4), word(g.randWidth())))
			g.declConstArray(name, t)
		case 9:
			if g.chance(0.5) {
				g.declConstArray(name, arrOf(256, tU8))
			} else if a := g.constArray(); a != nil {
				// A word taken from a table by a constant index.
				c := &vr{name: name, t: word(a.t.bits), kind: vConst, konst: true}
				idx := ""
				for t := a.t; t.k == kArray; t = t.elem {
					idx += fmt.Sprintf("[%d]", g.r.IntN(t.n))
				}
				g.decls = append(g.decls, fmt.Sprintf("const %s: %s = %s%s", name, c.t, a.name, idx))
				g.consts = append(g.consts, c)
			}
		}
	}
}

// declConstArray declares an array constant with random elements.
func (g *gen) declConstArray(name string, t *ty) {
	c := &vr{name: name, t: t, kind: vConst, konst: true}
	g.decls = append(g.decls, fmt.Sprintf("const %s: %s = %s", name, t, g.constArrayLit(t, "")))
	g.consts = append(g.consts, c)
}

// constArrayLit is a literal of array type t made of literals; long arrays
// are broken into lines.
func (g *gen) constArrayLit(t *ty, indent string) string {
	parts := make([]string, t.n)
	for i := range parts {
		if t.elem.k == kArray {
			parts[i] = g.constArrayLit(t.elem, indent+"    ")
		} else {
			parts[i] = g.fmtLit(g.edgeValue(t.elem.bits))
		}
	}
	if t.n <= 8 {
		return "[" + strings.Join(parts, ", ") + "]"
	}
	var b strings.Builder
	b.WriteString("[\n")
	for i := 0; i < len(parts); i += 16 {
		b.WriteString(indent + "    " + strings.Join(parts[i:min(i+16, len(parts))], ", ") + ",\n")
	}
	b.WriteString(indent + "]")
	return b.String()
}

// constWord returns a random word constant, or nil.
func (g *gen) constWord() *vr {
	var ws []*vr
	for _, c := range g.consts {
		if c.t.k == kWord {
			ws = append(ws, c)
		}
	}
	if len(ws) == 0 {
		return nil
	}
	return pick(g, ws)
}

// constArray returns a random array constant, or nil.
func (g *gen) constArray() *vr {
	var as []*vr
	for _, c := range g.consts {
		if c.t.k == kArray {
			as = append(as, c)
		}
	}
	if len(as) == 0 {
		return nil
	}
	return pick(g, as)
}
