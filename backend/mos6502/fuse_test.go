package mos6502

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

// TestFusedLoads: a byte loaded from an array at a label whose one reader
// is an add (or XOR, AND, OR) is that reader's memory operand, indexed by
// X or Y (`lda K+k,x / adc W+k,y`), never stored to a slot; a load that a
// store to its array follows before the reader stays a load. All answer
// as the VM does, in speed's layout and in balanced's (where the bytes of
// an element share their index, b of b|k).
func TestFusedLoads(t *testing.T) {
	src := `module t
const K: [8]u32 = [0x01020304, 0xf1f2f3f4, 0x80808080, 0x7f7f7f7f, 0xdeadbeef, 0x00ff00ff, 0x12345678, 0xffffffff]
export fn kw(i: u8, x: u32) -> u32 effects none {
    var w: [8]u32
    for j in 0..8 {
        w[j] = x ^ (j as u32) * 0x01010101
    }
    let k = (i & 7) as u32
    return K[k] + w[(k + 3) & 7]
}
export fn mix(i: u8, x: u8) -> u8 effects none {
    var a: [16]u8
    for j in 0..16 {
        a[j] = x + (j as u8)
    }
    let k = (i & 15) as u32
    let v = a[k]
    a[k] = 0
    return (v ^ x) + a[(k + 1) & 15]
}
`
	for _, lay := range []layout{{org: runOrg, linear: true}, {org: runOrg, linear: true, ptrs: true, peep: true}} {
		p, prog := smallProgram(t, src, lay, config{unroll: 200, inline: ir.InlineNone})
		for _, fn := range p.Exports() {
			for _, i := range []uint64{0, 3, 7, 12, 255} {
				for _, x := range []uint64{0, 0x5a, 0xfedcba98} {
					args := []lang.Value{{Word: i}, {Word: x & 0xff}}
					if fn.Name == "kw" {
						args[1].Word = x
					}
					agreesWithVM(t, p, prog, fn, args, fmt.Sprintf("ptrs %v: %s(%d, %#x)", lay.ptrs, fn.Name, i, x))
				}
			}
		}
		kw := exportText(prog, "kw")
		// K's bytes from A, w's added from memory, each indexed.
		if n := len(regexp.MustCompile(`(?m)^\s+lda g0(\+[0-3])?,[xy]\n(\s+ld[xy] \S+\n)?\s+adc b\d+_\d+(\+[0-3])?,[xy]$`).FindAllString(kw, -1)); n != 4 {
			t.Errorf("ptrs %v: kw: %d bytes of K + w fused, want 4:\n%s", lay.ptrs, n, kw)
		}
		mix := exportText(prog, "mix")
		if !regexp.MustCompile(`(?m)^\s+adc b\d+_\d+,[xy]$`).MatchString(mix) {
			t.Errorf("ptrs %v: mix: a[k+1] not added from memory:\n%s", lay.ptrs, mix)
		}
	}
}

// TestFusedLoadIndexReloaded: two fused loads of one array whose indices
// are different values the allocator puts in one slot (the first is dead
// when the second is computed). The second load's reader must load its
// index again: that the index register was loaded from the same slot says
// nothing once the slot holds another value (randprog seed 119 under
// --opt size, shrunk). Built as --opt balanced builds it and in the
// layouts of TestFusedLoads; all answer as the VM does.
func TestFusedLoadIndexReloaded(t *testing.T) {
	src := `module t
const K: [4]u32 = [1, 0x80000000, 0x53df46fe, 0xffffffff]
export fn f(a: u32, b: u32) -> u32 effects none {
    return a + K[a & 1] + (b ^ K[b & 3])
}
`
	p := testprog.Source(t, "t.lw", src)
	fn := p.Exports()[0]
	var progs []*program
	var names []string
	for _, lay := range []layout{{org: runOrg, linear: true}, {org: runOrg, linear: true, ptrs: true, peep: true}} {
		_, prog := smallProgram(t, src, lay, config{unroll: 200, inline: ir.InlineNone})
		progs = append(progs, prog)
		names = append(names, fmt.Sprintf("ptrs %v", lay.ptrs))
	}
	for _, opt := range []string{"", "size", "balanced"} {
		prog, err := build(input(p), backend.Options{Opt: opt}, layout{org: runOrg, linear: true})
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, prog)
		names = append(names, "--opt "+opt)
	}
	for i, prog := range progs {
		for _, a := range []uint64{0, 1, 0x80000001, 0xfffffffe} {
			for _, b := range []uint64{0, 1, 2, 0x5a5a5a5b} {
				args := []lang.Value{{Word: a}, {Word: b}}
				agreesWithVM(t, p, prog, fn, args, fmt.Sprintf("%s: f(%#x, %#x)", names[i], a, b))
			}
		}
	}
}
