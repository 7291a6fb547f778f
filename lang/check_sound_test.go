package lang_test

import (
	"errors"
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/parser"
	"github.com/lowent/lowentc/vm"
)

// TestBoundsSoundOnVM generates programs full of indexing, byte loads,
// divisions, chunk loops and calls with requires, checks them, and runs them
// on the reference VM with many arguments. The VM checks every access
// whether or not the checker proved it, and says "checker bug" when one it
// proved fails: that must never happen.
func TestBoundsSoundOnVM(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	programs, runs, traps, proven, total, rejected := 300, 0, 0, 0, 0, 0
	if testing.Short() {
		programs = 60
	}
	for p := 0; p < programs; p++ {
		g := &soundGen{rng: rng}
		src := g.program()
		f, ds := parser.ParseFile("s.lw", []byte(src))
		if ds != nil {
			t.Fatalf("generator wrote a syntax error:\n%s\n%s", ds.Render(nil), src)
		}
		if ds := lang.Check([]*lang.File{f}); len(ds) > 0 {
			// A statically false requires, a constant index past a
			// fixed array, an out-of-range untyped constant
			// or a constant zero divisor is a fine
			// rejection; anything else is the generator's mistake.
			for _, d := range ds {
				if !regexp.MustCompile(`violates its requires|out of bounds for|division by zero|chunk sources have different lengths|overflows`).MatchString(d.Msg) {
					t.Fatalf("generator wrote a rejected program:\n%s\n%s", render(ds), src)
				}
			}
			rejected++
			continue
		}
		for _, fn := range f.Funcs {
			walk(fn, func(e lang.Expr) {
				if ix, ok := e.(*lang.IndexExpr); ok {
					total++
					if !ix.Checked {
						proven++
					}
				}
			}, func(lang.Stmt) {})
		}
		prog := &lang.Program{Root: f, Files: []*lang.File{f}}
		entry := prog.Export("f")
		for r := 0; r < 25; r++ {
			args := g.args()
			_, _, err := vm.Run(prog, entry, args, vm.Options{})
			var tr *vm.Trap
			switch {
			case err == nil:
				runs++
			case errors.As(err, &tr):
				runs++
				traps++
				if strings.Contains(tr.Msg, "checker bug") {
					t.Fatalf("unsound proof: %v\nargs %+v\nsource:\n%s", err, args, src)
				}
			case errors.As(err, new(*lang.Fault)):
			default:
				t.Fatalf("vm: %v\nsource:\n%s", err, src)
			}
		}
	}
	t.Logf("%d programs (%d rejected statically), %d runs, %d of them trapped; %d of %d indexes proven",
		programs, rejected, runs, traps, proven, total)
	if runs < programs*5 || traps == 0 || traps > runs*3/4 || proven < total/4 {
		t.Errorf("the test exercises too little: %d runs, %d traps, %d/%d proven", runs, traps, proven, total)
	}
}

// soundGen writes one random program: a helper with requires and an
// exported function f(s: []u8, m: mut []u8, a: u8, b: u32, c: u64).
type soundGen struct {
	rng   *rand.Rand
	b     strings.Builder
	words []string // u32 expressions in scope
	views []view   // arrays and slices in scope that may be read
	n     int      // fresh name counter
	reqs  struct {
		sMin, mMin, bMax int
		eq, mod8         bool
	}
	// the arguments of the last call of args, to satisfy requires
}

type view struct {
	name     string
	elem     string // "u8" or "u32"
	writable bool
}

func (g *soundGen) pick(xs ...string) string { return xs[g.rng.Intn(len(xs))] }

func (g *soundGen) fresh(p string) string {
	g.n++
	return fmt.Sprintf("%s%d", p, g.n)
}

// small is a constant with edges around typical lengths.
func (g *soundGen) small() int {
	return []int{0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 31, 32, 63, 64, 255}[g.rng.Intn(15)]
}

// word is a random u32 expression over what is in scope.
func (g *soundGen) word(depth int) string {
	if depth <= 0 || g.rng.Intn(3) == 0 {
		switch g.rng.Intn(4) {
		case 0:
			return fmt.Sprint(g.small())
		default:
			return g.words[g.rng.Intn(len(g.words))]
		}
	}
	x := g.word(depth - 1)
	k := g.small()
	switch g.rng.Intn(12) {
	case 0:
		return fmt.Sprintf("(%s & %d)", x, k)
	case 1:
		return fmt.Sprintf("(%s %% %d)", x, k+1)
	case 2:
		return fmt.Sprintf("(%s >> %d)", x, g.rng.Intn(34))
	case 3:
		return fmt.Sprintf("(%s + %s)", x, g.word(depth-1))
	case 4:
		return fmt.Sprintf("(%s * %d)", x, k)
	case 5:
		return fmt.Sprintf("(%s - %s)", x, g.word(depth-1))
	case 6:
		return fmt.Sprintf("((%s as u8) as u32)", x)
	case 7:
		return fmt.Sprintf("(TAB[%s & 31] as u32)", x)
	case 8:
		return fmt.Sprintf("select((%s as u32) < %d, %s, %d)", x, k, g.word(depth-1), k)
	case 9:
		return fmt.Sprintf("(%s | %d)", x, k)
	case 10:
		return fmt.Sprintf("(%s / %s)", x, g.word(depth-1))
	}
	return fmt.Sprintf("(~%s)", x)
}

// index is an index or offset, mostly one that is often in bounds so that
// runs go on past it.
func (g *soundGen) index() string {
	i := g.word(2)
	switch g.rng.Intn(4) {
	case 0, 1:
		return fmt.Sprintf("(%s & %d)", i, []int{3, 7, 11}[g.rng.Intn(3)])
	case 2:
		return fmt.Sprintf("(%s %% %d)", i, 1+g.rng.Intn(12))
	}
	return i
}

// read is an element read of some array or slice in scope, as a u32.
func (g *soundGen) read() string {
	v := g.views[g.rng.Intn(len(g.views))]
	i := g.index()
	switch g.rng.Intn(4) {
	case 0:
		if v.elem == "u8" {
			return fmt.Sprintf("load_le32(%s, %s)", v.name, i)
		}
	case 1:
		if v.elem == "u8" {
			return fmt.Sprintf("(load_be16(%s, %s) as u32)", v.name, i)
		}
	}
	if v.elem == "u8" {
		return fmt.Sprintf("(%s[%s] as u32)", v.name, i)
	}
	return fmt.Sprintf("%s[%s]", v.name, i)
}

func (g *soundGen) line(depth int, format string, args ...any) {
	g.b.WriteString(strings.Repeat("    ", depth) + fmt.Sprintf(format, args...) + "\n")
}

// stmts writes n random statements at nesting depth d.
func (g *soundGen) stmts(d, n int) {
	words, views := len(g.words), len(g.views)
	for i := 0; i < n; i++ {
		switch g.rng.Intn(9) {
		case 0:
			v := g.fresh("v")
			g.line(d, "let %s: u32 = %s", v, g.word(3))
			g.words = append(g.words, v)
		case 1, 2:
			g.line(d, "acc ^= %s", g.read())
		case 3:
			var ws []view
			for _, v := range g.views {
				if v.writable {
					ws = append(ws, v)
				}
			}
			w := ws[g.rng.Intn(len(ws))]
			if w.elem == "u8" && g.rng.Intn(2) == 0 {
				g.line(d, "store_le16(%s, %s, acc as u16)", w.name, g.index())
			} else {
				g.line(d, "%s[%s] = acc as %s", w.name, g.index(), w.elem)
			}
		case 4:
			if d < 3 {
				i := g.fresh("i")
				lo := g.pick("0", "1", fmt.Sprint(g.small()))
				// Trip counts stay small: the VM has no step limit.
				hi := g.pick(fmt.Sprint(g.small()), "len(s)", "len(m)", "(b & 31)", "((a as u32) & 15)", "len(s) / 4",
					"("+g.word(1)+" & 63)")
				g.line(d, "for %s in %s..%s {", i, lo, hi)
				g.words = append(g.words, i)
				g.stmts(d+1, 1+g.rng.Intn(3))
				g.words = g.words[:len(g.words)-1]
				g.line(d, "}")
			}
		case 5:
			if d < 3 {
				k, v := g.fresh("k"), g.fresh("blk")
				size := []int{1, 4, 8, 16}[g.rng.Intn(4)]
				src := g.pick("s", "m")
				if g.rng.Intn(3) == 0 {
					w := g.fresh("w")
					g.line(d, "for %s, %s, %s in chunks(%s, m, %d) {", k, v, w, g.pick("s", "s", "s", "buf"), size)
					g.views = append(g.views, view{w, "u8", true})
				} else {
					g.line(d, "for %s, %s in chunks(%s, %d) {", k, v, src, size)
				}
				g.words = append(g.words, k)
				g.views = append(g.views, view{v, "u8", false})
				g.stmts(d+1, 1+g.rng.Intn(3))
				g.line(d, "}")
				g.words = g.words[:words]
				g.views = g.views[:views]
			}
		case 6:
			r := g.fresh("r")
			g.line(d, "let %s = rest(%s, %d)", r, g.pick("s", "m"), 1+g.rng.Intn(16))
			g.views = append(g.views, view{r, "u8", false})
		case 7:
			g.line(d, "acc += %s / (%s | %s)", g.word(2), g.word(2), g.pick("0", "1", "1", "1"))
		case 8:
			pair := [][2]string{{"s", "m"}, {"m", "s"}, {"buf", "buf"}, {"s", "s"}, {"rest(s, 8)", "rest(m, 8)"}, {"buf", "m"}}[g.rng.Intn(6)]
			n := g.word(2)
			if g.rng.Intn(3) > 0 {
				n = "(" + n + " & 7)"
			}
			g.line(d, "acc ^= helper(%s, %s, %s)", pair[0], pair[1], n)
		}
	}
	if d > 1 {
		g.words = g.words[:words]
		g.views = g.views[:views]
	}
}

func (g *soundGen) program() string {
	g.line(0, "module s")
	g.line(0, "const TAB: [32]u8 = [%s]", func() string {
		var xs []string
		for i := 0; i < 32; i++ {
			xs = append(xs, fmt.Sprint(g.rng.Intn(40)))
		}
		return strings.Join(xs, ", ")
	}())
	// helper: its requires are discharged or checked at each call.
	g.line(0, "fn helper(x: []u8, y: []u8, n: u32) -> u32 requires len(x) == len(y), n < 8, len(x) >= 4 {")
	g.line(1, "return (x[n & 3] as u32) + (y[3] as u32) + (x[len(x) - 1] as u32)")
	g.line(0, "}")
	var reqs []string
	if g.rng.Intn(2) == 0 {
		g.reqs.sMin = g.small()
		reqs = append(reqs, fmt.Sprintf("len(s) >= %d", g.reqs.sMin))
	}
	if g.rng.Intn(2) == 0 {
		g.reqs.mMin = g.small()
		reqs = append(reqs, fmt.Sprintf("len(m) >= %d", g.reqs.mMin))
	}
	if g.reqs.eq = g.rng.Intn(2) == 0; g.reqs.eq {
		reqs = append(reqs, "len(m) == len(s)")
	}
	if g.reqs.mod8 = g.rng.Intn(3) == 0; g.reqs.mod8 {
		reqs = append(reqs, "len(s) % 8 == 0")
	}
	g.reqs.bMax = -1
	if g.rng.Intn(2) == 0 {
		g.reqs.bMax = g.small()
		reqs = append(reqs, fmt.Sprintf("b <= %d", g.reqs.bMax))
	}
	req := ""
	if len(reqs) > 0 {
		req = " requires " + strings.Join(reqs, ", ")
	}
	g.line(0, "export fn f(s: []u8, m: mut []u8, a: u8, b: u32, c: u64) -> u32%s effects trap {", req)
	g.line(1, "var acc: u32 = 0")
	g.line(1, "var buf: [16]u8")
	g.words = []string{"(a as u32)", "b", "(c as u32)", "acc", "len(s)", "len(m)"}
	g.views = []view{{"s", "u8", false}, {"m", "u8", true}, {"buf", "u8", true}, {"TAB", "u8", false}}
	g.stmts(1, 4+g.rng.Intn(6))
	g.line(1, "return acc")
	g.line(0, "}")
	return g.b.String()
}

// args draws arguments for f, mostly satisfying its requires.
func (g *soundGen) args() []lang.Value {
	bytes := func(n int) lang.Value {
		xs := make([]uint64, n)
		for i := range xs {
			xs[i] = uint64(g.rng.Intn(256))
		}
		return lang.Value{Elems: xs, IsArray: true}
	}
	ns := g.small() + g.rng.Intn(3)
	if g.rng.Intn(4) > 0 {
		ns = 16 + g.rng.Intn(48)
	}
	if g.reqs.sMin > ns {
		ns = g.reqs.sMin
	}
	if g.reqs.mod8 {
		ns = (ns + 7) / 8 * 8
	}
	nm := g.small()
	if g.reqs.eq || g.rng.Intn(2) == 0 {
		nm = ns
	}
	if g.reqs.mMin > nm && !g.reqs.eq {
		nm = g.reqs.mMin
	}
	b := []uint64{0, 1, 3, 7, 8, 16, 100, 1 << 31, 1<<32 - 1}[g.rng.Intn(9)]
	if g.reqs.bMax >= 0 && b > uint64(g.reqs.bMax) {
		b = uint64(g.rng.Intn(g.reqs.bMax + 1))
	}
	return []lang.Value{bytes(ns), bytes(nm), {Word: uint64(g.rng.Intn(256))}, {Word: b}, {Word: g.rng.Uint64()}}
}
