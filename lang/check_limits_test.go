package lang_test

import "testing"

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
