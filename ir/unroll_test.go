package ir_test

import (
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
)

// unrollModule: f(x) = x folded through 5 iterations of acc = acc*3 + i
// (a loop-carried value), then a loop with no trips.
func unrollModule(trips uint64) *Module {
	m := NewModule("t")
	f := m.NewFunction("f", true)
	x := f.AddParam("x", U16)
	f.SetResults(U16)
	b := NewBuilder(f)
	r := b.For(U8, b.Const(U8, 2), b.Const(U8, 2+trips), []*Value{x}, func(b *Builder, i *Value, it []*Value) []*Value {
		return []*Value{b.Add(b.Mul(it[0], b.Const(U16, 3)), b.Zext(U16, i))}
	})
	r2 := b.For(U8, b.Const(U8, 9), b.Const(U8, 4), []*Value{r[0]}, func(b *Builder, i *Value, it []*Value) []*Value {
		return []*Value{b.Const(U16, 0)}
	})
	b.Return(r2[0])
	return m
}

func TestUnroll(t *testing.T) {
	m := unrollModule(5)
	inputs := [][]lang.Value{words(0), words(1), words(0xffff)}
	applyPass(t, m, unroll, Options{Unroll: 100}, "f", inputs...)
	if n := countOps(m, OpFor); n != 0 {
		t.Fatalf("%d loops left:\n%s", n, m)
	}
	// x=1, i = 2..6: 1*3+2 = 5, 5*3+3 = 18, 18*3+4 = 58, 58*3+5 = 179, 179*3+6 = 543.
	res, _ := Run(m, "f", words(1))
	if res[0].Word != 543 {
		t.Fatalf("f(1) = %d, want 543", res[0].Word)
	}
}

func TestUnrollBudget(t *testing.T) {
	m := unrollModule(50)
	// 50 trips of a 4-instruction body exceed a budget of 100; the empty
	// loop (no trips) still goes.
	applyPass(t, m, unroll, Options{Unroll: 100}, "f", words(7))
	if n := countOps(m, OpFor); n != 1 {
		t.Fatalf("%d loops left, want 1:\n%s", n, m)
	}
}

// TestUnrollFunc: Options.UnrollFunc gives the function it names its own
// budget, over Unroll in either direction.
func TestUnrollFunc(t *testing.T) {
	m := unrollModule(50)
	f := m.Func("f")
	applyPass(t, m, unroll, Options{Unroll: 100, UnrollFunc: map[string]int{f.QualName: 1000}}, "f", words(7))
	if n := countOps(m, OpFor); n != 0 {
		t.Fatalf("%d loops left with %s's budget 1000:\n%s", n, f.QualName, m)
	}
	m = unrollModule(5)
	f = m.Func("f")
	applyPass(t, m, unroll, Options{Unroll: 100, UnrollFunc: map[string]int{f.QualName: 0}}, "f", words(7))
	if n := countOps(m, OpFor); n != 1 {
		t.Fatalf("%d loops left with %s's budget 0, want 1:\n%s", n, f.QualName, m)
	}
}

// factorModule: two loops with the same body over 0..8 and 8..16 shift
// three working values and mix in a table entry and the index, as a hash
// round does; with second set, the first loop's results are also
// returned (so the loops cannot be joined).
func factorModule(second bool) *Module {
	m := NewModule("t")
	g := m.AddGlobal("K", U16, []uint64{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3})
	f := m.NewFunction("f", true)
	x := f.AddParam("x", U16)
	if second {
		f.SetResults(U16, U16)
	} else {
		f.SetResults(U16)
	}
	b := NewBuilder(f)
	round := func(b *Builder, i *Value, it []*Value) []*Value {
		k := b.Load(g, b.Zext(U32, i))
		t1 := b.Add(b.Xor(it[2], b.Bin(OpRotl, it[0], b.Const(U16, 5))), b.Add(k, b.Zext(U16, i)))
		return []*Value{t1, it[0], it[1]}
	}
	init := []*Value{x, b.Const(U16, 7), b.Const(U16, 0x1234)}
	r1 := b.For(U8, b.Const(U8, 0), b.Const(U8, 8), init, round)
	r2 := b.For(U8, b.Const(U8, 8), b.Const(U8, 16), r1, round)
	if second {
		b.Return(b.Xor(r2[0], r2[2]), r1[1])
	} else {
		b.Return(b.Xor(r2[0], b.Xor(r2[1], r2[2])))
	}
	return m
}

// TestUnrollFactor joins the two loops into one of 16 trips and unrolls
// it by 4: a loop of 4 trips over 4 copies of the body, the same results.
func TestUnrollFactor(t *testing.T) {
	m := factorModule(false)
	inputs := [][]lang.Value{words(0), words(1), words(0xbeef), words(0xffff)}
	applyPass(t, m, unroll, Options{Unroll: 10, UnrollFactor: 4}, "f", inputs...)
	if n := countOps(m, OpFor); n != 1 {
		t.Fatalf("%d loops, want 1 (joined):\n%s", n, m)
	}
	if n := countOps(m, OpLoad); n != 4 {
		t.Fatalf("%d table loads, want 4 (the body 4 times):\n%s", n, m)
	}
	for _, in := range m.Funcs[0].Body.Instrs {
		if in.Op == OpFor {
			if lo, hi := constOrDie(t, in.Args[0]), constOrDie(t, in.Args[1]); lo != 0 || hi != 4 {
				t.Fatalf("the loop runs %d..%d, want 0..4:\n%s", lo, hi, m)
			}
		}
	}
}

// TestUnrollFactorKeeps leaves loops whose first results have another use
// apart (each is then unrolled by 4 on its own: 8 trips), and a factor
// that does not divide the trips, or is not more than them, changes
// nothing.
func TestUnrollFactorKeeps(t *testing.T) {
	m := factorModule(true)
	inputs := [][]lang.Value{words(0), words(0xbeef)}
	applyPass(t, m, unroll, Options{Unroll: 10, UnrollFactor: 4}, "f", inputs...)
	if n, l := countOps(m, OpFor), countOps(m, OpLoad); n != 2 || l != 8 {
		t.Fatalf("%d loops and %d loads, want 2 and 8:\n%s", n, l, m)
	}
	for _, factor := range []int{3, 8, 16} {
		m := factorModule(true)
		applyPass(t, m, unroll, Options{Unroll: 10, UnrollFactor: factor}, "f", inputs...)
		if n, l := countOps(m, OpFor), countOps(m, OpLoad); n != 2 || l != 2 {
			t.Errorf("factor %d: %d loops and %d loads, want 2 and 2:\n%s", factor, n, l, m)
		}
	}
}

func constOrDie(t *testing.T, v *Value) uint64 {
	t.Helper()
	c, ok := ConstOf(v)
	if !ok {
		t.Fatalf("value %d is not a constant", v.ID)
	}
	return c
}

// TestUnrollFactorJoinsArrayLoops: two loops with the same body over 0..8
// and 8..16 that carry no values but update an array (SHA-256's two
// schedule loops of eight) become one loop over 0..16, with the same
// results; without UnrollFactor they stay two.
func TestUnrollFactorJoinsArrayLoops(t *testing.T) {
	build := func() *Module {
		m := NewModule("t")
		f := m.NewFunction("f", true)
		w := f.AddArrayParam("w", U32, 16, true)
		b := NewBuilder(f)
		step := func(b *Builder, i *Value, _ []*Value) []*Value {
			j := b.And(b.Add(i, b.Const(U8, 1)), b.Const(U8, 15))
			x := b.Load(w, b.Zext(U32, j))
			b.Store(w, b.Add(b.Load(w, b.Zext(U32, i)), b.Xor(x, b.Zext(U32, i))), b.Zext(U32, i))
			return nil
		}
		b.For(U8, b.Const(U8, 0), b.Const(U8, 8), nil, step)
		b.For(U8, b.Const(U8, 8), b.Const(U8, 16), nil, step)
		b.Return()
		return m
	}
	arg := lang.Value{IsArray: true, Elems: make([]uint64, 16)}
	for i := range arg.Elems {
		arg.Elems[i] = uint64(i)*0x9e3779b9&0xffffffff ^ 0x5a5a
	}
	m := build()
	applyPass(t, m, unroll, Options{Unroll: 10, UnrollFactor: 8}, "f", []lang.Value{arg})
	if n := countOps(m, OpFor); n != 1 {
		t.Fatalf("%d loops, want 1 (joined):\n%s", n, m)
	}
	for _, in := range m.Funcs[0].Body.Instrs {
		if in.Op == OpFor {
			if lo, hi := constOrDie(t, in.Args[0]), constOrDie(t, in.Args[1]); lo != 0 || hi != 16 {
				t.Fatalf("the loop runs %d..%d, want 0..16:\n%s", lo, hi, m)
			}
		}
	}
	m = build()
	applyPass(t, m, unroll, Options{Unroll: 10}, "f", []lang.Value{arg})
	if n := countOps(m, OpFor); n != 2 {
		t.Fatalf("%d loops without UnrollFactor, want 2:\n%s", n, m)
	}
}

const laneLoopSrc = `module t
fn lanes(acc: mut [16]u64) {
    for l in 0..8 {
        acc[l] = acc[l] + acc[8 + l] * 3
    }
}
export fn f(x: u64) -> u64 effects none {
    var acc: [16]u64
    for i in 0..16 {
        acc[i] = x + (i as u64)
    }
    if have ifma {
        lanes(acc)
    } else {
        for l in 0..8 {
            acc[l] = acc[l] + acc[8 + l] * 3
        }
    }
    return acc[3] ^ acc[7]
}`

// TestUnrollKeepsLaneLoops: with KeepHave and LaneLoops, a loop of eight
// trips from 0 without loop-carried values stays rolled in the branch
// `have ifma` takes (for a backend's lane selection), and only there: the
// same loop in the else branch, and every loop without both options, is
// unrolled.
func TestUnrollKeepsLaneLoops(t *testing.T) {
	p := load(t, laneLoopSrc)
	inputs := [][]lang.Value{{{Word: 0}}, {{Word: 0x1234}}, {{Word: ^uint64(0)}}}
	for _, o := range []Options{{}, {KeepHave: true}, {LaneLoops: true}, {KeepHave: true, LaneLoops: true}} {
		m, err := lower.Program(p)
		if err != nil {
			t.Fatal(err)
		}
		applyPass(t, m, inline, Options{}, "f", inputs...)
		applyPass(t, m, fold, Options{}, "f", inputs...)
		o.Unroll = DefaultUnroll
		applyPass(t, m, unroll, o, "f", inputs...)
		want := 0
		if o.KeepHave && o.LaneLoops {
			want = 1
		}
		if n := countOps(m, OpFor); n != want {
			t.Errorf("KeepHave %v, LaneLoops %v: %d loops left, want %d\n%s", o.KeepHave, o.LaneLoops, n, want, m)
		}
	}
}
