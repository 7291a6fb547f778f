package lower_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lowent/lowentc/driver"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
	"github.com/lowent/lowentc/sem"
	"github.com/lowent/lowentc/vm"
)

// TestOperatorsAgreeWithSem checks, on random expressions over every
// operator and word width, that the checker's constant evaluation, the VM,
// and the IR (interpreted unlegalized and legalized at every limb width,
// and folded where its operands are constants) all compute what sem says
// the operators mean. Each expression is compiled three ways: over
// parameters (the VM's and the IR's run-time paths), over typed literals
// (a function the IR folds to a constant) and as a module constant (the
// checker's evaluation), plus a compound assignment `x OP= E` to a local
// and to an array element.
func TestOperatorsAgreeWithSem(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 20))
	for range 2 { // two modules of 150 expressions (a module has a token limit)
		checkAgreement(t, rng, 150)
	}
}

func checkAgreement(t *testing.T, rng *rand.Rand, n int) {
	var src strings.Builder
	src.WriteString("module agree\n\n")
	type want struct {
		env  []uint64
		val  uint64
		bits int
	}
	wants := make([]want, n)
	for i := range n {
		env := randomEnv(rng)
		g := &exprGen{rng: rng, env: env}
		bits := wordWidths[rng.IntN(4)]
		e := g.expr(bits, 4)
		// x OP= E2 on a local and on an array element.
		op := compoundOps[rng.IntN(len(compoundOps))]
		amtBits := bits
		if op.IsShift() {
			amtBits = wordWidths[rng.IntN(4)]
		}
		e2 := g.expr(amtBits, 2)
		if op.IsDivision() {
			e2 = nonZero(e2)
		}
		x, _ := sem.EvalBinary(op, bits, e.val, e2.val)
		ty := fmt.Sprintf("u%d", bits)
		fmt.Fprintf(&src, "export fn run%d(a8: u8, a16: u16, a32: u32, a64: u64, p: bool, q: bool) -> %s effects none {\n    return %s\n}\n", i, ty, e.src(env, false))
		fmt.Fprintf(&src, "export fn lit%d() -> %s effects none {\n    return %s\n}\n", i, ty, e.src(env, true))
		fmt.Fprintf(&src, "const K%d: %s = %s\n", i, ty, e.src(env, true))
		params := "a8: u8, a16: u16, a32: u32, a64: u64, p: bool, q: bool"
		fmt.Fprintf(&src, "export fn asg%d(%s) -> %s effects none {\n    var x: %s = %s\n    x %s= %s\n    return x\n}\n",
			i, params, ty, ty, e.src(env, false), op, e2.src(env, false))
		fmt.Fprintf(&src, "export fn elm%d(%s) -> %s effects none {\n    var v: [2]%s\n    v[1] = %s\n    v[1] %s= %s\n    return v[1] ^ K%d\n}\n",
			i, params, ty, ty, e.src(env, false), op, e2.src(env, false), i)
		wants[i] = want{env, e.val, bits}
		wants[i].env = append(wants[i].env, x) // the compound result
	}
	p, ds := driver.LoadSource("agree.lw", []byte(src.String()))
	if len(ds) > 0 {
		t.Fatalf("load:\n%s", ds.Render(lang.Sources{"agree.lw": []byte(src.String())}))
	}
	consts := map[string]*lang.ConstDecl{}
	for _, f := range p.Files {
		for _, c := range f.Consts {
			consts[c.Name] = c
		}
	}
	var mods []*ir.Module
	var modNames []string
	for _, w := range []int{0, 64, 32, 16, 8} {
		m, err := lower.Compile(p, ir.Options{W: w})
		if err != nil {
			t.Fatalf("compile W=%d: %v", w, err)
		}
		mods = append(mods, m)
		modNames = append(modNames, fmt.Sprintf("IR W=%d", w))
	}
	for i, wt := range wants {
		args := []lang.Value{}
		for _, v := range wt.env[:6] {
			args = append(args, lang.Value{Word: v})
		}
		compound := wt.env[6]
		expect := map[string]uint64{
			fmt.Sprintf("run%d", i): wt.val,
			fmt.Sprintf("lit%d", i): wt.val,
			fmt.Sprintf("asg%d", i): compound,
			fmt.Sprintf("elm%d", i): compound ^ wt.val,
		}
		if c := consts[fmt.Sprintf("K%d", i)]; c == nil || c.Val == nil || c.Val.Word != wt.val {
			t.Errorf("checker: K%d = %+v, sem says %#x", i, c.Val, wt.val)
		}
		for name, w := range expect {
			fn := p.Export(name)
			a := args
			if strings.HasPrefix(name, "lit") {
				a = nil
			}
			res, _, err := vm.Run(p, fn, a, vm.Options{})
			if err != nil || res[0].Word != w {
				t.Errorf("VM: %s = %v (%v), sem says %#x", name, res, err, w)
			}
			for k, m := range mods {
				res, err := ir.Run(m, name, a)
				if err != nil || res[0].Word != w {
					t.Errorf("%s: %s = %v (%v), sem says %#x", modNames[k], name, res, err, w)
				}
			}
		}
		if t.Failed() {
			t.Fatalf("first disagreement in function %d of:\n%s", i, src.String())
		}
	}
}

var wordWidths = []int{8, 16, 32, 64}

var compoundOps = []sem.BinOp{sem.OpAdd, sem.OpSub, sem.OpMul, sem.OpDiv, sem.OpRem, sem.OpAnd,
	sem.OpOr, sem.OpXor, sem.OpShl, sem.OpShr, sem.OpRotl, sem.OpRotr}

// randomEnv gives the parameters a8, a16, a32, a64, p, q values, often
// edge values.
func randomEnv(rng *rand.Rand) []uint64 {
	env := make([]uint64, 6)
	for i, bits := range wordWidths {
		env[i] = edgeOrRandom(rng, bits)
	}
	env[4], env[5] = rng.Uint64N(2), rng.Uint64N(2)
	return env
}

func edgeOrRandom(rng *rand.Rand, bits int) uint64 {
	m := sem.Mask(bits)
	switch rng.IntN(4) {
	case 0:
		return []uint64{0, 1, m, m >> 1, m>>1 + 1, uint64(bits), uint64(bits - 1)}[rng.IntN(7)]
	case 1:
		return rng.Uint64N(uint64(2*bits + 2)) // a likely shift amount
	}
	return rng.Uint64() & m
}

// node is a generated expression: its value under the environment, and
// how to write it over the parameters or over literals of their values.
type node struct {
	val  uint64
	bits int // 1: bool
	src  func(env []uint64, literal bool) string
}

type exprGen struct {
	rng *rand.Rand
	env []uint64
}

var paramNames = map[int]int{8: 0, 16: 1, 32: 2, 64: 3}

// leaf is a parameter or a typed literal of the given width (1: bool).
func (g *exprGen) leaf(bits int) node {
	if g.rng.IntN(3) == 0 {
		v := edgeOrRandom(g.rng, max(bits, 8)) & sem.Mask(bits)
		return node{v, bits, func([]uint64, bool) string { return literal(v, bits) }}
	}
	i := 4 + g.rng.IntN(2)
	if bits > 1 {
		i = paramNames[bits]
	}
	name := []string{"a8", "a16", "a32", "a64", "p", "q"}[i]
	v := g.env[i]
	return node{v, bits, func(env []uint64, lit bool) string {
		if lit {
			return literal(env[i], bits)
		}
		return name
	}}
}

func literal(v uint64, bits int) string {
	if bits == 1 {
		return map[uint64]string{0: "false", 1: "true"}[v]
	}
	return fmt.Sprintf("(%#x as u%d)", v, bits)
}

// expr is a random expression of the given width (1: bool).
func (g *exprGen) expr(bits int, depth int) node {
	if depth == 0 || g.rng.IntN(5) == 0 {
		return g.leaf(bits)
	}
	if bits == 1 {
		switch g.rng.IntN(4) {
		case 0:
			x := g.expr(1, depth-1)
			return unary(sem.OpLogNot, 1, x)
		case 1:
			op := []sem.BinOp{sem.OpLogAnd, sem.OpLogOr}[g.rng.IntN(2)]
			return binary(op, 1, g.expr(1, depth-1), g.expr(1, depth-1))
		case 2:
			op := []sem.BinOp{sem.OpEq, sem.OpNe}[g.rng.IntN(2)]
			return binary(op, 1, g.expr(1, depth-1), g.expr(1, depth-1))
		}
		w := wordWidths[g.rng.IntN(4)]
		op := []sem.BinOp{sem.OpEq, sem.OpNe, sem.OpLt, sem.OpLe, sem.OpGt, sem.OpGe}[g.rng.IntN(6)]
		return binary(op, w, g.expr(w, depth-1), g.expr(w, depth-1))
	}
	switch g.rng.IntN(8) {
	case 0:
		op := []sem.UnOp{sem.OpNeg, sem.OpBitNot}[g.rng.IntN(2)]
		return unary(op, bits, g.expr(bits, depth-1))
	case 1: // a cast from another width or from bool
		from := []int{1, 8, 16, 32, 64}[g.rng.IntN(5)]
		x := g.expr(from, depth-1)
		return node{x.val & sem.Mask(bits), bits, func(env []uint64, lit bool) string {
			return fmt.Sprintf("(%s as u%d)", x.src(env, lit), bits)
		}}
	case 2: // a shift or rotate by an amount of any width
		op := []sem.BinOp{sem.OpShl, sem.OpShr, sem.OpRotl, sem.OpRotr}[g.rng.IntN(4)]
		return binary(op, bits, g.expr(bits, depth-1), g.expr(wordWidths[g.rng.IntN(4)], depth-1))
	}
	op := []sem.BinOp{sem.OpAdd, sem.OpSub, sem.OpMul, sem.OpDiv, sem.OpRem, sem.OpAnd, sem.OpOr, sem.OpXor}[g.rng.IntN(8)]
	l, r := g.expr(bits, depth-1), g.expr(bits, depth-1)
	if op.IsDivision() {
		r = nonZero(r)
	}
	return binary(op, bits, l, r)
}

// nonZero is x | 1: a divisor the checker proves non-zero.
func nonZero(x node) node {
	return node{x.val | 1, x.bits, func(env []uint64, lit bool) string {
		return fmt.Sprintf("(%s | (1 as u%d))", x.src(env, lit), x.bits)
	}}
}

func unary(op sem.UnOp, bits int, x node) node {
	return node{sem.EvalUnary(op, bits, x.val), bits, func(env []uint64, lit bool) string {
		return fmt.Sprintf("(%s%s)", op, x.src(env, lit))
	}}
}

// binary is l op r; bits is the operands' width (the left one's, for shifts).
func binary(op sem.BinOp, bits int, l, r node) node {
	v, ok := sem.EvalBinary(op, bits, l.val, r.val)
	if !ok {
		panic("generated a zero divisor")
	}
	res := bits
	if op.IsCompare() || op.IsLogical() {
		res = 1
	}
	return node{v, res, func(env []uint64, lit bool) string {
		return fmt.Sprintf("(%s %s %s)", l.src(env, lit), op, r.src(env, lit))
	}}
}
