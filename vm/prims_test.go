package vm_test

import (
	"math/bits"
	"math/rand"
	"slices"
	"testing"

	"github.com/lowent/lowentc/lang"
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

// TestParallelAssignment: `a, b = E1, E2` reads every value before it
// writes any target; the targets' indexes are evaluated first; the stores
// go left to right (a repeated element keeps the last value).
func TestParallelAssignment(t *testing.T) {
	p := load(t, `module t
export fn swap(a: u32, b: u32) -> (u32, u32) effects none {
    var x = a
    var y = b
    x, y = y, x
    return x, y
}
export fn order(v: mut [4]u32, i: u32) effects trap {
    var j = i
    j, v[j] = j + 1, j
    v[j], j = 7, 0
    v[3], v[3] = 5, 6
}
export fn arrays(a: mut [2]u64, b: mut [2]u64, m: mut [2][2]u8) effects none {
    a, b = b, a
    m[0], m[1] = m[1], m[0]
}
`)
	if got := words(call(t, p, "swap", w(1), w(2))); got[0] != 2 || got[1] != 1 {
		t.Errorf("swap(1, 2) = %v, want [2 1]", got)
	}
	v := arr(10, 11, 12, 13)
	call(t, p, "order", v, w(1))
	// v[1] = 1 (the old j), then j = 2 and v[2] = 7; v[3] = 6.
	if want := []uint64{10, 1, 7, 6}; !slices.Equal(v.Elems, want) {
		t.Errorf("order: v = %v, want %v", v.Elems, want)
	}
	// j = 4 after the first assignment: v[4] traps.
	if _, err := try(t, p, "order", arr(0, 0, 0, 0), w(3)); trapOf(t, err) == nil {
		t.Error("order(3) did not trap")
	}
	a, b, m := arr(1, 2), arr(3, 4), lang.Value{IsArray: true, Elems: []uint64{5, 6, 7, 8}}
	call(t, p, "arrays", a, b, m)
	if !slices.Equal(a.Elems, []uint64{3, 4}) || !slices.Equal(b.Elems, []uint64{1, 2}) || !slices.Equal(m.Elems, []uint64{7, 8, 5, 6}) {
		t.Errorf("arrays: a = %v, b = %v, m = %v", a.Elems, b.Elems, m.Elems)
	}
}

// TestRangeViews: a[i..j] reads and writes a's elements i..j-1 in place,
// through calls, chunks and rest, and traps when not i <= j <= len(a).
func TestRangeViews(t *testing.T) {
	p := load(t, `module t
fn fill(s: mut []u32, v: u32) {
    for i in 0..len(s) {
        s[i] = v + i
    }
}
export fn f(a: mut [8]u32, i: u32, j: u32) -> (u32, u32) effects trap {
    fill(a[i..j], 100)
    var n: u32 = 0
    for blk in chunks(a[1..8], 2) {
        n += blk[1]
    }
    a[6..8][0] = len(rest(a[i..8], 4))
    return n, len(a[i..j])
}
`)
	a := arr(0, 1, 2, 3, 4, 5, 6, 7)
	got := words(call(t, p, "f", a, w(2), w(5)))
	// a[2..5] = 100, 101, 102; chunks of a[1..8]: (1 100) (101 102) (5 6).
	if want := []uint64{100 + 102 + 6, 3}; !slices.Equal(got, want) {
		t.Errorf("f(2, 5) = %v, want %v", got, want)
	}
	if want := []uint64{0, 1, 100, 101, 102, 5, 2, 7}; !slices.Equal(a.Elems, want) {
		t.Errorf("f(2, 5): a = %v, want %v", a.Elems, want)
	}
	for _, ij := range [][2]uint64{{5, 4}, {0, 9}, {9, 9}, {1<<32 - 1, 1<<32 - 1}} {
		_, err := try(t, p, "f", arr(0, 1, 2, 3, 4, 5, 6, 7), w(ij[0]), w(ij[1]))
		if tr := trapOf(t, err); tr == nil {
			t.Errorf("f(%d, %d) did not trap", ij[0], ij[1])
		}
	}
}
