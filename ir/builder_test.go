package ir_test

import (
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/stretchr/testify/require"
)

// xaFunction starts module t with export f(x: u64, a: mut [4]u64) -> u64
// and returns a builder of its body.
func xaFunction() (*Module, *Value, *Array, *Builder) {
	m := NewModule("t")
	f := m.NewFunction("f", true)
	x := f.AddParam("x", U64)
	a := f.AddArrayParam("a", U64, 4, true)
	f.SetResults(U64)
	return m, x, a, NewBuilder(f)
}

// sumModule builds: f(x: u64, a: mut [4]u64) -> u64 that runs
// acc += a[i]*x; a[i] = acc over i in 0..4 and returns acc.
func sumModule() *Module {
	m, x, a, b := xaFunction()
	lo, hi := b.Const(U32, 0), b.Const(U32, 4)
	res := b.For(U32, lo, hi, []*Value{b.Const(U64, 0)}, func(b *Builder, i *Value, it []*Value) []*Value {
		acc := b.Add(it[0], b.Mul(b.Load(a, i), x))
		b.Store(a, acc, i)
		return []*Value{acc}
	})
	b.Return(res[0])
	return m
}

func TestBuilderPrintRun(t *testing.T) {
	m := sumModule()
	require.NoError(t, m.Verify())
	want := `module t

export func f(%0:u64 x, a: mut [4]u64) -> (u64) {
  %1:u32 = const 0
  %2:u32 = const 4
  %3:u64 = const 0
  %4:u64 = for %5:u32 = %1 to %2 iter(%6:u64 = %3) {
    %7:u64 = load a[%5]
    %8:u64 = mul %7, %0
    %9:u64 = add %6, %8
    store a[%5], %9
    yield %9
  }
  return %4
}
`
	require.Equal(t, want, m.String())
	arr := lang.Value{IsArray: true, Elems: []uint64{1, 2, 3, 4}}
	out, err := Run(m, "f", []lang.Value{{Word: 10}, arr})
	require.NoError(t, err)
	require.Equal(t, uint64(100), out[0].Word)
	require.Equal(t, []uint64{10, 30, 60, 100}, arr.Elems)
}

// TestPrintStructured shows the text of an if with results and of a loop
// whose index is a limb group (legalized at W=16).
func TestPrintStructured(t *testing.T) {
	m := NewModule("t")
	f := m.NewFunction("g", false)
	c := f.AddParam("c", Bool)
	n := f.AddParam("n", U32)
	f.SetResults(U32)
	b := NewBuilder(f)
	r := b.If(c, []Type{U32}, func(b *Builder) []*Value { return []*Value{b.Const(U32, 0x12345)} },
		func(b *Builder) []*Value { return []*Value{n} })
	s := b.For(U32, b.Const(U32, 0), r[0], []*Value{n}, func(b *Builder, i *Value, it []*Value) []*Value {
		return []*Value{b.Xor(it[0], i)}
	})
	b.Return(s[0])
	if err := legalize(m, &Options{W: 16}); err != nil {
		t.Fatal(err)
	}
	want := `func g(%0:bool c, %1:u16 n.0, %2:u16 n.1) -> (u16, u16) {
  %3:u16, %4:u16 = if %0 {
    %5:u16 = const 0x2345
    %6:u16 = const 1
    yield %5, %6
  } else {
    yield %1, %2
  }
  %7:u16 = const 0
  %8:u16 = const 0
  %9:u16, %10:u16 = for {%11:u16, %12:u16} = {%7, %8} to {%3, %4} iter(%13:u16 = %1, %14:u16 = %2) {
    %15:u16 = xor %13, %11
    %16:u16 = xor %14, %12
    yield %15, %16
  }
  return %9, %10
}
`
	require.Equal(t, want, f.String())
	require.NoError(t, m.Verify())
}
