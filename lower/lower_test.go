package lower

import (
	"testing"

	"github.com/lowent/lowentc/ir"
	"github.com/stretchr/testify/require"
)

// TestLowerPrinted shows the lowered form of a small function: the assigned
// variable s lives in a cell, the loop has no loop-carried values yet, and
// the unproven divisor gets a check.
func TestLowerPrinted(t *testing.T) {
	p := load(t, `module t
export fn f(a: [4]u32, n: u32) -> u32 effects trap {
    var s: u32 = 0
    for i in 0..4 { s += a[i] }
    return s / n
}
`)
	m, err := Program(p)
	require.NoError(t, err)
	want := `module t

export func f(a: [4]u32, %0:u32 n) -> (u32) {
  local s: [1]u32
  %1:u32 = const 0
  %2:u32 = const 4
  %3:u32 = const 0
  %4:u32 = const 0
  store s[%4], %3
  %5:u32 = const 0
  %6:u32 = const 4
  for %7:u32 = %5 to %6 {
    %8:u32 = const 0
    %9:u32 = load s[%8]
    %10:u32 = load a[%7]
    %11:u32 = add %9, %10
    %12:u32 = const 0
    store s[%12], %11
    yield
  }
  %13:u32 = const 0
  %14:u32 = load s[%13]
  %15:u32 = const 0
  %16:bool = ne %0, %15
  check %16 div "division by zero" at t.lw:5:14
  %17:u32 = divu %14, %0
  return %17
}
`
	require.Equal(t, want, m.String())
	require.NoError(t, m.Verify())
}

// TestLowerErrors: the lowering reports, never panics, on a program the checker
// did not finish (here: a call whose callee was never resolved).
func TestLowerErrors(t *testing.T) {
	p := load(t, "module t\nexport fn f(x: u8) -> u8 effects none { return x }\n")
	p.Root.Funcs[0].Params[0].Sym = nil
	_, err := Compile(p, ir.Options{})
	require.Error(t, err)
}
