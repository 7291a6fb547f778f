package ir_test

import (
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
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
