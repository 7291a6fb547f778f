package mos6502

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

// TestHoistedStores: `w[k] += x` stores each byte of the sum as the add
// makes it (`adc / sta w+j,x`), not through a slot, though the next
// byte's load of the same element comes after the store (another byte);
// a store whose array is read at a byte that may be the same one before
// the store stays where it is. All answer as the VM does.
func TestHoistedStores(t *testing.T) {
	src := `module t
export fn upd(i: u8, x: u32) -> u32 effects none {
    var w: [4]u32
    for j in 0..4 {
        w[j] = x ^ ((j as u32) << 9)
    }
    let k = (i & 3) as u32
    w[k] += x ^ 0x5a5a5a5a
    return w[0] ^ w[1] ^ w[2] ^ w[3]
}
export fn swap(i: u8, x: u8) -> u8 effects none {
    var a: [8]u8
    for j in 0..8 {
        a[j] = x + (j as u8)
    }
    let k = (i & 7) as u32
    let m = (i >> 3) & 7
    let s = a[k] + 1
    let r = a[m as u32]
    a[k] = s
    return r ^ a[k] ^ a[(k + 1) & 7]
}
`
	for _, lay := range []layout{{org: runOrg, linear: true}, {org: runOrg, linear: true, ptrs: true, peep: true}} {
		p, prog := smallProgram(t, src, lay, config{unroll: 200, inline: ir.InlineNone})
		for _, fn := range p.Exports() {
			for _, i := range []uint64{0, 3, 7, 12, 63, 255} {
				for _, x := range []uint64{0, 0x5a, 0xfedcba98} {
					args := []lang.Value{{Word: i}, {Word: x & 0xff}}
					if fn.Name == "upd" {
						args[1].Word = x
					}
					agreesWithVM(t, p, prog, fn, args, fmt.Sprintf("ptrs %v: %s(%d, %#x)", lay.ptrs, fn.Name, i, x))
				}
			}
		}
		if lay.ptrs {
			upd := exportText(prog, "upd")
			if n := len(regexp.MustCompile(`(?m)^\s+adc \S+\n(\s+ldx \S+\n)?\s+sta b\d+_\d+(\+[1-3])?,x$`).FindAllString(upd, -1)); n != 4 {
				t.Errorf("upd: %d bytes of w[k] stored as added, want 4:\n%s", n, upd)
			}
		}
	}
}

// TestDeadStores: a local array zeroed and then written whole, with
// nothing reading it between, is not zeroed (eight stores, not sixteen);
// one read between keeps the zeroing. Both answer as the VM does.
func TestDeadStores(t *testing.T) {
	src := `module t
export fn fill(x: u8, i: u8) -> u8 effects none {
    var a: [8]u8
    for j in 0..8 {
        a[j] = x + (j as u8) * 3
    }
    return a[(i & 7) as u32] ^ a[7]
}
export fn peek(x: u8, i: u8) -> u8 effects none {
    var a: [8]u8
    let r = a[(i & 7) as u32]
    for j in 0..8 {
        a[j] = x + (j as u8) * 3
    }
    return r ^ a[((i >> 3) & 7) as u32] ^ a[7]
}
`
	p, prog := smallProgram(t, src, layout{org: runOrg, linear: true, ptrs: true, peep: true}, config{unroll: 200, inline: ir.InlineNone})
	for _, fn := range p.Exports() {
		for _, i := range []uint64{0, 3, 7, 12, 63} {
			for _, x := range []uint64{0, 0x5a, 0xff} {
				agreesWithVM(t, p, prog, fn, []lang.Value{{Word: x}, {Word: i}}, fmt.Sprintf("%s(%#x, %d)", fn.Name, x, i))
			}
		}
	}
	stores := regexp.MustCompile(`(?m)^\s+sta b\d+_\d+(\+\d)?$`)
	fill := prog.src[strings.Index(prog.src, "\n; t.fill\n"):strings.Index(prog.src, "\n; t.peek\n")]
	if n := len(stores.FindAllString(fill, -1)); n != 8 {
		t.Errorf("fill: %d stores, want 8:\n%s", n, fill)
	}
	peek := prog.src[strings.Index(prog.src, "\n; t.peek\n"):]
	if n := len(stores.FindAllString(peek, -1)); n != 16 {
		t.Errorf("peek: %d stores, want 16:\n%s", n, peek)
	}
}
