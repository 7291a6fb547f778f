package ir_test

import (
	"fmt"
	"strings"
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

// inlineModule: a helper that sums region elements into a local and writes
// through its mut parameter, called twice on different regions.
func inlineModule() *Module {
	m := NewModule("t")
	h := m.NewFunction("helper", false)
	src := h.AddArrayParam("src", U32, -1, false)
	dst := h.AddArrayParam("dst", U32, 2, true)
	k := h.AddParam("k", U32)
	h.SetResults(U32)
	tmp := h.NewLocal("tmp", U32, 1)
	b := NewBuilder(h)
	zero := b.Const(U32, 0)
	b.Store(tmp, k, zero)
	b.For(U32, zero, b.Len(src), nil, func(b *Builder, i *Value, _ []*Value) []*Value {
		b.Store(tmp, b.Add(b.Load(tmp, zero), b.Load(src, i)), zero)
		return nil
	})
	s := b.Load(tmp, zero)
	b.Store(dst, s, b.Const(U32, 1))
	b.Return(s)

	f := m.NewFunction("f", true)
	a := f.AddArrayParam("a", U32, 6, true)
	f.SetResults(U32)
	b = NewBuilder(f)
	c := func(x uint64) *Value { return b.Const(U32, x) }
	r1 := b.Call(h, []CallArg{{Arr: a, Off: c(0), Len: c(3)}, {Arr: a, Off: c(4), Len: c(2)}, {Val: c(100)}})
	r2 := b.Call(h, []CallArg{{Arr: a, Off: c(2), Len: c(4)}, {Arr: a, Off: c(0), Len: c(2)}, {Val: r1[0]}})
	b.Return(b.Add(r1[0], r2[0]))
	return m
}

func TestInline(t *testing.T) {
	m := inlineModule()
	if err := m.Verify(); err != nil {
		t.Fatal(err)
	}
	applyPass(t, m, inline, Options{}, "f",
		[]lang.Value{arrayArg(1, 2, 3, 4, 5, 6)},
		[]lang.Value{arrayArg(10, 0, 7, 0, 1, 1)})
	// By hand: 100+1+2+3 = 106 lands in a[5]; then 106+3+4+5+106 = 224 in a[1].
	a := arrayArg(1, 2, 3, 4, 5, 6)
	res, err := Run(m, "f", []lang.Value{a})
	if err != nil || res[0].Word != 330 || fmt.Sprint(a.Elems) != "[1 224 3 4 5 106]" {
		t.Fatalf("f = %v, %v, a = %v; want 330, [1 224 3 4 5 106]", res, err, a.Elems)
	}
	if len(m.Funcs) != 1 || m.Funcs[0].Name != "f" {
		t.Fatalf("functions after inline: %d", len(m.Funcs))
	}
	if countOps(m, OpCall) != 0 || countOps(m, OpLen) != 0 {
		t.Fatalf("calls or parameter lengths left:\n%s", m)
	}
	// Both call sites share the helper's static local.
	if len(m.Funcs[0].Locals) != 1 {
		t.Errorf("%d locals, want the helper's one", len(m.Funcs[0].Locals))
	}
}

func TestInlineRejectsRecursion(t *testing.T) {
	m := NewModule("t")
	f := m.NewFunction("f", true)
	b := NewBuilder(f)
	b.Call(f, nil)
	b.Return()
	if err := inline(m, &Options{}); err == nil {
		t.Fatal("recursion was inlined")
	}
}

// TestInlineSizeLimit: calls that multiply (each level calls the next four
// times) are refused once the export would pass the size limit.
func TestInlineSizeLimit(t *testing.T) {
	saved := SetMaxFunctionSize(5000)
	defer SetMaxFunctionSize(saved)
	m := NewModule("t")
	var prev *Function
	for level := 0; level < 12; level++ {
		f := m.NewFunction(fmt.Sprintf("f%d", level), level == 11)
		x := f.AddParam("x", U32)
		f.SetResults(U32)
		b := NewBuilder(f)
		v := b.Add(x, b.Const(U32, 1))
		if prev != nil {
			for k := 0; k < 4; k++ {
				v = b.Call(prev, []CallArg{{Val: v}})[0]
			}
		}
		b.Return(v)
		prev = f
	}
	err := inline(m, &Options{})
	if err == nil || !strings.Contains(err.Error(), "grows beyond") {
		t.Fatalf("inline = %v, want a size error", err)
	}
}
