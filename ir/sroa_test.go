package ir_test

import (
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

// sroaModule: a two-element array written in a loop and in both branches of
// an if at constant indexes (promotable), and a table read at a run-time
// index (not promotable).
func sroaModule() *Module {
	m := NewModule("t")
	f := m.NewFunction("f", true)
	x := f.AddParam("x", U32)
	y := f.AddParam("y", U8)
	f.SetResults(U32, U32)
	st := f.NewLocal("st", U32, 2)
	tbl := f.NewLocal("tbl", U32, 4)
	b := NewBuilder(f)
	i0, i1 := b.Const(U32, 0), b.Const(U32, 1)
	b.Store(st, x, i0)
	b.For(U32, i0, b.Const(U32, 3), nil, func(b *Builder, i *Value, _ []*Value) []*Value {
		s0 := b.Load(st, i0)
		b.Store(st, b.Add(s0, i), i0)
		b.Store(st, b.Xor(b.Load(st, i1), s0), i1)
		b.Store(tbl, s0, i)
		return nil
	})
	c := b.Ult(y, b.Const(U8, 100))
	b.If(c, nil, func(b *Builder) []*Value {
		b.Store(st, b.Const(U32, 7), i1)
		return nil
	}, nil)
	b.Return(b.Add(b.Load(st, i0), b.Load(st, i1)), b.Load(tbl, b.Zext(U32, b.And(y, b.Const(U8, 3)))))
	return m
}

func TestSROA(t *testing.T) {
	m := sroaModule()
	inputs := [][]lang.Value{words(5, 3), words(0xffffffff, 200), words(9, 99)}
	applyPass(t, m, sroa, Options{}, "f", inputs...)
	f := m.Funcs[0]
	if len(f.Locals) != 1 || f.Locals[0].Name != "tbl" {
		t.Fatalf("locals after sroa: %v\n%s", f.Locals, m)
	}
	// st[0] and st[1] are now loop-carried values and an if result.
	walkInstrs(f.Body, func(in *Instr) {
		if in.Op == OpFor && len(in.Results) != 2 {
			t.Errorf("loop carries %d values, want 2", len(in.Results))
		}
		if in.Op == OpIf && len(in.Results) != 1 {
			t.Errorf("if gives %d values, want 1", len(in.Results))
		}
	})
	// By hand for x=5, y=3: st0 = 5, 5, 6, 8; st1 = 0^5^5^6 = 6, then 7.
	res, _ := Run(m, "f", words(5, 3))
	if res[0].Word != 8+7 || res[1].Word != 0 {
		t.Fatalf("f(5, 3) = %v, want 15, 0 (tbl[3] was never written)", res)
	}
}
