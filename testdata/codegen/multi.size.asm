; ir: unroll 0, inline -1
; lowentc: module multi (--opt size)
; Turbo Macro Pro source, 6502
; products: jsr products
;  x ptr $14
;  y ptr $16
;  out ptr $18
;  zero page $02-$19
         *= $0800
k0
         .byte $00,$00,$00,$00
k1
         .byte $04,$00,$00,$00
k2
         .byte $01,$00,$00,$00
; multi.mulwide
fn0
         jsr wop
         .byte $00,$08
         .word vb+16,vb+0
         .byte $04
         .byte $00,$08
         .word vb+24,vb+4
         .byte $04
         .byte $01,$08
         .word vb+32,vb+16,vb+24
         .byte $02,$04
         .word vb+16,vb+32
         .byte $03,$08
         .word vb+20,vb+32
         .byte $04
         .byte $02,$04
         .word vb+28,vb+20
         .byte $02,$04
         .word vb+8,vb+16
         .byte $02,$04
         .word vb+12,vb+28
         .byte $04
; multi.products
products
         cld
         tsx
         stx savesp
         ldy #0
         jsr ovchk
fn1
         jsr wop
         .byte $02,$04
         .word vb+40,k0
l1
         .byte $05,$04
         .word l2-1,vb+40,k1
         .byte $06,$04,$82
         .word $0014,vb+40,vb+44
         .byte $06,$04,$82
         .word $0016,vb+40,vb+48
         .byte $02,$04
         .word vb+0,vb+44
         .byte $02,$04
         .word vb+4,vb+48
         .byte $07
         .word fn0
         .byte $02,$04
         .word vb+52,vb+8
         .byte $02,$04
         .word vb+56,vb+12
         .byte $02,$04
         .word vb+44,vb+40
         .byte $08,$04
         .word vb+44
         .byte $01
         .byte $09,$04,$82
         .word $0018,vb+44,vb+52
         .byte $0a,$04
         .word vb+48,vb+44,k2
         .byte $09,$04,$82
         .word $0018,vb+48,vb+56
         .byte $0b,$04
         .word vb+40
         .byte $0c
         .word l1-1
l2
         .byte $04
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
         .byte $17,$01,$00,$00,$10,$00
         .byte $14,$00,$00,$00,$00,$10
         .byte $00,$16,$00,$00,$00,$00
         .byte $20,$00,$18,$00,$80
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
         .byte $08,$09,$07,$08,$02,$09
         .byte $0a,$04,$06,$0a,$09,$05
         .byte $04
wjt
         .word whzext
         .word whmul
         .word whmov
         .word whsbr
         .word whret
         .word whjge
         .word whld
         .word whcall
         .word whbsl
         .word whst
         .word whadd
         .word whinc
         .word whjmp
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
whbsl
         clc
         jsr wsl1
         dec $08
         bne whbsl
         jmp wnext
whcall
         lda $04
         pha
         lda $03
         pha
         jsr wcall
         pla
         sta $03
         pla
         sta $04
         jmp wnext
wcall
         jmp ($05)
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
whmul
         jsr wld3
whmul1
         ldx #wr-wq
         clc
         jsr wshl
         ldx #$00
         clc
         jsr wshl
         lda #$00
         sbc #$00
         eor #$ff
         sta $12
         ldx #$00
         ldy $05
         clc
whmul2
         lda wbuf,x
         and $12
         adc wr,x
         sta wr,x
         inx
         dey
         bne whmul2
         dec $11
         bne whmul1
         ldx #wr-wq
         jmp wout
whret
         rts
whsbr
         jsr wbufa
         ldx $0a
         jmp wsbx
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
wld3
         ldy $05
         dey
wld31
         lda ($0a),y
         sta wbuf,y
         lda ($08),y
         sta wq,y
         lda #$00
         sta wr,y
         dey
         bpl wld31
         lda $05
         asl a
         asl a
         asl a
         sta $11
         rts
wout
         ldy #$00
wout1
         lda wq,x
         sta ($06),y
         inx
         iny
         cpy $05
         bne wout1
         jmp wnext
wsbx
         ldy #$00
wsbx1
         lda #$00
         cpx $05
         bcs wsbx2
         lda wbuf,x
wsbx2
         sta ($06),y
         inx
         iny
         cpy $05
         bne wsbx1
         jmp wnext
wshl
         ldy $05
wshl1
         rol wq,x
         inx
         dey
         bne wshl1
         rts
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
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00,$00,$00
yt
         .byte $00
progend
