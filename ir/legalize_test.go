package ir_test

import (
	"fmt"
	"math/rand"
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

func TestLegalizeAddPrinted(t *testing.T) {
	m := NewModule("t")
	f := m.NewFunction("f", true)
	x, y := f.AddParam("x", U32), f.AddParam("y", U32)
	f.SetResults(U32)
	b := NewBuilder(f)
	b.Return(b.Add(x, y))
	if err := legalize(m, &Options{W: 16}); err != nil {
		t.Fatal(err)
	}
	want := `module t w=16

export func f(%0:u16 x.0, %1:u16 x.1, %2:u16 y.0, %3:u16 y.1) -> (u16, u16) {
  %4:bool = const 0
  %5:u16, %6:bool = addc %0, %2, %4
  %7:u16, %8:bool = addc %1, %3, %6
  return %5, %7
}
`
	if got := m.String(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	res, err := Run(m, "f", words(0x0001ffff, 0x0002ffff))
	if err != nil || res[0].Word != 0x0004fffe {
		t.Fatalf("f = %v, %v; want 0x4fffe", res, err)
	}
}

// TestLegalizeRotateIsRename: a rotate by a multiple of W moves no bits.
func TestLegalizeRotateIsRename(t *testing.T) {
	m := NewModule("t")
	f := m.NewFunction("f", true)
	x := f.AddParam("x", U64)
	f.SetResults(U64)
	b := NewBuilder(f)
	b.Return(b.Bin(OpRotr, x, b.Const(U8, 48)))
	if err := Optimize(m, Options{W: 16, Verify: true}); err != nil {
		t.Fatal(err)
	}
	body := m.Funcs[0].Body
	ps := m.Funcs[0].Params
	if len(body.Instrs) != 1 {
		t.Fatalf("rotate by 48 at W=16 left instructions:\n%s", m)
	}
	ret := body.Term()
	for j := 0; j < 4; j++ {
		if ret.Args[j] != ps[(j+3)%4].Val {
			t.Fatalf("limb %d is not input limb %d:\n%s", j, (j+3)%4, m)
		}
	}
}

// wideOps builds a function of two u64 and a u32 using every op that
// legalization rewrites, returning many results.
func wideOps() *Module {
	m := NewModule("t")
	g := m.AddGlobal("G", U64, []uint64{0x0123456789abcdef, 0xfedcba9876543210, 7})
	f := m.NewFunction("f", true)
	x, y := f.AddParam("x", U64), f.AddParam("y", U64)
	s := f.AddParam("s", U32)
	buf := f.AddArrayParam("buf", U8, 24, true)
	arr := f.AddArrayParam("arr", U64, -1, true)
	var outs []*Value
	b := NewBuilder(f)
	out := func(v *Value) { outs = append(outs, v) }
	for _, op := range []Op{OpAdd, OpSub, OpMul, OpDivU, OpRemU, OpAnd, OpOr, OpXor, OpShl, OpShr, OpRotl, OpRotr} {
		out(b.Bin(op, x, y))
		out(b.Bin(op, b.Trunc(U32, x), b.Trunc(U32, y)))
	}
	for _, op := range []Op{OpShl, OpShr, OpRotl, OpRotr} {
		out(b.Bin(op, x, s))
		out(b.Bin(op, x, b.Const(U8, 13)))
		out(b.Bin(op, b.Trunc(U16, y), s))
	}
	for _, op := range []Op{OpEq, OpNe, OpUlt, OpUle} {
		out(b.Zext(U64, b.Bin(op, x, y)))
		out(b.Zext(U8, b.Bin(op, b.Trunc(U32, x), s)))
	}
	out(b.Op(OpNeg, U64, x))
	out(b.Not(x))
	out(b.Select(b.Ult(s, b.Const(U32, 100)), x, y))
	out(b.Zext(U64, b.Trunc(U8, x)))
	out(b.Trunc(U16, y))
	out(b.Fsh(OpFshl, x, y, 9))
	out(b.Fsh(OpFshr, x, y, 40))
	out(b.Op(OpClmulLo, U64, x, y))
	aes := b.Instr(OpAESEnc, []Type{U64, U64}, x, y, y, x)
	out(aes.Results[0])
	out(aes.Results[1])
	i := b.Zext(U32, b.Trunc(U8, b.And(s, b.Const(U32, 1))))
	out(b.Load(g, b.Add(i, b.Const(U32, 1))))
	out(b.LoadBytes(true, 64, buf, b.Const(U32, 3)))
	out(b.LoadBytes(false, 32, buf, i))
	out(b.LoadBytes(true, 16, buf, i))
	b.StoreBytes(false, buf, x, b.Const(U32, 16))
	b.StoreBytes(true, buf, b.Trunc(U32, y), b.Const(U32, 9))
	b.Store(arr, b.Xor(b.Load(arr, i), y), i)
	out(b.Zext(U64, b.Len(arr)))
	loop := b.For(U64, b.Const(U64, 1), b.And(y, b.Const(U64, 7)), []*Value{x}, func(b *Builder, k *Value, it []*Value) []*Value {
		return []*Value{b.Add(b.Bin(OpRotl, it[0], k), k)}
	})
	out(loop[0])
	types := make([]Type, len(outs))
	for i, v := range outs {
		types[i] = v.Type
	}
	f.SetResults(types...)
	b.Return(outs...)
	return m
}

// TestLegalizeEveryWidth: the legalized function agrees with the original
// at every width on edge and random inputs.
func TestLegalizeEveryWidth(t *testing.T) {
	rng := rand.New(rand.NewSource(10))
	var inputs [][]lang.Value
	edge := []uint64{0, 1, 0xffffffffffffffff, 0x8000000000000000, 0xffffffff, 0x100000000, 63, 64}
	for _, x := range edge {
		for _, y := range edge {
			inputs = append(inputs, []lang.Value{{Word: x}, {Word: y}, {Word: y & 0xffffffff},
				bytesVal(rng, 24), wordsVal(rng, 3, ^uint64(0))})
		}
	}
	for n := 0; n < 30; n++ {
		inputs = append(inputs, []lang.Value{{Word: rng.Uint64()}, {Word: rng.Uint64() >> uint(rng.Intn(64))}, {Word: uint64(rng.Intn(200))},
			bytesVal(rng, 24), wordsVal(rng, 2, ^uint64(0))})
	}
	ref := wideOps()
	if err := ref.Verify(); err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{64, 32, 16, 8} {
		m := wideOps()
		if err := legalize(m, &Options{W: w}); err != nil {
			t.Fatal(err)
		}
		if err := m.Verify(); err != nil {
			t.Fatalf("W=%d: %v", w, err)
		}
		for _, in := range inputs {
			a, b := lang.CopyValues(in), lang.CopyValues(in)
			want, werr := Run(ref, "f", a)
			got, err := Run(m, "f", b)
			if fmt.Sprint(got, err, b) != fmt.Sprint(want, werr, a) {
				t.Fatalf("W=%d, input %v:\n got %v %v %v\nwant %v %v %v", w, in, got, err, b, want, werr, a)
			}
		}
	}
}
