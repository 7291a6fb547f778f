package ir_test

import (
	"fmt"
	"math/rand"
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
)

// Programs using each statement form, array kind and builtin, compared with
// the VM at every width.

func bytesVal(rng *rand.Rand, n int) lang.Value {
	v := lang.Value{IsArray: true, Elems: make([]uint64, n)}
	for i := range v.Elems {
		v.Elems[i] = uint64(rng.Intn(256))
	}
	return v
}

func wordsVal(rng *rand.Rand, n int, mask uint64) lang.Value {
	v := lang.Value{IsArray: true, Elems: make([]uint64, n)}
	for i := range v.Elems {
		v.Elems[i] = rng.Uint64() & mask
	}
	return v
}

func TestByteOrderBuiltins(t *testing.T) {
	src := `module t
export fn loads(b: []u8, off: u32) -> (u16, u32, u64, u16, u32, u64) effects trap {
    return load_le16(b, off), load_le32(b, off), load_le64(b, off), load_be16(b, off), load_be32(b, off), load_be64(b, off)
}
export fn stores(b: mut []u8, off: u64, x: u64) effects trap {
    store_le64(b, off, x)
    store_be32(b, off + 8, x as u32)
    store_le16(b, off + 12, (x >> 16) as u16)
    store_be64(b, off + 14, x ^ 0xff)
    store_le32(b, off + 22, x as u32)
    store_be16(b, off + 26, x as u16)
}
export fn fixed(b: mut [16]u8, x: u64) effects none {
    store_be64(b, 8, load_le64(b, 0) ^ x)
}
`
	d := newDiff(t, src)
	rng := rand.New(rand.NewSource(5))
	buf := bytesVal(rng, 20)
	for off := uint64(0); off < 22; off++ {
		d.check("loads", buf, lang.Value{Word: off})
	}
	for _, off := range []uint64{0, 1, 2, 3, 4, 5, 1 << 32, 1<<64 - 1} {
		d.check("stores", bytesVal(rng, 32), lang.Value{Word: off}, lang.Value{Word: rng.Uint64()})
	}
	d.check("fixed", bytesVal(rng, 16), lang.Value{Word: rng.Uint64()})
	if d.err == 0 {
		t.Error("no out-of-range byte access trapped")
	}
}

func TestCarrylessAndAES(t *testing.T) {
	src := `module t
export fn cl(a: u64, b: u64) -> (u64, u64) effects none { return clmul_lo(a, b), clmul_hi(a ^ 1, b) }
export fn round(s0: u64, s1: u64, k0: u64, k1: u64) -> (u64, u64) effects none {
    let (a, b) = aes_enc(s0, s1, k0, k1)
    let (c, d) = aes_enclast(a, b, k1, k0)
    return c, d
}
`
	d := newDiff(t, src)
	rng := rand.New(rand.NewSource(6))
	for i := 0; i < 5; i++ {
		d.check("cl", words(rng.Uint64(), rng.Uint64())...)
		d.check("round", words(rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64())...)
	}
}

// TestMulW: the double-width product of u32 and u64, at every width
// (legalized into limb products and carries below the operand's width).
func TestMulW(t *testing.T) {
	src := `module t
export fn m64(a: u64, b: u64) -> (u64, u64) effects none {
    let (lo, hi) = mulw(a, b)
    return lo, hi
}
export fn m32(a: u32, b: u32) -> (u32, u32, u64) effects none {
    var lo: u32
    var hi: u32
    lo, hi = mulw(a, b)
    let (_, h) = mulw(a as u64 | 0xffff_ffff_0000_0000, 7)
    return lo, hi, h
}
`
	d := newDiff(t, src)
	// Java Card's pipeline: mulw expanded into half-limb products.
	for _, w := range []int{64, 32, 16, 8} {
		m, err := lower.Compile(d.p, Options{W: w, Unroll: DefaultUnroll, Verify: true, Expand: ExpandMulW})
		if err != nil {
			t.Fatalf("compile W=%d with mulw expanded: %v", w, err)
		}
		d.ms = append(d.ms, m)
		d.names = append(d.names, fmt.Sprintf("%d with mulw expanded", w))
	}
	rng := rand.New(rand.NewSource(7))
	edge := []uint64{0, 1, 2, 0xffffffff, 0x100000000, 0x8000000000000000, 1<<64 - 1}
	for _, a := range edge {
		for _, b := range edge {
			d.check("m64", words(a, b)...)
			d.check("m32", words(a&0xffffffff, b&0xffffffff)...)
		}
	}
	for i := 0; i < 20; i++ {
		d.check("m64", words(rng.Uint64(), rng.Uint64())...)
		d.check("m32", words(rng.Uint64()&0xffffffff, rng.Uint64()&0xffffffff)...)
	}
}

// TestParallelAssignment: `a, b = E1, E2` of words, elements, whole
// arrays and rows, with the values read before any store, at every width.
func TestParallelAssignment(t *testing.T) {
	src := `module t
export fn swap(a: u32, b: u64) -> (u32, u64) effects none {
    var x = a
    var y = b
    var z = a as u8
    x, y, z = (y >> 3) as u32, x as u64 + y, z ^ 0x5a
    x, z = x + 1, z + (x as u8)
    return x + z as u32, y
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
    var c: [2]u64
    c, a[0], _ = a, b[1], m[0][1]
    b = c
}
`
	d := newDiff(t, src)
	rng := rand.New(rand.NewSource(8))
	for i := 0; i < 5; i++ {
		d.check("swap", words(rng.Uint64()&0xffffffff, rng.Uint64())...)
		d.check("order", wordsVal(rng, 4, 0xffffffff), lang.Value{Word: uint64(i)})
		d.check("arrays", wordsVal(rng, 2, 1<<64-1), wordsVal(rng, 2, 1<<64-1), bytesVal(rng, 4))
	}
	if d.err == 0 {
		t.Error("no parallel assignment trapped")
	}
}

// TestRangeViews: a[i..j] as a slice argument, a fixed array argument, a
// chunk source and a rest source, written through, checked, at every width.
func TestRangeViews(t *testing.T) {
	src := `module t
fn fill(s: mut []u32, v: u32) {
    for i in 0..len(s) {
        s[i] = v + i
    }
}
fn sum4(s: [4]u16) -> u16 {
    return s[0] + s[1] + s[2] + s[3]
}
export fn f(a: mut [8]u32, i: u64, j: u8, h: [6]u16) -> (u32, u32, u16) effects trap {
    fill(a[i..j], 100)
    var n: u32 = 0
    for blk in chunks(a[1..8], 2) {
        n += blk[1]
    }
    a[6..8][0] = len(rest(a[i..8], 4))
    return n, len(a[i..j]), sum4(h[1..5]) + h[2..4][1]
}
export fn g(s: mut []u8, k: u8) effects trap {
    for blk in chunks(s[1..len(s)], 2) {
        blk[0] = blk[1] + k
    }
}
`
	d := newDiff(t, src)
	rng := rand.New(rand.NewSource(9))
	for _, ij := range [][2]uint64{{2, 5}, {0, 8}, {8, 8}, {3, 3}, {5, 4}, {0, 9}, {1 << 40, 4}} {
		d.check("f", wordsVal(rng, 8, 0xffffffff), lang.Value{Word: ij[0]}, lang.Value{Word: ij[1] & 0xff}, wordsVal(rng, 6, 0xffff))
	}
	for _, n := range []int{0, 1, 2, 5, 8} {
		d.check("g", bytesVal(rng, n), lang.Value{Word: uint64(rng.Intn(256))})
	}
	if d.err == 0 {
		t.Error("no range view trapped")
	}
}

func TestLoopsAndVariables(t *testing.T) {
	src := `module t
// Loops with run-time bounds of every index type, and variables carried
// across iterations and branches.
export fn sums(n8: u8, n16: u16, n64: u64, lo: u32, hi: u32) -> (u64, u64, u64, u64) effects none {
    var a: u64 = 0
    for i in 0..n8 { a += i as u64 }
    var b: u64 = 1
    for i in 3..n16 { if (i & 1) == 0 { b *= 3 } else { b ^= i as u64 } }
    var c: u64
    for i in (n64 >> 60)..(n64 >> 58) { c = (c <<< 5) + i }
    var d: u64 = 7
    for i in lo..hi {
        for j in 0..4 { d += (i as u64) * (j as u64) }
    }
    return a, b, c, d
}
// Every constant-trip loop here unrolls; the array becomes scalars.
export fn fib(x: u32) -> u32 effects none {
    var f: [12]u32
    f[0] = x
    f[1] = x + 1
    for i in 2..12 { f[i] = f[i - 1] + f[i - 2] }
    return f[11]
}
export fn swap(a: u16, b: u16) -> (u16, u16) effects none {
    var x = a
    var y = b
    for i in 0..3 {
        let t = x
        x = y
        y = t + (i as u16)
    }
    return x, y
}
`
	d := newDiff(t, src)
	// Java Card's pipeline: mulw expanded into half-limb products.
	for _, w := range []int{64, 32, 16, 8} {
		m, err := lower.Compile(d.p, Options{W: w, Unroll: DefaultUnroll, Verify: true, Expand: ExpandMulW})
		if err != nil {
			t.Fatalf("compile W=%d with mulw expanded: %v", w, err)
		}
		d.ms = append(d.ms, m)
		d.names = append(d.names, fmt.Sprintf("%d with mulw expanded", w))
	}
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 6; i++ {
		d.check("sums", words(uint64(rng.Intn(256)), uint64(rng.Intn(70)), rng.Uint64(), uint64(rng.Intn(10)), uint64(rng.Intn(20)))...)
		d.check("fib", words(rng.Uint64()&0xffffffff)...)
		d.check("swap", words(uint64(rng.Intn(65536)), uint64(rng.Intn(65536)))...)
	}
	d.check("sums", words(255, 2, 1<<63, 5, 3)...)
}

func TestEarlyReturns(t *testing.T) {
	src := `module t
export fn find(a: []u32, x: u32) -> (bool, u32) effects none {
    for i in 0..len(a) {
        if a[i] == x {
            return true, i
        }
    }
    return false, 0
}
export fn classify(x: u8) -> u8 effects none {
    if x < 10 { return 1 }
    if x < 100 {
        if x == 50 { return 5 } else { return 2 }
    }
    var y = x
    for k in 0..3 {
        y = y >> 1
        if y < 40 { return 30 + (k as u8) }
    }
    return y
}
export fn count(a: mut []u8) effects none {
    for k, c in chunks(a, 2) {
        if c[0] == 0 { return }
        c[1] = k as u8
    }
}
`
	d := newDiff(t, src)
	arr := lang.Value{IsArray: true, Elems: []uint64{5, 9, 2, 9, 11}}
	for _, x := range []uint64{5, 9, 11, 3, 0} {
		d.check("find", arr, lang.Value{Word: x})
	}
	for x := uint64(0); x < 256; x += 7 {
		d.check("classify", words(x)...)
	}
	d.check("classify", words(50)...)
	d.check("count", lang.Value{IsArray: true, Elems: []uint64{1, 9, 2, 9, 0, 9, 4, 4, 7}})
}

func TestArrays(t *testing.T) {
	src := `module t
const T: [3][4]u16 = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 0xffff]]
const K: u64 = 0x1234_5678_9abc_def0

fn row_sum(r: [4]u16) -> u32 {
    var s: u32 = 0
    for i in 0..4 { s += r[i] as u32 }
    return s
}

fn rev(a: [4]u16) -> [4]u16 {
    return [a[3], a[2], a[1], a[0]]
}

fn fill(m: mut [2][4]u16, x: u16) {
    for i in 0..2 {
        for j in 0..4 { m[i][j] = x + (i as u16) * 4 + (j as u16) }
    }
}

export fn nested(i: u32, j: u32) -> (u16, u32, u16) effects trap {
    let r = T[i]
    var m: [2][4]u16
    fill(m, r[j & 3])
    let back = rev(m[1])
    m[0] = back
    m[1][2] = 0
    return T[i][j], row_sum(m[0]) + row_sum(m[1]), back[0]
}

// Arrays are values: let, var and = copy them.
export fn copies(a: mut [8]u64, k: u8) -> u64 effects trap {
    var b = a
    let c = a
    a[k] = K
    b[1] = a[k]
    a = b
    var sum: u64 = 0
    for i in 0..8 { sum += c[i] ^ b[i] }
    return sum
}

export fn slices(s: mut []u32, t: []u32) -> u32 effects trap {
    let tail = rest(t, 4)
    var acc: u32 = len(tail)
    for x, y in chunks(s, t, 4) {
        x[0] += y[3]
        acc ^= x[1]
    }
    for i in 0..len(tail) { acc += tail[i] }
    let r2 = rest(s, 3)
    for i in 0..len(r2) { r2_touch(s, i) }
    return acc
}

fn r2_touch(s: mut []u32, i: u32) requires len(s) > 0 {
    s[i % len(s)] += 1
}

export fn results() -> [3]u8 effects none {
    return [1, 2, 3]
}
`
	d := newDiff(t, src)
	rng := rand.New(rand.NewSource(8))
	for i := uint64(0); i < 4; i++ {
		for j := uint64(0); j < 5; j++ {
			d.check("nested", words(i, j)...)
		}
	}
	for k := uint64(0); k < 9; k++ {
		d.check("copies", wordsVal(rng, 8, ^uint64(0)), lang.Value{Word: k})
	}
	for _, n := range []int{0, 3, 4, 8, 11, 13} {
		d.check("slices", wordsVal(rng, n, 0xffffffff), wordsVal(rng, n, 0xffffffff))
	}
	d.check("slices", wordsVal(rng, 8, 0xffffffff), wordsVal(rng, 9, 0xffffffff))
	d.check("results")
	if d.err == 0 {
		t.Error("no check trapped")
	}
}

func TestRequiresAndUnchecked(t *testing.T) {
	src := `module t
fn second(s: []u8) -> u8 requires len(s) >= 2 { return s[1] }

export fn call(s: []u8) -> u8 effects trap { return second(s) }

export fn entry(s: []u8, n: u32) -> u8 requires len(s) == n, n > 2 effects trap { return s[2] }

export fn raw(s: mut []u16, i: u32, v: u16) -> u16 effects unsafe {
    var x: u16 = 0
    absorb unsafe because "tested" { unchecked_set(s, i, v) }
    return unchecked_get(s, i) + x
}
`
	d := newDiff(t, src)
	rng := rand.New(rand.NewSource(9))
	for n := 0; n < 4; n++ {
		d.check("call", bytesVal(rng, n))
		d.check("entry", bytesVal(rng, n), lang.Value{Word: uint64(n)})
		d.check("entry", bytesVal(rng, n), lang.Value{Word: 3})
	}
	for i := uint64(0); i < 6; i++ {
		d.check("raw", wordsVal(rng, 4, 0xffff), lang.Value{Word: i}, lang.Value{Word: 0xbeef})
	}
}
