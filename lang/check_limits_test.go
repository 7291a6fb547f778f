package lang_test

import (
	"testing"

	"github.com/lowent/lowentc/lang"
)

// TestArraySizeLimit: an array type holding more than 2^24 words in all
// dimensions is an error where it is written, for every kind of
// declaration, with the product computed exactly (no wrap of 65536^k).
func TestArraySizeLimit(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"local, three dimensions", `module t
fn f() -> u8 { var a: @[2][65536][65536]u8 a[1][0][0] = 1 return a[0][0][0] }`, "array of 8589934592 elements is larger than the limit of 16777216"},
		{"local one over", `module t
fn f() { var a: @[257][65536]u8 }`, "array of 16842752 elements is larger than the limit of 16777216"},
		{"parameter", `module t
fn f(a: @[65536][65536]u64) -> u64 { return a[0][0] }`, "array of 4294967296 elements"},
		{"result", `module t
fn f() -> @[512][65536]u8 { var a: [1]u8 return a }`, "array of 33554432 elements"},
		{"const", `module t
const K: @[65536][65536]u8 = [0]`, "array of 4294967296 elements"},
		{"let", `module t
fn f() { let a: @[4096][4096][2]u32 = [] }`, "array of 33554432 elements"},
		{"conversion", `module t
fn f(x: u32) { let y = x as @[65536][65536]u8 }`, "array of 4294967296 elements"},
		{"65536^5 does not wrap", `module t
fn f() { var a: @[65536][65536][65536][65536][65536]u8 }`, "array of 1208925819614629174706176 elements"},
	} {
		t.Run(c.name, func(t *testing.T) { expectErrors(t, c.src, c.want) })
	}
	// The limit itself is accepted.
	mustCheck(t, `module t
fn f() -> u8 { var a: [256][65536]u8 a[255][65535] = 1 return a[0][0] }`)
}

// TestLocalArrayChain: the local arrays a call keeps at once are its own
// (not parameters, not chunk views) and the largest chain below one of its
// calls, wherever the call is (nested expression, else branch, loop).
func TestLocalArrayChain(t *testing.T) {
	files := mustCheck(t, `module t
fn g(x: u8) -> u8 {
    var b: [100]u8
    return b[0] ^ x
}
fn h(x: u8) -> u8 {
    var c: [50]u32
    let d: [2]u64 = [1, 2]
    return (c[0] as u8) + (d[1] as u8) + x
}
fn k(s: []u8) -> u8 {
    var e: [3]u8
    for v in chunks(s, 4) { e[0] ^= v[0] }
    return e[0]
}
fn f(p: [1000]u8, s: []u8) -> u8 {
    var a: [10]u8
    if p[0] == 0 {
        a[0] = g(a[1] + 1)
    } else {
        for i in 0..2 { a[i] = (h(p[1]) ^ 3) + k(s) }
    }
    return a[0]
}
`)
	f := fn(t, files, "f")
	c := lang.LocalArrayChain(f, lang.ArrayBytes)
	if c.Bytes != 226 || c.Largest.Sym.Name != "c" || c.Size != 200 {
		t.Errorf("chain of f: %d bytes, largest %s (%d); want 226, c (200)", c.Bytes, c.Largest.Sym.Name, c.Size)
	}
	if got := c.Describe("bytes"); got != "the largest c of h, 200 bytes, on the calls f -> h" {
		t.Errorf("Describe: %q", got)
	}
	if got := lang.Thousands(16777216); got != "16,777,216" {
		t.Errorf("Thousands: %s", got)
	}
}
