package ir_test

import (
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

func TestDCE(t *testing.T) {
	m := NewModule("t")
	f := m.NewFunction("f", true)
	x := f.AddParam("x", U32)
	a := f.AddArrayParam("a", U32, 1, true)
	f.SetResults(U32)
	b := NewBuilder(f)
	i0 := b.Const(U32, 0)
	b.Mul(x, x)                                                                        // unused
	b.Load(a, i0)                                                                      // unused read
	b.Check(b.Ult(x, b.Const(U32, 1000)), CheckBounds, lang.Pos{Line: 1}, "x too big") // an effect: stays
	res := b.For(U32, i0, x, []*Value{x, x}, func(b *Builder, i *Value, it []*Value) []*Value {
		// it[1] only feeds itself: dead.
		return []*Value{b.Add(it[0], i), b.Mul(it[1], it[1])}
	})
	b.If(b.Eq(x, i0), nil, func(b *Builder) []*Value { b.Add(x, x); return nil }, nil) // no effect: goes
	b.If(b.Eq(x, b.Const(U32, 5)), nil, func(b *Builder) []*Value { b.Store(a, x, i0); return nil }, nil)
	b.Return(res[0])
	applyPass(t, m, dce, Options{}, "f",
		[]lang.Value{{Word: 5}, arrayArg(1)}, []lang.Value{{Word: 0}, arrayArg(1)}, []lang.Value{{Word: 2000}, arrayArg(1)})
	if countOps(m, OpMul) != 0 || countOps(m, OpLoad) != 0 || countOps(m, OpIf) != 1 || countOps(m, OpCheck) != 1 {
		t.Fatalf("wrong instructions removed:\n%s", m)
	}
	walkInstrs(m.Funcs[0].Body, func(in *Instr) {
		if in.Op == OpFor && len(in.Results) != 1 {
			t.Errorf("loop keeps %d values, want 1", len(in.Results))
		}
	})
}
