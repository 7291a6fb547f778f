package ir_test

import (
	"fmt"
	"strings"
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
)

// Passes on modules that keep calls (Options.InlineBudget), and the
// legalization, interpretation and verification of kept calls.

// callModule builds a module with a helper bump(a: mut [2]u32, k) that adds k
// to a[0] and returns the old a[0], a helper peek(a: [2]u32) -> a[0]+a[1]
// that only reads, and a helper guard(x) that checks x < 100.
func callModule() (m *Module, bump, peek, guard *Function) {
	m = NewModule("t")
	bump = m.NewFunction("bump", false)
	ba := bump.AddArrayParam("a", U32, 2, true)
	bk := bump.AddParam("k", U32)
	bump.SetResults(U32)
	b := NewBuilder(bump)
	i0 := b.Const(U32, 0)
	old := b.Load(ba, i0)
	b.Store(ba, b.Add(old, bk), i0)
	b.Return(old)

	peek = m.NewFunction("peek", false)
	pa := peek.AddArrayParam("a", U32, 2, false)
	peek.SetResults(U32)
	b = NewBuilder(peek)
	b.Return(b.Add(b.Load(pa, b.Const(U32, 0)), b.Load(pa, b.Const(U32, 1))))

	guard = m.NewFunction("guard", false)
	gx := guard.AddParam("x", U32)
	b = NewBuilder(guard)
	b.Check(b.Ult(gx, b.Const(U32, 100)), CheckRequires, lang.Pos{Line: 7}, "x too big")
	b.Return()
	return m, bump, peek, guard
}

func regionArg(arr *Array, b *Builder, off, n uint64) CallArg {
	return CallArg{Arr: arr, Off: b.Const(U32, off), Len: b.Const(U32, n)}
}

// TestCSEAcrossCalls: a load may be reused across a call that only reads
// its array, not across one that may write it.
func TestCSEAcrossCalls(t *testing.T) {
	m, bump, peek, _ := callModule()
	f := m.NewFunction("f", true)
	a := f.AddArrayParam("a", U32, 2, true)
	f.SetResults(U32)
	b := NewBuilder(f)
	i0 := b.Const(U32, 0)
	l1 := b.Load(a, i0)
	p := b.Call(peek, []CallArg{regionArg(a, b, 0, 2)})[0]
	l2 := b.Load(a, i0) // same as l1: peek does not write a
	b.Call(bump, []CallArg{regionArg(a, b, 0, 2), {Val: b.Const(U32, 5)}})
	l3 := b.Load(a, i0) // not l1: bump wrote a[0]
	b.Return(b.Add(b.Add(l1, l2), b.Add(l3, p)))
	applyPass(t, m, cse, Options{}, "f", []lang.Value{arrayArg(1, 2)}, []lang.Value{arrayArg(0xfffffffe, 9)})
	if n := countOpsIn(m.Func("f"), OpLoad); n != 2 {
		t.Errorf("f has %d loads, want 2:\n%s", n, m)
	}
	// By hand: a = [1, 2]: 1 + 1 + 6 + 3 = 11.
	res, err := Run(m, "f", []lang.Value{arrayArg(1, 2)})
	if err != nil || res[0].Word != 11 {
		t.Fatalf("f = %v, %v; want 11", res, err)
	}
}

func countOpsIn(f *Function, o Op) int {
	n := 0
	walkInstrs(f.Body, func(in *Instr) {
		if in.Op == o {
			n++
		}
	})
	return n
}

// TestDCECalls: an unused call of an effect-free callee goes; calls that
// write a mut array or may trap stay even when their results are unused.
func TestDCECalls(t *testing.T) {
	m, bump, peek, guard := callModule()
	f := m.NewFunction("f", true)
	a := f.AddArrayParam("a", U32, 2, true)
	x := f.AddParam("x", U32)
	f.SetResults(U32)
	b := NewBuilder(f)
	b.Call(peek, []CallArg{regionArg(a, b, 0, 2)})                  // unused, no effect: goes
	b.Call(bump, []CallArg{regionArg(a, b, 0, 2), {Val: x}})        // unused result, writes a: stays
	b.Call(guard, []CallArg{{Val: x}})                              // may trap: stays
	used := b.Call(peek, []CallArg{regionArg(a, b, 0, 2)})[0]       // used: stays
	b.If(b.Eq(x, b.Const(U32, 3)), nil, func(b *Builder) []*Value { // only an effect-free call: goes
		b.Call(peek, []CallArg{regionArg(a, b, 0, 2)})
		return nil
	}, nil)
	b.Return(used)
	applyPass(t, m, dce, Options{}, "f",
		[]lang.Value{arrayArg(1, 2), {Word: 3}}, []lang.Value{arrayArg(7, 7), {Word: 200}})
	calls := map[string]int{}
	walkInstrs(m.Func("f").Body, func(in *Instr) {
		if in.Op == OpCall {
			calls[in.Callee.Name]++
		}
	})
	if calls["peek"] != 1 || calls["bump"] != 1 || calls["guard"] != 1 || countOpsIn(m.Func("f"), OpIf) != 0 {
		t.Errorf("calls left %v, want one of each, and no if:\n%s", calls, m)
	}
}

// TestSROAKeepsCallArrays: a constant-indexed local passed to a call stays
// in memory; one that is not passed becomes values.
func TestSROAKeepsCallArrays(t *testing.T) {
	m, bump, _, _ := callModule()
	f := m.NewFunction("f", true)
	x := f.AddParam("x", U32)
	f.SetResults(U32)
	passed := f.NewLocal("passed", U32, 2)
	private := f.NewLocal("private", U32, 1)
	b := NewBuilder(f)
	i0, i1 := b.Const(U32, 0), b.Const(U32, 1)
	b.Store(passed, x, i0)
	b.Store(passed, b.Const(U32, 0), i1)
	b.Store(private, x, i0)
	old := b.Call(bump, []CallArg{regionArg(passed, b, 0, 2), {Val: b.Const(U32, 10)}})[0]
	b.Return(b.Add(b.Add(old, b.Load(passed, i0)), b.Load(private, i0)))
	applyPass(t, m, sroa, Options{}, "f", []lang.Value{{Word: 4}}, []lang.Value{{Word: 0xffffffff}})
	if l := m.Func("f").Locals; len(l) != 1 || l[0] != passed {
		t.Errorf("locals after sroa: %v, want only passed", l)
	}
	// By hand: x=4: old 4, passed[0] 14, private 4.
	res, err := Run(m, "f", []lang.Value{{Word: 4}})
	if err != nil || res[0].Word != 22 {
		t.Fatalf("f = %v, %v; want 22", res, err)
	}
}

// TestUnrollFoldCopypropWithCalls: a loop of calls unrolls into one call per
// trip with constant region offsets; fold and copyprop leave calls alone.
func TestUnrollFoldCopypropWithCalls(t *testing.T) {
	m, bump, _, _ := callModule()
	f := m.NewFunction("f", true)
	a := f.AddArrayParam("a", U32, 8, true)
	f.SetResults(U32)
	b := NewBuilder(f)
	i0 := b.Const(U32, 0)
	sum := b.For(U32, i0, b.Const(U32, 4), []*Value{i0}, func(b *Builder, i *Value, it []*Value) []*Value {
		off := b.Mul(i, b.Const(U32, 2))
		old := b.Call(bump, []CallArg{{Arr: a, Off: off, Len: b.Const(U32, 2)}, {Val: b.Copy(i)}})[0]
		return []*Value{b.Add(it[0], old)}
	})
	b.Return(sum[0])
	in := []lang.Value{arrayArg(1, 2, 3, 4, 5, 6, 7, 8)}
	applyPass(t, m, unroll, Options{Unroll: 100}, "f", in)
	applyPass(t, m, fold, Options{}, "f", in)
	applyPass(t, m, copyprop, Options{}, "f", in)
	if countOpsIn(m.Func("f"), OpFor) != 0 || countOpsIn(m.Func("f"), OpCall) != 4 || countOpsIn(m.Func("f"), OpCopy) != 0 {
		t.Fatalf("want 4 calls, no loop, no copy:\n%s", m)
	}
	walkInstrs(m.Func("f").Body, func(in *Instr) {
		if in.Op == OpCall {
			if _, ok := ConstOf(in.Args[1]); !ok {
				t.Errorf("region offset not folded to a constant:\n%s", m)
			}
		}
	})
	// By hand: 1+3+5+7 = 16; a becomes [1,2,4,4,7,6,10,8].
	args := []lang.Value{arrayArg(1, 2, 3, 4, 5, 6, 7, 8)}
	res, err := Run(m, "f", args)
	if err != nil || res[0].Word != 16 || fmt.Sprint(args[0].Elems) != "[1 2 4 4 7 6 10 8]" {
		t.Fatalf("f = %v, %v, a = %v", res, err, args[0].Elems)
	}
}

// keptCallsSrc passes u64 regions at non-zero element offsets (rest, chunk
// views, rows of a nested array) to helpers that stay out of line, with wide
// scalars and results, so that legalization must split all of them.
const keptCallsSrc = `module t

fn sum(xs: []u64) -> u64 {
    var s: u64 = 0
    for i in 0..len(xs) {
        s += xs[i]
    }
    return s
}

fn bump(xs: mut []u64, k: u64) -> (u64, u32) {
    for i in 0..len(xs) {
        xs[i] = xs[i] ^ (k <<< 8)
    }
    return k + 1, len(xs)
}

fn row(r: mut [2]u64, k: u64) {
    r[1] = r[0] + k
}

export fn f(a: mut [7]u64, m: mut [3][2]u64, k: u64) -> (u64, u64, u32) effects none {
    let (k1, n) = bump(rest(a, 4), k)
    for c in chunks(a, 2) {
        let (k2, _) = bump(c, k1)
    }
    row(m[2], k)
    row(m[1], k1)
    return sum(rest(a, 3)) + sum(a), k1, n
}
`

// TestKeptCallsEveryWidth: exports that keep calls with regions of wide
// words agree with the VM at every width, and the calls really remain.
func TestKeptCallsEveryWidth(t *testing.T) {
	p := load(t, keptCallsSrc)
	inputs := [][]lang.Value{
		{arrayArg(1, 2, 3, 4, 5, 6, 7), arrayArg(1, 2, 3, 4, 5, 6), {Word: 0x0123456789abcdef}},
		{arrayArg(^uint64(0), 0, 1<<63, 5, 6, 7, ^uint64(0)), arrayArg(^uint64(0), 2, 3, ^uint64(0), 5, 6), {Word: ^uint64(0)}},
	}
	for _, w := range widths {
		m, err := lower.Compile(p, Options{W: w, Unroll: DefaultUnroll, InlineBudget: InlineNone, Verify: true})
		if err != nil {
			t.Fatalf("W=%d: %v", w, err)
		}
		if n := countOps(m, OpCall); n < 4 || len(m.Funcs) != 4 {
			t.Fatalf("W=%d: %d calls in %d functions, want the three helpers kept:\n%s", w, n, len(m.Funcs), m)
		}
		if m.Funcs[len(m.Funcs)-1].Name != "f" {
			t.Errorf("W=%d: the export is not after its callees", w)
		}
		for _, in := range inputs {
			want, werr := vmRun(p, "f", lang.CopyValues(in))
			args := lang.CopyValues(in)
			got, gerr := Run(m, "f", args)
			vargs := lang.CopyValues(in)
			vmRun(p, "f", vargs)
			if fmt.Sprint(want, werr, vargs) != fmt.Sprint(got, gerr, args) {
				t.Errorf("W=%d: ir %v %v %v, vm %v %v %v", w, got, gerr, args, want, werr, vargs)
			}
		}
	}
}

// TestLegalizedCallShape: after legalization a kept call passes one limb per
// limb parameter and limb groups for region bounds; Verify checks them.
func TestLegalizedCallShape(t *testing.T) {
	p := load(t, keptCallsSrc)
	for _, w := range []int{64, 32, 16, 8} {
		m, err := lower.Compile(p, Options{W: w, InlineBudget: InlineNone})
		if err != nil {
			t.Fatal(err)
		}
		bump := m.Func("bump")
		k := m.Limbs(IndexType)
		var call *Instr
		walkInstrs(m.Func("f").Body, func(in *Instr) {
			if in.Op == OpCall && in.Callee == bump && call == nil {
				call = in
			}
		})
		if call == nil {
			t.Fatalf("W=%d: no call of bump", w)
		}
		if want := 64/w + 2*k; len(call.Args) != want || len(bump.Params) != 1+64/w {
			t.Errorf("W=%d: call has %d args (want %d), bump %d params", w, len(call.Args), want, len(bump.Params))
		}
		if want := 64/w + k; len(call.Results) != want {
			t.Errorf("W=%d: call has %d results, want %d", w, len(call.Results), want)
		}
		if call.Arrs[0].Per != 64/w*1 && w < 64 {
			t.Errorf("W=%d: region array Per %d", w, call.Arrs[0].Per)
		}
		if !strings.Contains(m.String(), "call bump(") {
			t.Errorf("W=%d: the printer does not show the call", w)
		}
		// Drop a limb: the checker must notice.
		call.Args = call.Args[:len(call.Args)-1]
		if err := m.Verify(); err == nil || !strings.Contains(err.Error(), "argument counts") {
			t.Errorf("W=%d: Verify = %v, want an argument count error", w, err)
		}
	}
}

// TestInlinePolicy: the budget inlines small callees and single-call-site
// ones, keeps big ones called twice (and exported ones), and drops
// functions no longer called.
func TestInlinePolicy(t *testing.T) {
	src := `module t

fn tiny(x: u32) -> u32 {
    return x + 1
}

fn big(x: u32) -> u32 {
    var v = x
    for i in 0..4 {
        v = (v <<< 7) ^ (v * 0x9e3779b9) ^ tiny(v)
    }
    return v
}

fn once(x: u32) -> u32 {
    return big(x) ^ (x <<< 3) ^ (x * 5) ^ (x >> 2) ^ (x * 7) ^ (x <<< 11) ^ (x * 9)
}

export fn e1(x: u32) -> u32 effects none {
    return big(x) + big(x + 1) + once(x)
}

export fn e2(x: u32) -> u32 effects none {
    return tiny(e1(x))
}
`
	p := load(t, src)
	m, err := lower.Compile(p, Options{Unroll: 0, InlineBudget: 8, Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range m.Funcs {
		names = append(names, f.Name)
	}
	calls := map[string]int{}
	for _, f := range m.Funcs {
		walkInstrs(f.Body, func(in *Instr) {
			if in.Op == OpCall {
				calls[f.Name+"->"+in.Callee.Name]++
			}
		})
	}
	// tiny is small: inlined everywhere; once has one call site: inlined;
	// big is called three times and big: kept; e1 is exported: kept.
	if got := strings.Join(names, " "); got != "big e1 e2" {
		t.Errorf("functions %q, want \"big e1 e2\"\n%s", got, m)
	}
	if calls["e1->big"] != 3 || calls["e2->e1"] != 1 || len(calls) != 2 {
		t.Errorf("calls %v, want e1->big x3, e2->e1\n%s", calls, m)
	}
	for _, w := range widths {
		mw, err := lower.Compile(p, Options{W: w, InlineBudget: 8, Verify: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range []uint64{0, 1, 0xdeadbeef, 0xffffffff} {
			for _, e := range []string{"e1", "e2"} {
				want, _ := vmRun(p, e, []lang.Value{{Word: x}})
				got, err := Run(mw, e, []lang.Value{{Word: x}})
				if err != nil || got[0].Word != want[0].Word {
					t.Errorf("W=%d %s(%#x) = %v, %v; vm %v", w, e, x, got, err, want)
				}
			}
		}
	}
	// The default still inlines everything.
	m0, err := lower.Compile(p, Options{Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	if countOps(m0, OpCall) != 0 || len(m0.Funcs) != 2 || m0.Funcs[0].Name != "e1" {
		t.Errorf("default policy left calls or helpers:\n%s", m0)
	}
}

// TestInlineFunc: a per-callee entry overrides the budget for that
// callee's calls alone.
func TestInlineFunc(t *testing.T) {
	src := `module t

fn big(x: u32) -> u32 {
    var v = x
    for i in 0..4 {
        v = (v <<< 7) ^ (v * 0x9e3779b9) ^ (v >> 3)
    }
    return v
}

fn big2(x: u32) -> u32 {
    var v = x
    for i in 0..4 {
        v = (v <<< 9) ^ (v * 0x7f4a7c15) ^ (v >> 5)
    }
    return v
}

export fn e(x: u32) -> u32 effects none {
    return big(x) + big(x + 1) + big2(x) + big2(x + 2)
}
`
	p := load(t, src)
	for _, w := range widths {
		m, err := lower.Compile(p, Options{W: w, Unroll: 0, InlineBudget: 8, InlineFunc: map[string]int{"t.big": InlineAll}, Verify: true})
		if err != nil {
			t.Fatal(err)
		}
		calls := map[string]int{}
		for _, f := range m.Funcs {
			walkInstrs(f.Body, func(in *Instr) {
				if in.Op == OpCall {
					calls[f.Name+"->"+in.Callee.Name]++
				}
			})
		}
		if calls["e->big2"] != 2 || len(calls) != 1 {
			t.Errorf("W=%d: calls %v, want e->big2 x2 (big inlined)\n%s", w, calls, m)
		}
		for _, x := range []uint64{0, 1, 0xdeadbeef, 0xffffffff} {
			want, _ := vmRun(p, "e", []lang.Value{{Word: x}})
			got, err := Run(m, "e", []lang.Value{{Word: x}})
			if err != nil || got[0].Word != want[0].Word {
				t.Errorf("W=%d e(%#x) = %v, %v; vm %v", w, x, got, err, want)
			}
		}
	}
}

// TestVerifyCalls: the checker rejects a call of a function outside the
// module and a cycle of calls.
func TestVerifyCalls(t *testing.T) {
	m, _, peek, _ := callModule()
	f := m.NewFunction("f", true)
	b := NewBuilder(f)
	b.Call(f, nil)
	b.Return()
	if err := m.Verify(); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("Verify = %v, want a cycle", err)
	}
	m.Funcs = []*Function{f}
	f.Body = &Block{}
	b = NewBuilder(f)
	a := f.NewLocal("a", U32, 2)
	b.Call(peek, []CallArg{regionArg(a, b, 0, 2)})
	b.Return()
	if err := m.Verify(); err == nil || !strings.Contains(err.Error(), "not in the module") {
		t.Errorf("Verify = %v, want a callee outside the module", err)
	}
}
