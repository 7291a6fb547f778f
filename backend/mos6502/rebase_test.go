package mos6502

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

// TestRebasedIndices: a value-carrying loop unrolled by 8 (balanced's
// factor) reads K[t] and K[g + t] in each copy k as K+4k+j indexed by copy
// 0's index, `lda g0+4k+j,x`, and computes no index of its own; all
// answer as the VM does.
func TestRebasedIndices(t *testing.T) {
	src := `module t
const K: [32]u32 = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
]
export fn acc(x: u32, y: u32) -> u32 effects none {
    var a = x
    var b = y
    for g in 0..2 {
        for t in 0..16 {
            let n = (a ^ K[t]) + b + K[16 * g + t]
            b = a
            a = n
        }
    }
    return a ^ b
}
`
	p, prog := smallProgram(t, src, layout{org: runOrg, linear: true, ptrs: true, peep: true}, config{unroll: 0, inline: ir.InlineNone, factor: 8})
	fn := p.Exports()[0]
	for _, x := range []uint64{0, 0x5a, 0xfedcba98} {
		for _, y := range []uint64{0, 0x12345678} {
			agreesWithVM(t, p, prog, fn, []lang.Value{{Word: x}, {Word: y}}, fmt.Sprintf("acc(%#x, %#x)", x, y))
		}
	}
	// Copies 1..7 read K at offsets 4..31 from copy 0's indices.
	offs := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\s+(?:lda|adc|eor) g0\+(\d+),[xy]$`).FindAllStringSubmatch(prog.src, -1) {
		offs[m[1]] = true
	}
	for k := 4; k < 32; k++ {
		if !offs[strconv.Itoa(k)] {
			t.Errorf("K+%d not read indexed by copy 0's index:\n%s", k, exportText(prog, "acc"))
			break
		}
	}
	// The index of each copy is not computed: one shift table lookup
	// (t << 2 and (16g + t) << 2 of copy 0) an index, not one a copy.
	if n := strings.Count(prog.src, "lda t"); n > 4 {
		t.Errorf("%d table lookups, want at most 4 (copy 0's indices):\n%s", n, exportText(prog, "acc"))
	}
}

// TestWrappedIndices: a rolled loop over a window indexing w[(t + c) & 15]
// beside w[t] computes each such index from t << 2, `clc / lda / adc
// #4c / and #$3c`, not through the add, the AND and the shift table; all
// answer as the VM does.
func TestWrappedIndices(t *testing.T) {
	src := `module t
export fn win(x: u32, n: u8) -> u32 effects none {
    var w: [16]u32
    for t in 0..16 {
        w[t] = x + (t as u32) * 0x01030507
    }
    for r in 0..n {
        for t in 0..16 {
            w[t] += w[(t + 1) & 15] ^ (w[(t + 9) & 15] >> 3)
        }
    }
    return w[0] ^ w[5] ^ w[15]
}
`
	p, prog := smallProgram(t, src, layout{org: runOrg, linear: true, ptrs: true, peep: true}, config{unroll: 0, inline: ir.InlineNone, factor: 8})
	fn := p.Exports()[0]
	for _, x := range []uint64{0, 0x5a, 0xfedcba98} {
		for _, n := range []uint64{0, 1, 3} {
			agreesWithVM(t, p, prog, fn, []lang.Value{{Word: x}, {Word: n}}, fmt.Sprintf("win(%#x, %d)", x, n))
		}
	}
	for _, add := range []string{"04", "24"} {
		if !regexp.MustCompile(`(?m)^\s+adc #\$` + add + `\n\s+and #\$3c$`).MatchString(prog.src) {
			t.Errorf("w[(t + %s/4) & 15]'s index not computed from t << 2:\n%s", add, exportText(prog, "win"))
		}
	}
}
