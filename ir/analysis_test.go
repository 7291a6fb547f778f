package ir_test

import (
	"fmt"
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/stretchr/testify/require"
)

// TestWalkOrder: Walk enters a block before its instructions and visits an
// instruction before the blocks it owns; WalkInstrs is the same walk
// without the blocks.
func TestWalkOrder(t *testing.T) {
	m := sumModule()
	f := m.Funcs[0]
	var seen, instrs []string
	Walk(f.Body, func(b *Block) {
		seen = append(seen, fmt.Sprintf("block(%d params)", len(b.Params)))
	}, func(in *Instr) {
		seen = append(seen, in.Op.String())
		instrs = append(instrs, in.Op.String())
	})
	require.Equal(t, []string{"block(0 params)", "const", "const", "const", "for",
		"block(2 params)", "load", "mul", "add", "store", "yield", "return"}, seen)
	var walked []string
	WalkInstrs(f.Body, func(in *Instr) { walked = append(walked, in.Op.String()) })
	require.Equal(t, instrs, walked)
	// Either function may be nil.
	n := 0
	Walk(f.Body, nil, func(*Instr) { n++ })
	Walk(f.Body, func(*Block) { n++ }, nil)
	require.Equal(t, len(instrs)+2, n)
}

// TestUsesReads counts reads and finds them inside nested blocks.
func TestUsesReads(t *testing.T) {
	m := sumModule()
	f := m.Funcs[0]
	x := f.Params[0].Val
	require.Equal(t, 1, Uses(f)[x])
	loop := f.Body.Instrs[3]
	require.Equal(t, OpFor, loop.Op)
	require.True(t, Reads(loop, x), "x is read in the loop's body")
	require.False(t, Reads(f.Body.Instrs[0], x))
	require.True(t, Reads(f.Body.Instrs[4], loop.Results...), "return reads the loop's result")
}

// liveModule: f(x: u64, a: mut [4]u64) -> u64 with a constant defined
// before a loop and read inside it, and a value that dies at once.
func liveModule() (*Module, map[string]*Value) {
	m, x, a, b := xaFunction()
	v := map[string]*Value{}
	// Positions: every instruction takes two (Pos and End).
	v["k"] = b.Const(U64, 3)                   // 0
	v["short"] = b.Add(x, x)                   // 2
	v["dead"] = b.Xor(v["short"], x)           // 4 (nothing reads it)
	lo, hi := b.Const(U32, 0), b.Const(U32, 4) // 6, 8
	v["hi"] = hi
	res := b.For(U32, lo, hi, []*Value{b.Const(U64, 0)}, func(b *Builder, i *Value, it []*Value) []*Value { // const 10, for 12
		v["i"] = i
		t := b.Mul(b.Load(a, i), v["k"]) // load 13, mul 15
		v["t"] = t
		acc := b.Add(it[0], t) // 17
		b.Store(a, acc, i)     // 19
		return []*Value{acc}   // yield 21
	}) // end of the for: 23
	v["res"] = res[0]
	b.Return(res[0]) // 24
	return m, v
}

// TestNumberLiveness checks the positions and the liveness rule.
func TestNumberLiveness(t *testing.T) {
	m, v := liveModule()
	require.NoError(t, m.Verify())
	f := m.Funcs[0]
	lv := Liveness(f)
	loop := f.Body.Instrs[6]
	require.Equal(t, OpFor, loop.Op)
	require.Equal(t, 12, lv.Pos[loop])
	require.Equal(t, 23, lv.End[loop])
	require.Equal(t, 0, lv.Depth[loop])
	require.Equal(t, 1, lv.Depth[loop.Blocks[0].Instrs[0]])
	require.Equal(t, 14, lv.End[loop.Blocks[0].Instrs[0]], "an instruction without blocks ends one after it")
	require.Equal(t, 26, lv.N)

	want := map[string]Interval{
		"k":     {0, 23}, // read in the loop: to its end
		"short": {2, 4},
		"dead":  {4, 4},
		"hi":    {8, 23},  // the bound is read at every test
		"i":     {12, 23}, // a loop parameter lives over the whole loop
		"t":     {15, 17},
		"res":   {12, 25}, // a loop result: from the loop, read by return (+1)
	}
	for name, iv := range want {
		require.Equal(t, iv, lv.Intervals[v[name]], name)
	}
	_, ok := lv.Intervals[f.Params[0].Val]
	require.False(t, ok, "a function parameter has no interval")
}

// accessModule builds a function over two byte array parameters p, q and
// a local array l, indexed from the u32 parameter i, with the accesses
// TestAliasing names.
func accessModule() (*Module, map[string]Access) {
	m := NewModule("t")
	f := m.NewFunction("f", true)
	i := f.AddParam("i", U32)
	p := f.AddArrayParam("p", U8, 64, true)
	q := f.AddArrayParam("q", U8, 64, true)
	f.SetResults(U8)
	b := NewBuilder(f)
	l := f.NewLocal("l", U8, 64)
	c := func(k uint64) *Value { return b.Const(U32, k) }
	at := map[string]*Instr{}
	last := func(name string) { at[name] = b.Blk.Instrs[len(b.Blk.Instrs)-1] }
	x := b.Load(p, i)
	last("p[i]")
	b.Load(p, b.Add(i, c(1)))
	last("p[i+1]")
	b.Load(p, b.Add(c(2), b.Copy(b.Add(i, c(1)))))
	last("p[2+copy(i+1)]")
	b.Load(p, b.Add(i, c(0xFFFFFFFF)))
	last("p[i-1]")
	b.Store(p, x, i)
	last("p[i]=")
	b.Store(q, x, i)
	last("q[i]=")
	b.Store(l, x, i)
	last("l[i]=")
	b.Store(p, x, c(5))
	last("p[5]=")
	b.Load(p, c(6))
	last("p[6]")
	b.LoadBytes(false, 64, p, b.Add(i, c(0xFFFFFFFF)))
	last("p[i-1..i+7]")
	b.StoreBytes(false, p, b.Zext(U64, x), b.Add(i, c(8)))
	last("p[i+8..i+16]=")
	b.Load(p, b.Mul(i, c(2)))
	last("p[2i]")
	b.Return(x)
	acc := map[string]Access{}
	for name, in := range at {
		a, ok := AccessOf(in)
		if !ok {
			panic(name)
		}
		acc[name] = a
	}
	return m, acc
}

// TestAccessOf: indexes as base + offset, through adds of constants on
// either side and copies, modulo the index width.
func TestAccessOf(t *testing.T) {
	m, acc := accessModule()
	require.NoError(t, m.Verify())
	i := m.Funcs[0].Params[0].Val
	for name, want := range map[string]struct {
		base  *Value
		off   uint64
		width int64
		store bool
	}{
		"p[i]":           {i, 0, 1, false},
		"p[i+1]":         {i, 1, 1, false},
		"p[2+copy(i+1)]": {i, 3, 1, false},
		"p[i-1]":         {i, 0xFFFFFFFF, 1, false},
		"p[5]=":          {nil, 5, 1, true},
		"p[i-1..i+7]":    {i, 0xFFFFFFFF, 8, false},
		"p[i+8..i+16]=":  {i, 8, 8, true},
	} {
		a := acc[name]
		require.Equal(t, want.base, a.Base, name)
		require.Equal(t, want.off, a.Off, name)
		require.Equal(t, want.width, a.Width, name)
		require.Equal(t, want.store, a.Store, name)
		require.Equal(t, 32, a.Bits, name)
		require.Equal(t, 1, a.Limbs, name)
	}
	require.NotEqual(t, i, acc["p[2i]"].Base)
	d, ok := acc["p[i]"].Distance(acc["p[2+copy(i+1)]"])
	require.True(t, ok)
	require.Equal(t, int64(3), d)
	d, ok = acc["p[i]"].Distance(acc["p[i-1]"])
	require.True(t, ok)
	require.Equal(t, int64(-1), d, "i + 0xFFFFFFFF is i - 1 in u32")
	_, ok = acc["p[i]"].Distance(acc["q[i]="])
	require.False(t, ok, "two arrays")
	_, ok = acc["p[i]"].Distance(acc["p[2i]"])
	require.False(t, ok, "two bases")
	for _, in := range m.Funcs[0].Body.Instrs {
		if _, ok := AccessOf(in); ok != (in.Op == OpLoad || in.Op == OpStore || in.Op == OpLoadLE || in.Op == OpStoreLE) {
			t.Errorf("AccessOf(%s): %v", in.Op, ok)
		}
	}
}

// TestAliasing is the aliasing rule, under both parameter conventions.
func TestAliasing(t *testing.T) {
	_, acc := accessModule()
	for _, c := range []struct {
		a, b             string
		distinct, shared bool
	}{
		{"p[i]", "p[i]=", true, true},
		{"p[i+1]", "p[i]=", false, false},
		{"p[i-1]", "p[i]=", false, false},
		{"p[2+copy(i+1)]", "p[i]=", false, false},
		{"p[i-1..i+7]", "p[i]=", true, true}, // bytes i-1 .. i+6 hold i
		{"p[i-1..i+7]", "p[i+8..i+16]=", false, false},
		{"p[2i]", "p[i]=", true, true},    // two bases: unknown
		{"p[i]", "q[i]=", false, true},    // two parameters
		{"p[i+1]", "q[i]=", false, false}, // taken as one array, still apart
		{"p[i]", "l[i]=", false, false},   // a local is its own memory
		{"p[6]", "p[5]=", false, false},   // constants
		{"p[i]", "p[5]=", true, true},     // a constant and a base
		{"p[i-1..i+7]", "q[i]=", false, true},
	} {
		a, b := acc[c.a], acc[c.b]
		require.Equal(t, c.distinct, DistinctParams.MayOverlap(a, b), "%s / %s, distinct parameters", c.a, c.b)
		require.Equal(t, c.shared, SharedParams.MayOverlap(a, b), "%s / %s, shared parameters", c.a, c.b)
		require.Equal(t, c.distinct, DistinctParams.MayOverlap(b, a), "%s / %s, distinct parameters", c.b, c.a)
		require.Equal(t, c.shared, SharedParams.MayOverlap(b, a), "%s / %s, shared parameters", c.b, c.a)
	}
}
