package mos6502

import (
	"fmt"

	"github.com/lowent/lowentc/ir"
)

// The rule on buffers (docs/language.md, "Exported functions"): an array
// an export writes (a mut parameter or an array result) and any other
// array argument are either the very same bytes or disjoint. The caller
// passes pointers, so an export's entry checks it before anything runs:
// a partial overlap stops the call with the trap id of an overlap check,
// which the runner reports as the fault lang.OverlapFault formats.

// overlapEntry emits the check at the entry of export f, whose IR array
// parameters (the source's arrays, then the hidden array results) have
// their pointers and slice lengths at arrays.
func (mg *modgen) overlapEntry(a *asmBuf, f *ir.Function, arrays []arrayParm) {
	type buffer struct {
		arr     arrayParm
		fixed   int // bytes of a fixed array
		shift   int // a slice's bytes are its length << shift
		written bool
		param   int // index into the source's parameters (then results)
	}
	var bufs []buffer
	add := func(param int, sp ir.SigParam) {
		if len(bufs) >= len(arrays) {
			return
		}
		b := buffer{arr: arrays[len(bufs)], written: sp.Mut, param: param}
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
			add(i, sp)
		}
	}
	for i, r := range f.Sig.Results {
		if r.Array {
			r.Mut = true
			add(len(f.Sig.Params)+i, r)
		}
	}
	load := func(b buffer, ptr, n string) {
		a.op("lda %s", zpOrAbs(b.arr.ptr))
		a.op("sta %s", ptr)
		a.op("lda %s", zpOrAbs(b.arr.ptr+1))
		a.op("sta %s+1", ptr)
		if b.arr.len == 0 {
			a.op("lda #$%02x", b.fixed&0xff)
			a.op("sta %s", n)
			a.op("lda #$%02x", b.fixed>>8&0xff)
			a.op("sta %s+1", n)
			return
		}
		a.op("lda %s", zpOrAbs(b.arr.len))
		a.op("sta %s", n)
		a.op("lda %s", zpOrAbs(b.arr.len+1))
		a.op("sta %s+1", n)
		for k := 0; k < b.shift; k++ {
			a.op("asl %s", n)
			a.op("rol %s+1", n)
		}
	}
	for i := range bufs {
		for j := i + 1; j < len(bufs); j++ {
			x, y := bufs[i], bufs[j]
			if !x.written && !y.written {
				continue
			}
			if !x.written {
				x, y = y, x
			}
			mg.need["ovl"] = true
			load(x, "ovp1", "ovn1")
			load(y, "ovp2", "ovn2")
			a.op("jsr ovl")
			ok := a.newLabel()
			a.op("bcc %s", ok)
			id := mg.trapID(&ir.CheckInfo{Kind: ir.CheckOverlap, Pos: f.Pos, Decl: f.Decl, Clause: x.param, Other: y.param,
				Msg: "buffers overlap without being the same"})
			a.op("ldx #$%02x", id&0xff)
			a.op("jmp trap")
			a.label(ok)
		}
	}
}

func zpOrAbs(addr int) string {
	if addr < 0x100 {
		return fmt.Sprintf("$%02x", addr)
	}
	return fmt.Sprintf("$%04x", addr)
}

// ovlHelper: the carry is set when the byte ranges [ovp1, ovp1+ovn1) and
// [ovp2, ovp2+ovn2) overlap without being the same (an empty range
// overlaps nothing).
func ovlHelper(out *asmBuf) {
	out.comment("ovl: C = ranges ovp1/ovn1 and ovp2/ovn2 overlap, not equal")
	emitBody(out, `
ovl      lda ovn1
         ora ovn1+1
         beq ovlno
         lda ovn2
         ora ovn2+1
         beq ovlno
         clc
         lda ovp1
         adc ovn1
         sta ove1
         lda ovp1+1
         adc ovn1+1
         sta ove1+1
         clc
         lda ovp2
         adc ovn2
         sta ove2
         lda ovp2+1
         adc ovn2+1
         sta ove2+1
         lda ovp1
         cmp ove2
         lda ovp1+1
         sbc ove2+1
         bcs ovlno
         lda ovp2
         cmp ove1
         lda ovp2+1
         sbc ove1+1
         bcs ovlno
         lda ovp1
         cmp ovp2
         bne ovlyes
         lda ovp1+1
         cmp ovp2+1
         bne ovlyes
         lda ovn1
         cmp ovn2
         bne ovlyes
         lda ovn1+1
         cmp ovn2+1
         bne ovlyes
ovlno    clc
         rts
ovlyes   sec
         rts
`)
}
