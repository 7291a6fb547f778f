package mos6502

import "fmt"

// helpers emits the run-time routines the code calls: the trap exit, and
// when used the carry-less multiply, the AES rounds and the byte multiply.
func helpers(out *asmBuf, mg *modgen) {
	out.comment("trap: a failed check, id in X;")
	out.comment("unwind to the export's caller")
	out.label("trap")
	out.op("stx trapid")
	out.op("ldx savesp")
	out.op("txs")
	out.op("rts")
	if mg.need["ovl"] {
		ovlHelper(out)
	}
	if mg.need["ovchk"] {
		ovchkHelper(out, mg)
	}
	if mg.need["clmul"] {
		clmulHelper(out)
	}
	if mg.need["aes"] {
		aesHelper(out, mg)
	}
	if mg.need["mulw"] {
		mulwHelper(out)
	}
	if mg.need["divu"] {
		divuHelper(out)
	}
}

// divuHelper: hda = hda / hdb, A = hda % hdb (restoring division, a
// quotient bit a step). A zero divisor gives $ff and the dividend, as
// divu and remu define: every step subtracts 0. No branch depends on the
// operands: each step computes the trial difference hdt = r - hdb and
// take = (bit 8 of r) | (r >= hdb) in the carry (the bit 8, kept as 0/1 in
// T, minus the borrow), adds take to the quotient and keeps r or hdt with
// the mask `lda #0 / sbc #0` makes of it ($00 to take, $ff to keep r).
func divuHelper(out *asmBuf) {
	out.comment("divu: hda, A = hda / hdb, hda % hdb, branch-free")
	out.label("divu")
	out.op("lda #$00")
	out.op("ldx #$08")
	out.label("dv1")
	out.op("asl hda")
	out.op("rol a") // C = bit 8 of r
	out.op("sta hdr")
	out.op("lda #$00")
	out.op("rol a")
	out.op("sta $%02x", zpT)
	out.op("lda hdr")
	out.op("sec")
	out.op("sbc hdb") // C = r >= hdb
	out.op("sta hdt")
	out.op("lda $%02x", zpT)
	out.op("sbc #$00") // C = take
	out.op("lda #$00")
	out.op("sbc #$00") // $00 to take, $ff to keep; C is still take
	out.op("sta $%02x", zpT)
	out.op("lda hda")
	out.op("adc #$00") // the quotient bit (bit 0 is clear)
	out.op("sta hda")
	out.op("lda hdt")
	out.op("eor hdr")
	out.op("and $%02x", zpT)
	out.op("eor hdt")
	out.op("dex")
	out.op("bne dv1")
	out.op("rts")
}

// clmulHelper: hp (16 bytes) = ha * hb carry-less; hb is consumed. It
// takes the same time whatever the operands: no branch depends on their
// bits. For bit r of byte q of hb, hp[q..q+8] ^= (ha << r) & mask with
// mask = 0 - bit (the bit is shifted out of hb into the carry; `lda #0,
// sbc #0` makes $ff of a clear carry, `eor #$ff` flips it). hs holds ha
// << r in 9 bytes, shifted once per r, so the 16-byte product is never
// shifted. The loop over r is rolled; the eight bytes of hb are unrolled
// (absolute addresses, no index register to count).
func clmulHelper(out *asmBuf) {
	out.comment("clmul: hp = ha x hb, carry-less, branch-free")
	out.label("clmul")
	out.op("lda #$00")
	out.op("ldx #$0f")
	out.label("clm1")
	out.op("sta hp,x")
	out.op("dex")
	out.op("bpl clm1")
	out.op("ldx #$07")
	out.label("clm2")
	out.op("lda ha,x")
	out.op("sta hs,x")
	out.op("dex")
	out.op("bpl clm2")
	out.op("lda #$00")
	out.op("sta hs+8")
	out.op("ldy #$08")
	out.label("clm3")
	for q := 0; q < 8; q++ {
		out.op("lsr hb+%d", q)
		out.op("lda #$00")
		out.op("sbc #$00")
		out.op("eor #$ff")
		out.op("sta $%02x", zpT)
		for i := 0; i < 9; i++ {
			out.op("lda hs+%d", i)
			out.op("and $%02x", zpT)
			out.op("eor hp+%d", q+i)
			out.op("sta hp+%d", q+i)
		}
	}
	out.op("asl hs")
	for i := 1; i < 9; i++ {
		out.op("rol hs+%d", i)
	}
	out.op("dey")
	out.op("beq clm4")
	out.op("jmp clm3")
	out.label("clm4")
	out.op("rts")
}

// aesHelper: one AES round on as (state) with round key ak, in place.
// Byte i of the state is row i%4, column i/4 (lang.AESEnc's layout).
func aesHelper(out *asmBuf, mg *modgen) {
	sbox := mg.tableLabel(mg.tabIdx[string(aesSbox())])
	xt := mg.tableLabel(mg.tabIdx[string(xtimeTable())])
	subShift := func() {
		// at[r+4c] = sbox[as[r+4((c+r)%4)]]
		for c := 0; c < 4; c++ {
			for r := 0; r < 4; r++ {
				out.op("ldx as+%d", r+4*((c+r)%4))
				out.op("lda %s,x", sbox)
				out.op("sta at+%d", r+4*c)
			}
		}
	}
	out.comment("aeslast: as = shiftrows(sub(as))^ak")
	out.label("aeslast")
	subShift()
	for i := 0; i < 16; i++ {
		out.op("lda at+%d", i)
		out.op("eor ak+%d", i)
		out.op("sta as+%d", i)
	}
	out.op("rts")
	out.comment("aesenc: as = mix(shift(sub(as)))^ak")
	out.label("aesenc")
	subShift()
	for c := 0; c < 4; c++ {
		b := func(r int) string { return fmt.Sprintf("at+%d", 4*c+(r%4)) }
		// T (zp) = a0^a1^a2^a3
		out.op("lda %s", b(0))
		out.op("eor %s", b(1))
		out.op("eor %s", b(2))
		out.op("eor %s", b(3))
		out.op("sta $%02x", zpT)
		for r := 0; r < 4; r++ {
			// out_r = a_r ^ T ^ xtime(a_r ^ a_r+1) ^ k
			out.op("lda %s", b(r))
			out.op("eor %s", b(r+1))
			out.op("tax")
			out.op("lda %s,x", xt)
			out.op("eor $%02x", zpT)
			out.op("eor %s", b(r))
			out.op("eor ak+%d", 4*c+r)
			out.op("sta as+%d", 4*c+r)
		}
	}
	out.op("rts")
}

// mulwHelper: hmb:hma = hma * hmb (8x8 -> 16 bits, shift and add). It
// takes the same time whatever the operands: each step adds hmb & mask,
// mask = 0 - (the multiplier bit in the carry), so no branch depends on
// their bits (`lda #0, sbc #0` makes $ff of a clear carry, `eor #$ff`
// flips it). The partial product's high byte waits in hmt while the mask
// is made; its low byte shifts into hma as the multiplier shifts out.
func mulwHelper(out *asmBuf) {
	out.comment("mulw: hmb:hma = hma * hmb, branch-free")
	out.label("mulw")
	out.op("lda #$00")
	out.op("ldx #$08")
	out.op("lsr hma")
	out.label("mw1")
	out.op("sta hmt")
	out.op("lda #$00")
	out.op("sbc #$00")
	out.op("eor #$ff")
	out.op("and hmb")
	out.op("clc")
	out.op("adc hmt")
	out.op("ror a")
	out.op("ror hma")
	out.op("dex")
	out.op("bne mw1")
	out.op("sta hmb")
	out.op("rts")
}
