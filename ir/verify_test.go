package ir_test

import (
	"strings"
	"testing"

	. "github.com/lowent/lowentc/ir"
)

// TestVerifyRejects breaks one invariant at a time and expects the checker
// to name it.
func TestVerifyRejects(t *testing.T) {
	cases := []struct {
		name  string
		build func(m *Module, f *Function, b *Builder)
		want  string
	}{
		{"use before definition", func(m *Module, f *Function, b *Builder) {
			later := f.NewValue(U32)
			b.Add(later, later)
			b.Return()
		}, "outside its scope"},
		{"mixed types", func(m *Module, f *Function, b *Builder) {
			b.Op(OpAdd, U32, b.Const(U32, 1), b.Const(U8, 1))
			b.Return()
		}, "argument of type u8, want u32"},
		{"missing return", func(m *Module, f *Function, b *Builder) {
			b.Const(U8, 1)
		}, "does not end with return"},
		{"store to a constant table", func(m *Module, f *Function, b *Builder) {
			g := m.AddGlobal("G", U8, []uint64{1})
			b.Store(g, b.Const(U8, 2), b.Const(U32, 0))
			b.Return()
		}, "writes read-only array G"},
		{"value of an inner block used outside", func(m *Module, f *Function, b *Builder) {
			var inner *Value
			b.If(b.Const(Bool, 1), nil, func(b *Builder) []*Value { inner = b.Const(U8, 1); return nil }, nil)
			b.Return(inner)
			f.SetResults(U8)
		}, "outside its scope"},
		{"yield of the wrong type", func(m *Module, f *Function, b *Builder) {
			b.If(b.Const(Bool, 1), []Type{U16}, func(b *Builder) []*Value { return []*Value{b.Const(U8, 1)} },
				func(b *Builder) []*Value { return []*Value{b.Const(U16, 1)} })
			b.Return()
		}, "has type u8, want u16"},
		{"wide value after legalization", func(m *Module, f *Function, b *Builder) {
			m.W = 16
			b.Const(U32, 1)
			b.Return()
		}, "wider than W=16"},
		{"index that is not a limb group", func(m *Module, f *Function, b *Builder) {
			m.W = 8
			a := f.NewLocal("a", U8, 4)
			b.Load(a, b.Const(U8, 1))
			b.Return()
		}, "1 arguments, want 4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := NewModule("t")
			f := m.NewFunction("f", true)
			c.build(m, f, NewBuilder(f))
			err := m.Verify()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Verify() = %v, want an error containing %q\n%s", err, c.want, m)
			}
		})
	}
}
