package mos6502

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
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

// TestHoistedStoreInPlace: a store to one array parameter does not move
// above a load of another that the same byte may be: an export's caller
// may pass the very same buffer as both (docs/language.md, "Exported
// functions"). Called in place, f reads src[j] before it writes dst[i];
// with i = j the hoisted store made it read the new dst[i].
func TestHoistedStoreInPlace(t *testing.T) {
	src := `module t
export fn f(src: [8]u32, dst: mut [8]u32, i: u8, j: u8) -> u32 effects none {
    let x = src[i & 7] + 1
    let y = src[j & 7]
    dst[i & 7] = x
    return y
}
`
	p := testprog.Source(t, "t.lw", src)
	in := []uint64{0x10203040, 0xfffffffe, 0x80, 0x0a0b0c0d, 0x5a5a5a5a, 0xffffffff, 7, 0x12345678}
	for _, opt := range []string{"speed", "size", "balanced"} {
		prog, err := build(input(p), backend.Options{Opt: opt}, layout{org: runOrg, linear: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, ij := range [][2]uint64{{3, 3}, {0, 0}, {7, 7}, {2, 5}} {
			args := []lang.Value{{IsArray: true, Elems: slices.Clone(in)}, {IsArray: true, Elems: make([]uint64, 8)}, {Word: ij[0]}, {Word: ij[1]}}
			m, abi, bufs, err := prog.setup("f", args)
			if err != nil {
				t.Fatal(err)
			}
			// dst's pointer to src's buffer.
			var ptrs []int
			for _, pa := range abi.Params {
				if pa.Ptr != 0 {
					ptrs = append(ptrs, pa.Ptr)
				}
			}
			m.mem.StoreByte(uint16(ptrs[1]), byte(bufs[0].addr))
			m.mem.StoreByte(uint16(ptrs[1]+1), byte(bufs[0].addr>>8))
			if _, err := m.call(prog.img.labels[abi.Label], nil); err != nil {
				t.Fatal(err)
			}
			got, err := prog.collect(m, "f", abi, args, bufs)
			if err != nil {
				t.Fatal(err)
			}
			if want := in[ij[1]]; got[0].Word != want {
				t.Errorf("%s: f(b, b, %d, %d) = %#x, want %#x", opt, ij[0], ij[1], got[0].Word, want)
			}
			wantBuf := slices.Clone(in)
			wantBuf[ij[0]] = uint64(uint32(in[ij[0]] + 1))
			gotBuf := make([]uint64, 8)
			for k, c := range memBytes(m, bufs[0].addr, 32) {
				gotBuf[k/4] |= uint64(c) << (8 * (k % 4))
			}
			if !slices.Equal(gotBuf, wantBuf) {
				t.Errorf("%s: f(b, b, %d, %d) leaves b = %#x, want %#x", opt, ij[0], ij[1], gotBuf, wantBuf)
			}
		}
	}
}
