; ir: unroll 0, inline -1
; lowentc: module hwbranch (--opt size)
; Turbo Macro Pro source, 6502
; step: jsr step
;  s ptr $14
;  k ptr $16
;  zero page $02-$17
         *= $0800
t0
         .byte $63,$7c,$77,$7b,$f2,$6b
         .byte $6f,$c5,$30,$01,$67,$2b
         .byte $fe,$d7,$ab,$76,$ca,$82
         .byte $c9,$7d,$fa,$59,$47,$f0
         .byte $ad,$d4,$a2,$af,$9c,$a4
         .byte $72,$c0,$b7,$fd,$93,$26
         .byte $36,$3f,$f7,$cc,$34,$a5
         .byte $e5,$f1,$71,$d8,$31,$15
         .byte $04,$c7,$23,$c3,$18,$96
         .byte $05,$9a,$07,$12,$80,$e2
         .byte $eb,$27,$b2,$75,$09,$83
         .byte $2c,$1a,$1b,$6e,$5a,$a0
         .byte $52,$3b,$d6,$b3,$29,$e3
         .byte $2f,$84,$53,$d1,$00,$ed
         .byte $20,$fc,$b1,$5b,$6a,$cb
         .byte $be,$39,$4a,$4c,$58,$cf
         .byte $d0,$ef,$aa,$fb,$43,$4d
         .byte $33,$85,$45,$f9,$02,$7f
         .byte $50,$3c,$9f,$a8,$51,$a3
         .byte $40,$8f,$92,$9d,$38,$f5
         .byte $bc,$b6,$da,$21,$10,$ff
         .byte $f3,$d2,$cd,$0c,$13,$ec
         .byte $5f,$97,$44,$17,$c4,$a7
         .byte $7e,$3d,$64,$5d,$19,$73
         .byte $60,$81,$4f,$dc,$22,$2a
         .byte $90,$88,$46,$ee,$b8,$14
         .byte $de,$5e,$0b,$db,$e0,$32
         .byte $3a,$0a,$49,$06,$24,$5c
         .byte $c2,$d3,$ac,$62,$91,$95
         .byte $e4,$79,$e7,$c8,$37,$6d
         .byte $8d,$d5,$4e,$a9,$6c,$56
         .byte $f4,$ea,$65,$7a,$ae,$08
         .byte $ba,$78,$25,$2e,$1c,$a6
         .byte $b4,$c6,$e8,$dd,$74,$1f
         .byte $4b,$bd,$8b,$8a,$70,$3e
         .byte $b5,$66,$48,$03,$f6,$0e
         .byte $61,$35,$57,$b9,$86,$c1
         .byte $1d,$9e,$e1,$f8,$98,$11
         .byte $69,$d9,$8e,$94,$9b,$1e
         .byte $87,$e9,$ce,$55,$28,$df
         .byte $8c,$a1,$89,$0d,$bf,$e6
         .byte $42,$68,$41,$99,$2d,$0f
         .byte $b0,$54,$bb,$16
t1
         .byte $00,$02,$04,$06,$08,$0a
         .byte $0c,$0e,$10,$12,$14,$16
         .byte $18,$1a,$1c,$1e,$20,$22
         .byte $24,$26,$28,$2a,$2c,$2e
         .byte $30,$32,$34,$36,$38,$3a
         .byte $3c,$3e,$40,$42,$44,$46
         .byte $48,$4a,$4c,$4e,$50,$52
         .byte $54,$56,$58,$5a,$5c,$5e
         .byte $60,$62,$64,$66,$68,$6a
         .byte $6c,$6e,$70,$72,$74,$76
         .byte $78,$7a,$7c,$7e,$80,$82
         .byte $84,$86,$88,$8a,$8c,$8e
         .byte $90,$92,$94,$96,$98,$9a
         .byte $9c,$9e,$a0,$a2,$a4,$a6
         .byte $a8,$aa,$ac,$ae,$b0,$b2
         .byte $b4,$b6,$b8,$ba,$bc,$be
         .byte $c0,$c2,$c4,$c6,$c8,$ca
         .byte $cc,$ce,$d0,$d2,$d4,$d6
         .byte $d8,$da,$dc,$de,$e0,$e2
         .byte $e4,$e6,$e8,$ea,$ec,$ee
         .byte $f0,$f2,$f4,$f6,$f8,$fa
         .byte $fc,$fe,$1b,$19,$1f,$1d
         .byte $13,$11,$17,$15,$0b,$09
         .byte $0f,$0d,$03,$01,$07,$05
         .byte $3b,$39,$3f,$3d,$33,$31
         .byte $37,$35,$2b,$29,$2f,$2d
         .byte $23,$21,$27,$25,$5b,$59
         .byte $5f,$5d,$53,$51,$57,$55
         .byte $4b,$49,$4f,$4d,$43,$41
         .byte $47,$45,$7b,$79,$7f,$7d
         .byte $73,$71,$77,$75,$6b,$69
         .byte $6f,$6d,$63,$61,$67,$65
         .byte $9b,$99,$9f,$9d,$93,$91
         .byte $97,$95,$8b,$89,$8f,$8d
         .byte $83,$81,$87,$85,$bb,$b9
         .byte $bf,$bd,$b3,$b1,$b7,$b5
         .byte $ab,$a9,$af,$ad,$a3,$a1
         .byte $a7,$a5,$db,$d9,$df,$dd
         .byte $d3,$d1,$d7,$d5,$cb,$c9
         .byte $cf,$cd,$c3,$c1,$c7,$c5
         .byte $fb,$f9,$ff,$fd,$f3,$f1
         .byte $f7,$f5,$eb,$e9,$ef,$ed
         .byte $e3,$e1,$e7,$e5
k0
         .byte $00,$00,$00,$00
k1
         .byte $01,$00,$00,$00
; hwbranch.step
step
         cld
         tsx
         stx savesp
         ldy #0
         jsr ovchk
fn0
         jsr wop
         .byte $00,$08,$83
         .word $0014,k0,vb+0
         .byte $01,$08
         .word vb+8,vb+0
         .byte $02,$08
         .word vb+8
         .byte $01
         .byte $03,$08
         .word vb+16,vb+0
         .byte $07
         .byte $04,$08
         .word vb+16
         .byte $07
         .byte $00,$08,$83
         .word $0014,k1,vb+0
         .byte $05,$08
         .word vb+24,vb+8,vb+0
         .byte $00,$08,$83
         .word $0016,k0,vb+0
         .byte $00,$08,$83
         .word $0016,k1,vb+8
         .byte $01,$08
         .word as,vb+24
         .byte $01,$08
         .word as+8,vb+16
         .byte $01,$08
         .word ak,vb+0
         .byte $01,$08
         .word ak+8,vb+8
         .byte $06
         .word aesenc
         .byte $01,$08
         .word vb+32,as
         .byte $01,$08
         .word vb+40,as+8
         .byte $07,$08,$83
         .word $0014,k0,vb+32
         .byte $07,$08,$83
         .word $0014,k1,vb+40
         .byte $08
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
         .byte $10,$01,$00,$00,$10,$00
         .byte $14,$00,$80,$00,$00,$10
         .byte $00,$16,$00,$00
ovdend
; aeslast: as = shift(sub(as))^ak
aeslast
         jsr aessub
         ldx #$0f
aesl1
         lda at,x
         eor ak,x
         sta as,x
         dex
         bpl aesl1
         rts
; aessub: at[i] = sbox[as[aesr[i]]]
aessub
         ldy #$0f
aess1
         ldx aesr,y
         lda as,x
         tax
         lda t0,x
         sta at,y
         dey
         bpl aess1
         rts
aesr
         .byte $00,$05,$0a,$0f,$04,$09
         .byte $0e,$03,$08,$0d,$02,$07
         .byte $0c,$01,$06,$0b
; aesenc: as = mix(shift(sub(as)))^ak
; out = a ^ t ^ xtime(a ^ next) ^ k
aesenc
         jsr aessub
         ldy #$0f
aese1
         tya
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
         lda t1,x
         eor $02
         eor at,y
         eor ak,y
         sta as,y
         dey
         bpl aese1
         rts
aenx
         .byte $01,$02,$03,$00,$05,$06
         .byte $07,$04,$09,$0a,$0b,$08
         .byte $0d,$0e,$0f,$0c
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
         .byte $0a,$07,$06,$08,$06,$09
         .byte $04,$0a,$02
wjt
         .word whld
         .word whmov
         .word whbsl
         .word whsbr
         .word whbsr
         .word whxor
         .word whcall
         .word whst
         .word whret
whbsl
         clc
         jsr wsl1
         dec $08
         bne whbsl
         jmp wnext
whbsr
         clc
         jsr wsr1
         dec $08
         bne whbsr
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
yt
         .byte $00
as
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00
ak
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00
at
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00
progend
