package vm_test

import (
	"math/bits"
	"math/rand"
	"testing"
)

// TestMulW: mulw's halves are those of the full product (math/bits), for
// u64 and u32, through let, assignment and array elements.
func TestMulW(t *testing.T) {
	p := load(t, `module t
export fn m64(a: u64, b: u64) -> (u64, u64) effects none {
    let (lo, hi) = mulw(a, b)
    return lo, hi
}
export fn m32(a: u32, b: u32, out: mut [2]u32) effects none {
    out[1], out[0] = mulw(a, b)
}
`)
	rng := rand.New(rand.NewSource(1))
	vals := []uint64{0, 1, 0xffffffff, 1 << 63, 1<<64 - 1}
	for range 20 {
		vals = append(vals, rng.Uint64())
	}
	for i, a := range vals {
		b := vals[(i*7+3)%len(vals)]
		hi, lo := bits.Mul64(a, b)
		if got := words(call(t, p, "m64", w(a), w(b))); got[0] != lo || got[1] != hi {
			t.Errorf("mulw(%#x, %#x) = %#x, %#x; want %#x, %#x", a, b, got[0], got[1], lo, hi)
		}
		a32, b32 := a&0xffffffff, b&0xffffffff
		out := arr(0, 0)
		call(t, p, "m32", w(a32), w(b32), out)
		if prod := a32 * b32; out.Elems[1] != prod&0xffffffff || out.Elems[0] != prod>>32 {
			t.Errorf("mulw(u32 %#x, %#x) = lo %#x, hi %#x; want %#x", a32, b32, out.Elems[1], out.Elems[0], prod)
		}
	}
}
