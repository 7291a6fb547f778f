package mos6502

import (
	"fmt"

	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

// The rule on buffers (docs/language.md, "Exported functions"): an array
// an export writes (a mut parameter or an array result) and any other
// array argument are either the very same bytes or disjoint. The caller
// passes pointers, so an export's entry checks it before anything runs:
// a partial overlap stops the call with the trap id of an overlap check,
// which the runner reports as the fault sem.OverlapFault formats.

// ovBuf is an array of an export as its entry code sees it.
type ovBuf struct {
	arr     arrayParm
	fixed   int // bytes of a fixed array
	shift   int // a slice's bytes are its length << shift
	written bool
	param   int // index into the source's parameters (then results)
}

// overlapBuffers describes the IR array parameters of export f, whose
// pointers and slice lengths are at arrays.
func overlapBuffers(f *ir.Function, arrays []arrayParm) []ovBuf {
	var bufs []ovBuf
	add := func(param int, sp ir.SigParam, written bool) {
		if len(bufs) >= len(arrays) {
			return
		}
		b := ovBuf{arr: arrays[len(bufs)], written: written, param: param}
		per := typeBytes(sp.Type)
		if sp.Slice {
			for 1<<b.shift < per {
				b.shift++
			}
		} else {
			b.fixed = sp.Len * per
		}
		bufs = append(bufs, b)
	}
	for i, sp := range f.Sig.Params {
		if sp.Array {
			add(i, sp, sp.Mut)
		}
	}
	for i, r := range f.Sig.Results {
		if r.Array {
			add(len(f.Sig.Params)+i, r, true)
		}
	}
	return bufs
}

// ovPair is two buffers the entry compares: x is written.
type ovPair struct{ x, y int }

// overlapPairs lists, in the order the entry checks them, the pairs of
// bufs of which at least one is written.
func overlapPairs(bufs []ovBuf) []ovPair {
	var pairs []ovPair
	for i := range bufs {
		for j := i + 1; j < len(bufs); j++ {
			if bufs[i].written || bufs[j].written {
				x, y := i, j
				if !bufs[x].written {
					x, y = y, x
				}
				pairs = append(pairs, ovPair{x, y})
			}
		}
	}
	return pairs
}

// overlapFault is the fault of an overlap check that stopped export f on
// m: the first pair, in the entry's order, whose ranges overlap without
// being the same (the entry code leaves pointers and lengths as they were).
func overlapFault(m *machine, f *ir.Function, abi *funcABI, c *ir.CheckInfo) error {
	var arrays []arrayParm
	for _, pa := range abi.Params {
		if pa.Ptr != 0 {
			arrays = append(arrays, arrayParm{ptr: pa.Ptr, len: pa.Len})
		}
	}
	bufs := overlapBuffers(f, arrays)
	word := func(at int) int { return int(m.mem.LoadByte(uint16(at))) | int(m.mem.LoadByte(uint16(at+1)))<<8 }
	span := func(b ovBuf) (int, int) {
		n := b.fixed
		if b.arr.len != 0 {
			n = word(b.arr.len) << b.shift
		}
		return word(b.arr.ptr), n
	}
	for _, pr := range overlapPairs(bufs) {
		p, n := span(bufs[pr.x])
		q, k := span(bufs[pr.y])
		if n > 0 && k > 0 && p < q+k && q < p+n && (p != q || n != k) && f.Source != nil {
			return sem.OverlapFault(f.Source, bufs[pr.x].param, bufs[pr.y].param)
		}
	}
	return c.Err()
}

// overlapEntry emits the check at the entry of export f, whose IR array
// parameters (the source's arrays, then the hidden array results) have
// their pointers and slice lengths at arrays.
func (mg *modgen) overlapEntry(a *asmBuf, f *ir.Function, arrays []arrayParm) {
	bufs := overlapBuffers(f, arrays)
	pairs := overlapPairs(bufs)
	used := map[int]bool{}
	for _, pr := range pairs {
		used[pr.x], used[pr.y] = true, true
	}
	if len(pairs) == 0 {
		return
	}
	if mg.lay.size && mg.overlapTable(a, f, bufs) {
		return
	}
	mg.need["ovl"] = true
	mg.ovlBufs = max(mg.ovlBufs, len(bufs))
	// Each buffer's start and length in bytes, 4 bytes at ovt+4i.
	for i, b := range bufs {
		if !used[i] {
			continue
		}
		at := func(k int) string { return fmt.Sprintf("ovt+%d", 4*i+k) }
		a.op("lda %s", zpOrAbs(b.arr.ptr))
		a.op("sta %s", at(0))
		a.op("lda %s", zpOrAbs(b.arr.ptr+1))
		a.op("sta %s", at(1))
		if b.arr.len == 0 {
			a.op("lda #$%02x", b.fixed&0xff)
			a.op("sta %s", at(2))
			a.op("lda #$%02x", b.fixed>>8&0xff)
			a.op("sta %s", at(3))
			continue
		}
		a.op("lda %s", zpOrAbs(b.arr.len))
		a.op("sta %s", at(2))
		a.op("lda %s", zpOrAbs(b.arr.len+1))
		a.op("sta %s", at(3))
		for k := 0; k < b.shift; k++ {
			a.op("asl %s", at(2))
			a.op("rol %s", at(3))
		}
	}
	// Each pair: ldx, ldy, jsr (7 bytes), then bcs fail (2) when fail is
	// in reach, else bcc over a jmp fail (5). fail follows the pairs and
	// a bcc over it (2 bytes).
	fail, cont := a.newLabel(), a.newLabel()
	long := make([]bool, len(pairs))
	dist := 2 // bytes between the branch and fail
	for k := len(pairs) - 1; k >= 0; k-- {
		long[k] = dist > 120
		if long[k] {
			dist += 12
		} else {
			dist += 9
		}
	}
	for k, pr := range pairs {
		a.op("ldx #%d", 4*pr.x)
		a.op("ldy #%d", 4*pr.y)
		a.op("jsr ovl")
		if long[k] {
			l := a.newLabel()
			a.op("bcc %s", l)
			a.op("jmp %s", fail)
			a.label(l)
		} else {
			a.op("bcs %s", fail)
		}
	}
	a.op("bcc %s", cont)
	a.label(fail)
	// One check per export: the runner finds the overlapping pair from the
	// pointers and lengths, which the entry code leaves as they were.
	id := mg.trapID(&ir.CheckInfo{Kind: ir.CheckOverlap, Pos: f.Pos, Source: f.Source, Clause: -1, Other: -1,
		Msg: "buffers overlap without being the same"})
	a.op("ldx #$%02x", id&0xff)
	a.op("jmp trap")
	a.label(cont)
}

// The --opt size form of the check: each export's entry is `ldy #D /
// jsr ovchk`, D its descriptor's offset in the table ovd (one table for
// the module, at most 255 bytes). A descriptor is the offset just past
// it, the export's trap id, then 7 bytes per array: the start and the
// length in bytes (filled in by ovchk; a fixed array's length is there
// from the start), the zero-page address of its pointer and of its
// length (0: a fixed array), and flags (bit 7: written; bits 0-1: the
// shift from elements to bytes).
const ovEntry = 7

// overlapTable emits the size-mode check of f at its entry and adds its
// descriptor to the module's table; false (nothing emitted) when a
// pointer or length is not in zero page or the table would pass 255
// bytes: the inline form is used then.
func (mg *modgen) overlapTable(a *asmBuf, f *ir.Function, bufs []ovBuf) bool {
	d := len(mg.ovd)
	end := d + 2 + ovEntry*len(bufs)
	if end > 255 {
		return false
	}
	for _, b := range bufs {
		if b.arr.ptr >= 0x100 || b.arr.len >= 0x100 {
			return false
		}
	}
	id := mg.trapID(&ir.CheckInfo{Kind: ir.CheckOverlap, Pos: f.Pos, Source: f.Source, Clause: -1, Other: -1,
		Msg: "buffers overlap without being the same"})
	mg.ovd = append(mg.ovd, byte(end), byte(id))
	for _, b := range bufs {
		flags := byte(b.shift)
		if b.written {
			flags |= 0x80
		}
		if b.shift != 0 {
			mg.ovShift = true
		}
		mg.ovd = append(mg.ovd, 0, 0, byte(b.fixed), byte(b.fixed>>8), byte(b.arr.ptr), byte(b.arr.len), flags)
	}
	mg.need["ovchk"] = true
	a.op("ldy #%d", d)
	a.op("jsr ovchk")
	return true
}

// ovchkHelper emits ovchk and the table ovd. With Y the offset of an
// export's descriptor it fills in each array's start and length, then for
// every ordered pair (i, j) of arrays of which one is written and j is
// not empty computes d = start j - start i (mod 2^16), or j's length when
// d = 0, and traps when that is below i's length: j starts inside i, or
// both start together with different lengths. Each unordered pair is
// seen both ways, so any overlap that is not the same buffer is found.
func ovchkHelper(out *asmBuf, mg *modgen) {
	out.comment("ovchk: the buffer rule; Y = the")
	out.comment("export's descriptor in ovd")
	body := `
ovchk    lda ovd,y
         sta ovend
         iny
         iny
         sty ovbeg
         tya
ovf      tax
         ldy ovd+4,x
         lda $0000,y
         sta ovd,x
         lda $0001,y
         sta ovd+1,x
         ldy ovd+5,x
         beq ovf3
         lda $0000,y
         sta ovd+2,x
         lda $0001,y
         sta ovd+3,x
`
	if mg.ovShift {
		body += `         lda ovd+6,x
         and #$03
         tay
         beq ovf3
ovf2     asl ovd+2,x
         rol ovd+3,x
         dey
         bne ovf2
`
	}
	body += `ovf3     txa
         clc
         adc #$07
         cmp ovend
         bne ovf
         ldx ovbeg
ovi      ldy ovbeg
ovj      lda ovd+6,x
         ora ovd+6,y
         bpl ovjn
         lda ovd+2,y
         ora ovd+3,y
         beq ovjn
         sec
         lda ovd,y
         sbc ovd,x
         sta ovw
         lda ovd+1,y
         sbc ovd+1,x
         sta ovw+1
         ora ovw
         bne ovc
         lda ovd+2,y
         sta ovw
         lda ovd+3,y
         sta ovw+1
ovc      lda ovw
         cmp ovd+2,x
         lda ovw+1
         sbc ovd+3,x
         bcc ovbad
ovjn     tya
         clc
         adc #$07
         tay
         cpy ovend
         bne ovj
         txa
         clc
         adc #$07
         tax
         cpx ovend
         bne ovi
         rts
ovbad    ldy ovbeg
         ldx ovd-1,y
         jmp trap
`
	emitBody(out, body)
	out.label("ovd")
	out.bytes(mg.ovd)
	out.label("ovdend")
}

func zpOrAbs(addr int) string {
	if addr < 0x100 {
		return fmt.Sprintf("$%02x", addr)
	}
	return fmt.Sprintf("$%04x", addr)
}

// ovlHelper: the carry is set when the byte ranges at ovt+X and ovt+Y
// (start, length; 2 bytes each) overlap without being the same (an empty
// range overlaps nothing).
func ovlHelper(out *asmBuf) {
	out.comment("ovl: C = the ranges at ovt+X and ovt+Y overlap, not equal")
	emitBody(out, `
ovl      lda ovt+2,x
         ora ovt+3,x
         beq ovlno
         lda ovt+2,y
         ora ovt+3,y
         beq ovlno
         clc
         lda ovt,x
         adc ovt+2,x
         sta ove1
         lda ovt+1,x
         adc ovt+3,x
         sta ove1+1
         clc
         lda ovt,y
         adc ovt+2,y
         sta ove2
         lda ovt+1,y
         adc ovt+3,y
         sta ove2+1
         lda ovt,x
         cmp ove2
         lda ovt+1,x
         sbc ove2+1
         bcs ovlno
         lda ovt,y
         cmp ove1
         lda ovt+1,y
         sbc ove1+1
         bcs ovlno
         lda ovt,x
         cmp ovt,y
         bne ovlyes
         lda ovt+1,x
         cmp ovt+1,y
         bne ovlyes
         lda ovt+2,x
         cmp ovt+2,y
         bne ovlyes
         lda ovt+3,x
         cmp ovt+3,y
         bne ovlyes
ovlno    clc
         rts
ovlyes   sec
ovlend   rts
`)
}

// entryCheckBytes is what the buffer rule costs in p: the exports' entry
// checks, the ovl routine and its variables.
func (p *program) entryCheckBytes() int {
	l := p.img.labels
	n := 0
	if _, ok := l["ovl"]; ok {
		n += l["ovlend"] + 1 - l["ovl"] + l["ove2"] + 2 - l["ovt"]
	}
	if _, ok := l["ovchk"]; ok {
		n += l["ovdend"] - l["ovchk"] + l["ovw"] + 2 - l["ovend"]
	}
	if n == 0 {
		return 0
	}
	for _, abi := range p.abis {
		if abi.Body != "" {
			n += l[abi.Body] - l[abi.Label] - entryBytes
		}
	}
	return n
}

// entryBytes is the size of an export's entry code without the checks:
// cld, tsx, stx savesp.
const entryBytes = 5
