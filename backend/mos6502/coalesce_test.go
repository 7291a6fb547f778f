package mos6502

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

// TestLoopCarriedCoalesced: a loop whose carried values come back as new
// values computed after the old ones' last reads (a..h renamed over an
// unrolled round) keeps them in place: its back edge copies nothing, nor
// does the entry of a loop nested in another that carries the outer
// loop's values. Where an old value is still read when the new one is
// made (the rotation in keep), the copy stays. All answer as the VM does.
func TestLoopCarriedCoalesced(t *testing.T) {
	src := `module t
export fn ren(x: u8, n: u8) -> u8 effects none {
    var a = x
    var b: u8 = 1
    for i in 0..n {
        let s = a + b + (i as u8)
        let m = (s ^ 0x5a) + a
        a = m
        b = s
    }
    return a ^ (b << 1)
}
export fn nest(x: u8, n: u8) -> u8 effects none {
    var a = x
    var b: u8 = 3
    for j in 0..n {
        for i in 0..n {
            let s = a + b + (i as u8)
            let m = (s ^ 0x33) + a
            a = m
            b = s
        }
        a = a ^ (j as u8)
    }
    return a ^ (b << 1)
}
export fn keep(x: u8, n: u8) -> u8 effects none {
    var a = x
    var b: u8 = 7
    for i in 0..n {
        let s = a + (i as u8)
        b = a
        a = s
    }
    return a ^ (b << 1)
}
`
	p, prog := smallProgram(t, src, layout{org: runOrg, linear: true}, config{unroll: 0, inline: ir.InlineNone})
	for _, fn := range p.Exports() {
		for _, x := range []uint64{0, 7, 200} {
			for _, n := range []uint64{0, 1, 5} {
				agreesWithVM(t, p, prog, fn, []lang.Value{{Word: x}, {Word: n}}, fmt.Sprintf("%s(%d, %d)", fn.Name, x, n))
			}
		}
	}
	// Copies between slots: `lda $xx / sta $yy`. Each function copies its
	// parameter x into its first carried slot; ren and nest nothing else
	// (no back-edge copy, no copy into the inner loop's slots), keep
	// copies at its back edge.
	moves := regexp.MustCompile(`(?m)^\s+lda \$[0-9a-f]{2}\n\s+sta \$[0-9a-f]{2}$`)
	for _, c := range []struct {
		fn   string
		want int
	}{{"ren", 1}, {"nest", 1}, {"keep", 3}} {
		text := exportText(prog, c.fn)
		if n := len(moves.FindAllString(text, -1)); n != c.want {
			t.Errorf("%s: %d copies between slots, want %d:\n%s", c.fn, n, c.want, text)
		}
	}
}
