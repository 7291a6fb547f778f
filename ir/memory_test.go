package ir_test

import (
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

// TestMemoryLimit: the interpreter refuses, before allocating, a call
// whose local arrays (its own and its callees') pass 2^28 limbs, as two
// [256][65536]u64 arrays and a few bytes do at W=8; at W=64 the same
// program (2^25 limbs) runs.
func TestMemoryLimit(t *testing.T) {
	p := load(t, `module t
fn g(x: u8) -> u64 {
    var b: [256][65536]u64
    b[255][x as u32] = x as u64
    return b[255][3]
}
export fn f(x: u8) -> u64 effects none {
    var a: [256][65536]u64
    var c: [300]u8
    a[0][x as u32] = 1
    c[x as u32] = x
    return a[0][2] + g(x) + (c[3] as u64)
}
`)
	// f(3): a[0][2] = 0, g gives b[255][3] = 3, c[3] = 3. (The VM refuses
	// this program: its own limit is 2^25 words.)
	args := []lang.Value{{Word: 3}}
	got, err := Run(compile(t, p, 64), "f", args)
	if err != nil || got[0].Word != 6 {
		t.Errorf("W=64: f(3) = %v, %v; want 6", got, err)
	}
	_, err = Run(compile(t, p, 8), "f", args)
	const msg = "t.lw:7:1: ir: a call of f needs 268,435,756 limbs of local arrays; the interpreter's limit is 268,435,456 limbs (2 GiB)"
	if err == nil || err.Error() != msg {
		t.Errorf("W=8: error %v\nwant %s", err, msg)
	}
}
