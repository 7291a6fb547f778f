package vm_test

import (
	"testing"

	"github.com/lowent/lowentc/lang"
)

// TestMemoryLimit: a call whose local arrays (its own and its callees')
// take 2^25 words runs; one word more is refused before anything is
// allocated, at the largest array, instead of the VM running out of memory.
func TestMemoryLimit(t *testing.T) {
	const src = `module t
fn g(x: u8) -> u8 {
    var b: [256][65536]u8
    b[255][x as u32] = x
    return b[255][3]
}
export fn f(x: u8) -> u8 effects none {
    var a: [256][65536]u8
    a[0][x as u32] = 1
    return a[0][2] + g(x)
}
export fn over(x: u8) -> u8 effects none {
    var c: [1]u8
    c[0] = x
    return f(x) + c[0]
}
`
	p := load(t, src)
	if got := words(call(t, p, "f", lang.Value{Word: 3})); got[0] != 3 {
		t.Errorf("f(3) = %d, want 3", got[0])
	}
	_, err := try(t, p, "over", lang.Value{Word: 3})
	const want = "t.lw:3:5: vm: a call of over needs 33,554,433 words of local arrays (the largest b of g, 16,777,216 words, on the calls over -> f -> g); the VM's limit is 33,554,432 words (256 MiB)"
	if err == nil || err.Error() != want {
		t.Errorf("over: error %v\nwant %s", err, want)
	}
}
