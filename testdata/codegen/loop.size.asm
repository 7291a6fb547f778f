; ir: unroll 0, inline -1
; lowentc: module loop (--opt size)
; Turbo Macro Pro source, 6502
; mixsum: jsr mixsum
;  msg ptr $14 len $16
;  results at vb+0
;  zero page $02-$17
         *= $0800
k0
         .byte $00,$00,$00,$00
k1
         .byte $67,$e6,$09,$6a
k2
         .byte $85,$ae,$67,$bb
; loop.mixsum
mixsum
         cld
         tsx
         stx savesp
fn0
         jsr wop
         .byte $00,$04
         .word vb+4,$0016
         .byte $02
         .byte $01,$04
         .word vb+8,k0
         .byte $01,$04
         .word vb+12,k1
         .byte $01,$04
         .word vb+16,k2
l1
         .byte $02,$04
         .word l2-1,vb+8,vb+4
         .byte $03,$04,$82
         .word $0014,vb+8,vb+20
         .byte $04,$04
         .word vb+24,vb+12,vb+20
         .byte $05,$04
         .word vb+20,vb+24
         .byte $01
         .byte $06,$04
         .word vb+20
         .byte $01
         .byte $07,$04
         .word vb+24,vb+16,vb+20
         .byte $05,$04
         .word vb+28,vb+20
         .byte $02
         .byte $08,$04
         .word vb+28
         .byte $03
         .byte $04,$04
         .word vb+32,vb+24,vb+28
         .byte $01,$04
         .word vb+12,vb+20
         .byte $01,$04
         .word vb+16,vb+32
         .byte $09,$04
         .word vb+8
         .byte $0a
         .word l1-1
l2
         .byte $07,$04
         .word vb+4,vb+12,vb+16
         .byte $01,$04
         .word vb+0,vb+4
         .byte $0b
; trap: a failed check, id in X;
; unwind to the export's caller
trap
         stx trapid
         ldx savesp
         txs
         rts
; wop: the --opt size interpreter
wop
         pla
         sta $03
         pla
         sta $04
wnext
         ldy #$01
         lda ($03),y
         tax
         iny
wcopy
         tya
         cmp wlen,x
         bcs wadv
         lda ($03),y
         sta $0003,y
         iny
         bne wcopy
wadv
         dey
         tya
         clc
         adc $03
         sta $03
         bcc wdisp
         inc $04
wdisp
         txa
         asl a
         tax
         lda wjt,x
         sta $10
         lda wjt+1,x
         sta $11
         jmp ($10)
wlen
         .byte $08,$07,$09,$0a,$09,$08
         .byte $06,$09,$06,$05,$04,$02
wjt
         .word whzext
         .word whmov
         .word whjge
         .word whld
         .word whadd
         .word whrby
         .word whbrr
         .word whxor
         .word whbrl
         .word whinc
         .word whjmp
         .word whret
whadd
         ldy #$00
         ldx $05
         clc
whadd1
         lda ($08),y
         adc ($0a),y
         sta ($06),y
         iny
         dex
         bne whadd1
         jmp wnext
whbrl
         ldy $05
         dey
         lda ($06),y
         asl a
         jsr wsl1
         dec $08
         bne whbrl
         jmp wnext
whbrr
         ldy #$00
         lda ($06),y
         lsr a
         jsr wsr1
         dec $08
         bne whbrr
         jmp wnext
whinc
         ldy #$00
whinc1
         lda ($06),y
         clc
         adc #$01
         sta ($06),y
         bcc whinc2
         iny
         cpy $05
         bne whinc1
whinc2
         jmp wnext
whjge
         jsr wcmp
         bcc whjge1
         lda $06
         sta $03
         lda $07
         sta $04
whjge1
         jmp wnext
whjmp
         lda $05
         sta $03
         lda $06
         sta $04
         jmp wnext
whld
         jsr waddr
         ldy $05
         dey
whld1
         lda ($0e),y
         sta ($0b),y
         dey
         bpl whld1
         jmp wnext
whmov
         ldy $05
         dey
whmov1
         lda ($08),y
         sta ($06),y
         dey
         bpl whmov1
         jmp wnext
whrby
         jsr wbufa
         lda $05
         sec
         sbc $0a
         tax
         ldy #$00
whrby1
         cpx $05
         bcc whrby2
         ldx #$00
whrby2
         lda wbuf,x
         sta ($06),y
         inx
         iny
         cpy $05
         bne whrby1
         jmp wnext
whret
         rts
whxor
         ldy #$00
whxor1
         lda ($08),y
         eor ($0a),y
         sta ($06),y
         iny
         cpy $05
         bne whxor1
         jmp wnext
whzext
         ldy #$00
whzext1
         lda #$00
         cpy $0a
         bcs whzext2
         lda ($08),y
whzext2
         sta ($06),y
         iny
         cpy $05
         bne whzext1
         jmp wnext
waddr
         ldy #$00
         lda ($09),y
         sta $0e
         iny
         lda ($09),y
         sta $0f
         lda $06
         and #$07
         tax
         beq waddr2
waddr1
         asl $0e
         rol $0f
         dex
         bne waddr1
waddr2
         lda $06
         bmi waddr3
         clc
         lda $0e
         adc $07
         sta $0e
         lda $0f
         adc $08
         sta $0f
         rts
waddr3
         ldx $07
         clc
         lda $0e
         adc $00,x
         sta $0e
         lda $0f
         adc $01,x
         sta $0f
         rts
wbufa
         ldy $05
         dey
wbufa1
         lda ($08),y
         sta wbuf,y
         dey
         bpl wbufa1
         rts
wcmp
         ldy #$00
         sty $12
         ldx $05
         sec
wcmp1
         lda ($08),y
         sbc ($0a),y
         ora $12
         sta $12
         iny
         dex
         bne wcmp1
         rts
wseta
         ldy #$00
         sta ($06),y
         jmp wnext
wsl1
         ldy #$00
         ldx $05
wsl11
         lda ($06),y
         rol a
         sta ($06),y
         iny
         dex
         bne wsl11
         rts
wsr1
         ldy $05
         dey
wsr11
         lda ($06),y
         ror a
         sta ($06),y
         dey
         bpl wsr11
         rts
savesp
         .byte $00
trapid
         .byte $00
wbuf
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00
wq
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00
wr
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00
wt2
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00
vb
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00,$00,$00
yt
         .byte $00
progend
