package ir_test

import (
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
	"github.com/stretchr/testify/require"
)

// pairsFunction is f(i: u32, j: u32, p: mut [16]u64, q: mut [64]u8) with
// the instructions body adds, and a map from a name to each access.
func pairsFunction(t *testing.T, body func(b *Builder, i, j *Value, p, q *Array, at func(name string))) map[string]*Instr {
	m := NewModule("t")
	f := m.NewFunction("f", true)
	i, j := f.AddParam("i", U32), f.AddParam("j", U32)
	p := f.AddArrayParam("p", U64, 16, true)
	q := f.AddArrayParam("q", U8, 64, true)
	b := NewBuilder(f)
	acc := map[string]*Instr{}
	body(b, i, j, p, q, func(name string) { acc[name] = b.Blk.Instrs[len(b.Blk.Instrs)-1] })
	b.Return()
	require.NoError(t, m.Verify())
	acc["body"] = &Instr{Blocks: []*Block{f.Body}}
	return acc
}

// TestFindPairs128Loads: adjacent 64-bit loads pair at the first, lower
// address first whatever their order; a big-endian pair of byte loads
// pairs, a little- and a big-endian one do not; a store to the array, a
// check or a call between two loads keeps them apart.
func TestFindPairs128Loads(t *testing.T) {
	acc := pairsFunction(t, func(b *Builder, i, j *Value, p, q *Array, at func(string)) {
		one, two, three := b.Const(U32, 1), b.Const(U32, 2), b.Const(U32, 3)
		b.Load(p, i)
		at("p[i]")
		b.Load(p, b.Add(i, one))
		at("p[i+1]")
		b.Load(p, b.Add(i, three))
		at("p[i+3]")
		b.Load(p, b.Add(i, two))
		at("p[i+2]")
		b.LoadBytes(true, 64, q, j)
		at("q[j]be")
		b.LoadBytes(true, 64, q, b.Add(j, b.Const(U32, 8)))
		at("q[j+8]be")
		b.LoadBytes(false, 64, q, b.Add(j, b.Const(U32, 16)))
		at("q[j+16]le")
		b.LoadBytes(true, 64, q, b.Add(j, b.Const(U32, 24)))
		at("q[j+24]be")
		b.LoadBytes(true, 32, q, b.Add(j, b.Const(U32, 32)))
		at("q[j+32]be32")
		b.Load(p, j)
		at("p[j]")
		b.Store(p, b.Const(U64, 0), b.Const(U32, 9))
		b.Load(p, b.Add(j, one))
		at("p[j+1]")
		b.Load(p, b.Const(U32, 10))
		b.Check(b.Ult(i, j), CheckBounds, sem.Pos{}, "i < j")
		b.Load(p, b.Const(U32, 11))
	})
	pairs := FindPairs128(acc["body"].Blocks[0], DistinctParams)
	require.Equal(t, []Pair128{
		{Lo: acc["p[i]"], Hi: acc["p[i+1]"], At: acc["p[i]"], Skip: acc["p[i+1]"]},
		{Lo: acc["p[i+2]"], Hi: acc["p[i+3]"], At: acc["p[i+3]"], Skip: acc["p[i+2]"]},
		{Lo: acc["q[j]be"], Hi: acc["q[j+8]be"], At: acc["q[j]be"], Skip: acc["q[j+8]be"]},
	}, pairs.Loads)
	require.Empty(t, pairs.Stores)
	_, ok := WordAccessOf(acc["q[j+32]be32"])
	require.False(t, ok, "a 32-bit load is no word of the pair form")
	w, ok := WordAccessOf(acc["q[j]be"])
	require.True(t, ok)
	require.Equal(t, int64(8), w.Unit)
	require.True(t, w.BE)
}

// TestFindPairs128Stores: adjacent stores pair at the second; consecutive
// pairs with nothing else stored between them form one chain; a store
// that may write the first store's bytes, or a load of the array, keeps a
// pair from forming.
func TestFindPairs128Stores(t *testing.T) {
	acc := pairsFunction(t, func(b *Builder, i, j *Value, p, q *Array, at func(string)) {
		x := b.Const(U64, 7)
		for k := range 6 {
			b.Store(p, x, b.Add(i, b.Const(U32, uint64(k))))
			at("p[i+" + string(rune('0'+k)) + "]=")
		}
		b.Store(p, x, b.Const(U32, 0))
		at("p[0]=")
		b.Store(p, x, j)
		at("p[j]=")
		b.Store(p, x, b.Const(U32, 1))
		at("p[1]=")
		b.Store(p, x, b.Const(U32, 3))
		b.Load(p, b.Const(U32, 8))
		b.Store(p, x, b.Const(U32, 4))
		b.StoreBytes(false, q, x, b.Const(U32, 8))
		at("q[8]=")
		b.StoreBytes(false, q, x, b.Const(U32, 0))
		at("q[0]=")
	})
	pairs := FindPairs128(acc["body"].Blocks[0], DistinctParams)
	pair := func(lo, hi string) Pair128 {
		return Pair128{Lo: acc[lo], Hi: acc[hi], At: acc[hi], Skip: acc[lo]}
	}
	p01, p23, p45 := pair("p[i+0]=", "p[i+1]="), pair("p[i+2]=", "p[i+3]="), pair("p[i+4]=", "p[i+5]=")
	qp := Pair128{Lo: acc["q[0]="], Hi: acc["q[8]="], At: acc["q[0]="], Skip: acc["q[8]="]}
	require.Equal(t, []Pair128{p01, p23, p45, qp}, pairs.Stores)
	require.Equal(t, [][]Pair128{{p01, p23, p45}, {qp}}, pairs.StoreChains)
	require.Empty(t, pairs.Loads)
	// Taken as one array, p and q still hold no pair across them.
	require.Equal(t, pairs, FindPairs128(acc["body"].Blocks[0], SharedParams))
}
