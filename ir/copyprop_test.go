package ir_test

import (
	"testing"

	. "github.com/lowent/lowentc/ir"
)

func TestCopyprop(t *testing.T) {
	m := NewModule("t")
	f := m.NewFunction("f", true)
	x := f.AddParam("x", U16)
	c := f.AddParam("c", Bool)
	f.SetResults(U16, U16, U16)
	b := NewBuilder(f)
	cp := b.Copy(x)
	same := b.If(c, []Type{U16, U16}, func(b *Builder) []*Value {
		return []*Value{cp, b.Add(cp, cp)}
	}, func(b *Builder) []*Value { return []*Value{x, x} })
	loop := b.For(U8, b.Const(U8, 0), b.Const(U8, 4), []*Value{x, x}, func(b *Builder, i *Value, it []*Value) []*Value {
		// it[0] passes through unchanged; it[1] changes.
		return []*Value{it[0], b.Add(it[1], it[0])}
	})
	b.Return(same[0], same[1], b.Add(loop[0], loop[1]))
	applyPass(t, m, copyprop, Options{}, "f", words(3, 0), words(3, 1), words(0xffff, 1))
	if n := countOps(m, OpCopy); n != 0 {
		t.Errorf("copies left:\n%s", m)
	}
	fn := m.Funcs[0]
	if ret := fn.Body.Term(); ret.Args[0] != x {
		t.Errorf("the if result that is x in both branches is not x:\n%s", m)
	}
	walkInstrs(fn.Body, func(in *Instr) {
		if (in.Op == OpIf || in.Op == OpFor) && len(in.Results) != 1 {
			t.Errorf("%s keeps %d results, want 1:\n%s", in.Op, len(in.Results), m)
		}
	})
}
