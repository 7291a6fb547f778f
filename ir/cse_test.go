package ir_test

import (
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

func TestCSE(t *testing.T) {
	m := NewModule("t")
	f := m.NewFunction("f", true)
	x := f.AddParam("x", U32)
	y := f.AddParam("y", U32)
	a := f.AddArrayParam("a", U32, 2, true)
	f.SetResults(U32, U32, U32, U32)
	b := NewBuilder(f)
	i0 := b.Const(U32, 0)
	s1 := b.Add(x, y)
	s2 := b.Add(y, x) // commutative: same as s1
	l1 := b.Load(a, i0)
	l2 := b.Load(a, i0) // same as l1: no store in between
	b.Store(a, s1, i0)
	l3 := b.Load(a, i0) // not l1: a[0] changed
	inner := b.If(b.Ult(x, y), []Type{U32}, func(b *Builder) []*Value {
		return []*Value{b.Add(x, y)} // same as s1, in scope
	}, func(b *Builder) []*Value { return []*Value{b.Sub(x, y)} })
	b.Return(b.Add(s1, s2), b.Add(l1, l2), l3, inner[0])
	applyPass(t, m, cse, Options{}, "f",
		[]lang.Value{{Word: 1}, {Word: 2}, arrayArg(5, 6)},
		[]lang.Value{{Word: 9}, {Word: 2}, arrayArg(0xffffffff, 6)})
	if n := countOps(m, OpAdd); n != 3 {
		t.Errorf("%d adds, want 3 (x+y, s1+s1, l1+l1):\n%s", n, m)
	}
	if n := countOps(m, OpLoad); n != 2 {
		t.Errorf("%d loads, want 2:\n%s", n, m)
	}
}

// TestCSELoopStores: a load inside a loop that stores to the same array
// must not reuse a load from before the loop.
func TestCSELoopStores(t *testing.T) {
	m := NewModule("t")
	f := m.NewFunction("f", true)
	a := f.AddArrayParam("a", U8, 1, true)
	f.SetResults(U8)
	b := NewBuilder(f)
	i0 := b.Const(U32, 0)
	before := b.Load(a, i0)
	b.For(U32, i0, b.Const(U32, 3), nil, func(b *Builder, _ *Value, _ []*Value) []*Value {
		b.Store(a, b.Add(b.Load(a, i0), b.Const(U8, 1)), i0)
		return nil
	})
	b.Return(b.Add(before, b.Load(a, i0)))
	applyPass(t, m, cse, Options{}, "f", []lang.Value{arrayArg(4)})
	if n := countOps(m, OpLoad); n != 3 {
		t.Errorf("%d loads, want 3:\n%s", n, m)
	}
}
