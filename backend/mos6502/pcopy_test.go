package mos6502

import (
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// TestLoopShiftInPlace: a rolled loop that shifts its variables down one
// place each trip (d = c, c = b, b = a, as a hash round's a..h) copies
// them at the back edge from the end of the chain, through no temporary;
// a swap (a cycle) still goes through one. Both answer as the VM does.
func TestLoopShiftInPlace(t *testing.T) {
	src := `module t
export fn shift(x: u8) -> u8 effects none {
    var a = x
    var b: u8 = 1
    var c: u8 = 2
    var d: u8 = 3
    for i in 0..10 {
        let n = (a + d) ^ (i as u8)
        d = c
        c = b
        b = a
        a = n
    }
    return a ^ (b + c) ^ (d << 1)
}
export fn swap(x: u8) -> u8 effects none {
    var a = x
    var b: u8 = 5
    for i in 0..9 {
        let t = a
        a = b
        b = t
    }
    return a ^ (b << 1)
}
`
	p := testprog.Source(t, "t.lw", src)
	prog, err := buildSeen(input(p), backend.Options{}, layout{org: runOrg, linear: true}, config{unroll: 0, inline: ir.InlineNone}, 0x8000, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range p.Exports() {
		for _, x := range []uint64{0, 7, 200} {
			args := []lang.Value{{Word: x}}
			want, _, err := vm.Run(p, fn, args, vm.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := prog.call(fn.Name, []lang.Value{{Word: x}})
			if err != nil {
				t.Fatal(err)
			}
			if got[0].Word != want[0].Word {
				t.Errorf("%s(%d) = %d, want %d", fn.Name, x, got[0].Word, want[0].Word)
			}
		}
	}
	shift, _, _ := strings.Cut(prog.src[strings.Index(prog.src, "\nshift"):], "\nswap")
	if n := strings.Count(shift, "yt"); n != 0 {
		t.Errorf("the shift's back edge uses the temporary area %d times:\n%s", n, shift)
	}
	if !strings.Contains(prog.src, "sta yt") {
		t.Errorf("the swap's back edge does not save a byte of its cycle")
	}
}
