; ir: unroll 0, inline -1
; lowentc: module inout (--opt size)
; Turbo Macro Pro source, 6502
; xorinto: jsr xorinto
;  dst ptr $14 len $16
;  src ptr $18 len $1a
;  k at vb+0
;  zero page $02-$1b
         *= $0800
k0
         .byte $00,$00,$00,$00
; inout.xorinto
xorinto
         cld
         tsx
         stx savesp
         ldy #0
         jsr ovchk
fn0
         jsr wop
         .byte $00,$04
         .word vb+1,$0016
         .byte $02
         .byte $00,$04
         .word vb+5,$001a
         .byte $02
         .byte $01,$04
         .word vb+9,vb+1,vb+5
         .byte $02
         .word vb+9
         .byte $02
         .byte $03,$04
         .word vb+1,k0
l1
         .byte $04,$04
         .word l2-1,vb+1,vb+5
         .byte $05,$01,$80
         .word $0014,vb+1,vb+9
         .byte $05,$01,$80
         .word $0018,vb+1,vb+10
         .byte $06,$01
         .word vb+11,vb+9,vb+10
         .byte $07,$01
         .word vb+9,vb+11,vb+0
         .byte $08,$01,$80
         .word $0014,vb+1,vb+9
         .byte $09,$04
         .word vb+1
         .byte $0a
         .word l1-1
l2
         .byte $0b
; trap: a failed check, id in X;
; unwind to the export's caller
trap
         stx trapid
         ldx savesp
         txs
         rts
; ovchk: the buffer rule; Y = the
; export's descriptor in ovd
ovchk
         lda ovd,y
         sta ovend
         iny
         iny
         sty ovbeg
         tya
ovf
         tax
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
ovf3
         txa
         clc
         adc #$07
         cmp ovend
         bne ovf
         ldx ovbeg
ovi
         ldy ovbeg
ovj
         lda ovd+6,x
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
ovc
         lda ovw
         cmp ovd+2,x
         lda ovw+1
         sbc ovd+3,x
         bcc ovbad
ovjn
         tya
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
ovbad
         ldy ovbeg
         ldx ovd-1,y
         jmp trap
ovd
         .byte $10,$01,$00,$00,$00,$00
         .byte $14,$16,$80,$00,$00,$00
         .byte $00,$18,$1a,$00
ovdend
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
         .byte $08,$09,$05,$07,$09,$0a
         .byte $09,$09,$0a,$05,$04,$02
wjt
         .word whzext
         .word wheq
         .word whchk
         .word whmov
         .word whjge
         .word whld
         .word whxor
         .word whadd
         .word whst
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
whchk
         ldy #$00
         lda ($05),y
         bne whchk1
         ldx $07
         jmp trap
whchk1
         jmp wnext
wheq
         jsr wcmp
         lda $12
         cmp #$01
         lda #$00
         rol a
         eor #$01
         jmp wseta
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
whret
         rts
whst
         jsr waddr
         ldy $05
         dey
whst1
         lda ($0b),y
         sta ($0e),y
         dey
         bpl whst1
         jmp wnext
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
savesp
         .byte $00
trapid
         .byte $00
ovend
         .byte $00
ovbeg
         .byte $00
ovw
         .byte $00,$00
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
yt
         .byte $00
progend
