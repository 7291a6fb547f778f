package lang_test

import (
	"testing"

	"github.com/lowent/lowentc/lang"
)

// TestViewProofs: a range view is proven in bounds (no trap) when its
// bounds are constants within a fixed array or within a slice's known
// minimum length, or when their ranges lie within the length; otherwise it
// is checked at run time and gives the function the trap effect.
func TestViewProofs(t *testing.T) {
	files := mustCheck(t, `module t
fn k(a: [8]u32, s: []u32) -> u32 requires len(s) >= 6 {
    var t: u32 = 0
    for i in 0..4 {
        t += len(a[i..i + 4]) + len(s[i..6])
    }
    return t + a[2..6][3] + s[1..3][0]
}
fn r(a: [8]u32, i: u32, s: []u32) -> u32 {
    return len(a[i..8]) + len(s[0..1])
}
`)
	if got := fn(t, files, "k").Inferred; got != 0 {
		t.Errorf("k: effects %v, want none", got)
	}
	if got := fn(t, files, "r").Inferred; !got.Has(lang.EffTrap) {
		t.Errorf("r: effects %v, want trap", got)
	}
}
