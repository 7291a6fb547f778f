package ir_test

import (
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
)

// TestExpandPass: with every expansion, no divu/remu by a variable, no
// rotate by a variable and no mulw is left at W = 32, 16 and 8, and the
// answers are the VM's.
func TestExpandPass(t *testing.T) {
	p := load(t, `module t
export fn f(x: u64, y: u64, a: u8, b: u8, n: u32) -> (u64, u64, u8, u8, u32, u64) effects trap {
    var d = y
    if d == 0 { d = 3 }
    var e = b
    if e == 0 { e = 1 }
    return x / d, x % d, a / e, a % e, (n <<< (a as u32)) ^ (n >>> (b as u32)), x * y + (x <<< (n & 63))
}`)
	all := ExpandDiv | ExpandRotate | ExpandMulW
	inputs := [][]uint64{{0, 0, 0, 0, 0}, {1, 1, 1, 1, 1}, {0xffffffffffffffff, 0x100000001, 255, 16, 0xdeadbeef},
		{0x123456789abcdef0, 0xfedcba9876543210, 200, 255, 0x80000000}, {12345, 0x8000000000000000, 7, 3, 33}}
	for _, w := range []int{32, 16, 8} {
		m, err := lower.Compile(p, Options{W: w, Unroll: DefaultUnroll, Expand: all, Verify: true})
		if err != nil {
			t.Fatal(err)
		}
		var left int
		for _, f := range m.Funcs {
			walkInstrs(f.Body, func(in *Instr) {
				_, c := ConstOf(argOr(in, 1))
				switch {
				case in.Op == OpMulW, (in.Op == OpDivU || in.Op == OpRemU || in.Op == OpRotl || in.Op == OpRotr) && !c:
					left++
				}
			})
		}
		if left > 0 {
			t.Errorf("W=%d: %d ops left that should be expanded", w, left)
		}
		for _, in := range inputs {
			args := []lang.Value{{Word: in[0]}, {Word: in[1]}, {Word: in[2]}, {Word: in[3]}, {Word: in[4]}}
			want, err := vmRun(p, "f", lang.CopyValues(args))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Run(m, "f", lang.CopyValues(args))
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if got[i].Word != want[i].Word {
					t.Errorf("W=%d f%v: result %d is %#x, want %#x", w, in, i, got[i].Word, want[i].Word)
				}
			}
		}
	}
}
