package mos6502

import "fmt"

// wideHelpers emits the run-time routines of a size-mode program: the
// trap exit, and the carry-less multiply and AES rounds rolled into loops
// (AES over index tables: about 130 bytes instead of 830).
func wideHelpers(out *asmBuf, mg *modgen) {
	need := mg.need
	mg.need = map[string]bool{"ovl": need["ovl"], "ovchk": need["ovchk"]}
	helpers(out, mg)
	mg.need = need
	if need["clmul"] {
		// As clmulHelper, rolled: X indexes hb's bytes (q) and then hp
		// (q+i), Y the 9 bytes of hs (i); the count of r is the
		// interpreter's wc2, free while a helper runs. After the inner
		// loop X = q+9, so X-8 is the next q.
		out.comment("clmul: hp = ha x hb, carry-less, branch-free")
		emitBody(out, `
clmul    lda #$00
         ldx #$0f
clm1     sta hp,x
         dex
         bpl clm1
         ldx #$07
clm2     lda ha,x
         sta hs,x
         dex
         bpl clm2
         lda #$00
         sta hs+8
         lda #$08
         sta $11
clm3     ldx #$00
clm4     lsr hb,x
         lda #$00
         sbc #$00
         eor #$ff
         sta $02
         ldy #$00
clm5     lda hs,y
         and $02
         eor hp,x
         sta hp,x
         inx
         iny
         cpy #$09
         bne clm5
         txa
         sec
         sbc #$08
         tax
         cpx #$08
         bne clm4
         ldx #$00
         ldy #$09
         clc
clm6     rol hs,x
         inx
         dey
         bne clm6
         dec $11
         bne clm3
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
