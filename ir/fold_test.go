package ir_test

import (
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

func TestFold(t *testing.T) {
	m := NewModule("t")
	g := m.AddGlobal("G", U16, []uint64{10, 20, 30})
	f := m.NewFunction("f", true)
	x := f.AddParam("x", U64)
	f.SetResults(U64, U64, U16, U64)
	b := NewBuilder(f)
	c := func(v uint64) *Value { return b.Const(U64, v) }
	k := b.Add(b.Mul(c(6), c(7)), b.Bin(OpRotl, c(1), c(65))) // 42 + 2
	id := b.Xor(b.Or(b.Add(x, c(0)), c(0)), b.Xor(x, x))      // x
	tbl := b.Load(g, b.Const(U32, 2))                         // 30
	b.Check(b.Ult(b.Const(U32, 1), b.Const(U32, 2)), CheckBounds, lang.Pos{}, "never")
	sel := b.If(b.Eq(c(3), c(3)), []Type{U64}, func(b *Builder) []*Value {
		return []*Value{b.Add(x, b.Const(U64, 1))}
	}, func(b *Builder) []*Value { return []*Value{b.Const(U64, 0)} })
	b.Return(k, id, tbl, b.Add(b.Bin(OpDivU, x, c(8)), sel[0]))
	applyPass(t, m, fold, Options{}, "f", words(0), words(123456789), words(^uint64(0)))
	if n := countOps(m, OpIf) + countOps(m, OpCheck) + countOps(m, OpLoad) + countOps(m, OpDivU); n != 0 {
		t.Fatalf("if, check, table load or division left:\n%s", m)
	}
	ret := m.Funcs[0].Body.Term()
	if v, ok := ConstOf(ret.Args[0]); !ok || v != 44 {
		t.Errorf("first result is not the constant 44:\n%s", m)
	}
	if ret.Args[1] != x {
		t.Errorf("x+0|0^(x^x) is not x:\n%s", m)
	}
	if v, ok := ConstOf(ret.Args[2]); !ok || v != 30 {
		t.Errorf("G[2] is not the constant 30:\n%s", m)
	}
}

// TestFoldMulPow2 turns a product by a power of two into a shift whichever
// side the constant is on (16 * g is how an index is written).
func TestFoldMulPow2(t *testing.T) {
	m := NewModule("t")
	f := m.NewFunction("f", true)
	x := f.AddParam("x", U32)
	f.SetResults(U32, U32)
	b := NewBuilder(f)
	b.Return(b.Mul(b.Const(U32, 16), x), b.Mul(x, b.Const(U32, 8)))
	applyPass(t, m, fold, Options{}, "f", words(0), words(3), words(0x12345678), words(0xffffffff))
	if n := countOps(m, OpMul); n != 0 {
		t.Fatalf("%d products by a power of two left:\n%s", n, m)
	}
	if n := countOps(m, OpShl); n != 2 {
		t.Fatalf("%d shifts, want 2:\n%s", n, m)
	}
}

// TestFoldLimbOps folds the carry and product ops legalization makes.
func TestFoldLimbOps(t *testing.T) {
	m := NewModule("t")
	f := m.NewFunction("f", true)
	x := f.AddParam("x", U8)
	f.SetResults(U8, Bool, U8, U8)
	b := NewBuilder(f)
	s, co := b.Pair(OpAddC, b.Const(U8, 200), b.Const(U8, 100), b.Const(Bool, 1))
	lo, hi := b.Pair(OpMulW, x, b.Const(U8, 1))
	b.Return(s, co, lo, hi)
	applyPass(t, m, fold, Options{}, "f", words(0), words(77), words(255))
	ret := m.Funcs[0].Body.Term()
	if v, _ := ConstOf(ret.Args[0]); v != 45 || !isConst(ret.Args[1], 1) || ret.Args[2] != x || !isConst(ret.Args[3], 0) {
		t.Fatalf("200+100+1 should be 45 carry 1, x*1 should be x, 0:\n%s", m)
	}
}

// TestFoldNegatedBit folds the higher limbs of 0 - (x & 1), the mask of a
// bit legalization splits into a chain of borrows, into the lowest limb.
func TestFoldNegatedBit(t *testing.T) {
	m := NewModule("t")
	f := m.NewFunction("f", true)
	x := f.AddParam("x", U16)
	f.SetResults(U16, U16, U16, Bool)
	b := NewBuilder(f)
	z, no := b.Const(U16, 0), b.Const(Bool, 0)
	lo, b0 := b.Pair(OpSubB, z, b.And(x, b.Const(U16, 1)), no)
	mid, b1 := b.Pair(OpSubB, z, z, b0)
	hi, b2 := b.Pair(OpSubB, z, z, b1)
	b.Return(lo, mid, hi, b2)
	applyPass(t, m, fold, Options{}, "f", words(0), words(1), words(2), words(0xffff))
	ret := m.Funcs[0].Body.Term()
	if ret.Args[1] != ret.Args[0] || ret.Args[2] != ret.Args[0] || countOps(m, OpSubB) != 1 {
		t.Fatalf("the higher limbs of 0 - (x & 1) are not its lowest limb:\n%s", m)
	}
}

// TestFoldMaybeOnes folds what the bits that can be set decide: a masked
// value shifted past its mask, a funnel shift of a zero limb and a small
// one (the high byte of (i & 15) * 4), and the carry out of an add of a
// loop index below 16 and a small constant.
func TestFoldMaybeOnes(t *testing.T) {
	m := NewModule("t")
	f := m.NewFunction("f", true)
	x := f.AddParam("x", U8)
	f.SetResults(U8, U8, U8, U8)
	b := NewBuilder(f)
	masked := b.And(x, b.Const(U8, 15))
	hi := b.Bin(OpShr, masked, b.Const(U8, 4))
	fsh := b.Fsh(OpFshl, b.Const(U8, 0), masked, 2)
	sums := b.For(U8, b.Const(U8, 0), b.Const(U8, 16), []*Value{b.Const(U8, 0)}, func(b *Builder, i *Value, it []*Value) []*Value {
		_, c := b.Pair(OpAddC, i, b.Const(U8, 200), b.Const(Bool, 0))
		return []*Value{b.Add(it[0], b.Op(OpZext, U8, c))}
	})
	b.Return(hi, fsh, sums[0], b.Fsh(OpFshl, b.Const(U8, 0), x, 2))
	applyPass(t, m, fold, Options{}, "f", words(0), words(15), words(0xff), words(0xc7))
	ret := m.Funcs[0].Body.Term()
	if !isConst(ret.Args[0], 0) || !isConst(ret.Args[1], 0) {
		t.Errorf("(x & 15) >> 4 and fshl(0, x & 15, 2) are not 0:\n%s", m)
	}
	if isConst(ret.Args[3], 0) {
		t.Errorf("fshl(0, x, 2) folded to 0 though x can have its top bits:\n%s", m)
	}
	if n := countOps(m, OpZext); n != 0 {
		t.Errorf("the carry of i + 200, i < 16, is still used:\n%s", m)
	}
}
