package mos6502

import "fmt"

// wideHelpers emits the run-time routines of a size-mode program: the
// trap exit, and the carry-less multiply and AES rounds rolled into loops
// (AES over index tables: about 130 bytes instead of 830).
func wideHelpers(out *asmBuf, mg *modgen) {
	need := mg.need
	mg.need = map[string]bool{"ovl": need["ovl"]}
	helpers(out, mg)
	mg.need = need
	if need["clmul"] {
		// As clmulHelper, the shifts as loops; the bit counter is the
		// interpreter's wc2, free while a helper runs.
		out.comment("clmul: hp = ha x hb, carry-less")
		emitBody(out, `
clmul    lda #$00
         ldx #$0f
clm1     sta hp,x
         dex
         bpl clm1
         lda #$40
         sta $11
clm2     ldx #$00
         ldy #$10
         clc
clm3     rol hp,x
         inx
         dey
         bne clm3
         ldx #$00
         ldy #$08
         clc
clm4     rol hb,x
         inx
         dey
         bne clm4
         bcc clm6
         ldx #$07
clm5     lda hp,x
         eor ha,x
         sta hp,x
         dex
         bpl clm5
clm6     dec $11
         bne clm2
         rts`)
	}
	if !need["aes"] {
		return
	}
	sbox := mg.tableLabel(mg.tabIdx[string(aesSbox())])
	xt := mg.tableLabel(mg.tabIdx[string(xtimeTable())])
	out.comment("aeslast: as = shift(sub(as))^ak")
	emitBody(out, `
aeslast  jsr aessub
         ldx #$0f
aesl1    lda at,x
         eor ak,x
         sta as,x
         dex
         bpl aesl1
         rts`)
	out.comment("aessub: at[i] = sbox[as[aesr[i]]]")
	emitBody(out, fmt.Sprintf(`
aessub   ldy #$0f
aess1    ldx aesr,y
         lda as,x
         tax
         lda %s,x
         sta at,y
         dey
         bpl aess1
         rts`, sbox))
	// at[r+4c] = as[r+4((c+r)%%4)] before the S-box: ShiftRows.
	var sr, nx []byte
	for c := 0; c < 4; c++ {
		for r := 0; r < 4; r++ {
			sr = append(sr, byte(r+4*((c+r)%4)))
			nx = append(nx, byte(4*c+(r+1)%4))
		}
	}
	out.label("aesr")
	out.bytes(sr)
	out.comment("aesenc: as = mix(shift(sub(as)))^ak")
	out.comment("out = a ^ t ^ xtime(a ^ next) ^ k")
	emitBody(out, fmt.Sprintf(`
aesenc   jsr aessub
         ldy #$0f
aese1    tya
         and #$0c
         tax
         lda at,x
         eor at+1,x
         eor at+2,x
         eor at+3,x
         sta $02
         ldx aenx,y
         lda at,x
         eor at,y
         tax
         lda %s,x
         eor $02
         eor at,y
         eor ak,y
         sta as,y
         dey
         bpl aese1
         rts`, xt))
	out.label("aenx")
	out.bytes(nx)
}
