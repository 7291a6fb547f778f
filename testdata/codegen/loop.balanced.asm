; ir: unroll 20000, inline 400,
; unroll by 8
; lowentc: module loop
; Turbo Macro Pro source, 6502
; mixsum: jsr mixsum
;  msg ptr $05 len $07
;  results at $09
;  zero page $02-$22
         *= $0800
t0
         .byte $00
t1       = $0900
t2       = $0a00
t3       = $0b00
         *= $0c00
; tables: the image of each bit
tcols
         .byte 4,8,16,32,64,128,0,0,0,0
         .byte 0,0,0,0,1,2,8,16,32,64
         .byte 128,0,0,0,0,0,0,0,0,1,2,4
; mktab: build the tables (once)
mktab
         bit tbok
         bmi mkdone
         ldx #$00
         lda #$08
mkpg
         sta mkz+2
         sta mkrd+2
         sta mkwr+2
         lda #$00
mkz
         sta $0800
         lda #$01
         sta mkwr+1
mkcol
         ldy #$00
mkrd
         lda $0800,y
         eor tcols,x
mkwr
         sta $0801,y
         iny
         cpy mkwr+1
         bne mkrd
         inx
         asl mkwr+1
         bcc mkcol
         ldy mkrd+2
         iny
         tya
         cpx #$20
         bne mkpg
         lda #$80
         sta tbok
mkdone
         rts
; loop.mixsum
mixsum
         cld
         bit tbok
         bmi tk0
         jsr mktab
tk0
         tsx
         stx savesp
fn0
         lda #$00
         sta $11
         sta $12
         lda #$67
         sta $13
         lda #$e6
         sta $14
         lda #$09
         sta $15
         lda #$6a
         sta $16
         lda #$85
         sta $17
         lda #$ae
         sta $18
         lda #$67
         sta $19
         lda #$bb
         sta $1a
l1
         lda $11
         cmp $07
         lda $12
         sbc $08
         lda #$00
         sbc #$00
         lda #$00
         sbc #$00
         bcc l2
         jmp l3
l2
         ldx $11
         lda t0,x
         sta $0d
         ldx $12
         lda t0,x
         ldx $11
         eor t1,x
         sta $0e
         lda $12
         sta $02
         lda #$00
         asl $02
         rol a
         asl $02
         rol a
         sta $0f
         lda #$00
         sta $02
         lda #$00
         asl $02
         rol a
         asl $02
         rol a
         sta $10
         clc
         lda $05
         adc $0d
         sta $03
         lda $06
         adc $0e
         sta $04
         ldy #$00
         lda ($03),y
         sta $1b
         iny
         lda ($03),y
         sta $1c
         iny
         lda ($03),y
         sta $1d
         iny
         lda ($03),y
         sta $0d
         clc
         lda $13
         adc $1b
         sta $1e
         lda $14
         adc $1c
         sta $1b
         lda $15
         adc $1d
         sta $1c
         lda $16
         adc $0d
         sta $1d
         lda $1e
         lsr a
         lda $1d
         ror a
         sta $0d
         lda $1c
         ror a
         sta $0e
         lda $1b
         ror a
         sta $0f
         lda $1e
         ror a
         sta $10
         lda $17
         eor $0d
         sta $1b
         ldx $0f
         lda t2,x
         ldx $10
         eor t3,x
         clc
         adc $1b
         sta $1d
         lda $18
         eor $10
         sta $1b
         ldx $0e
         lda t2,x
         ldx $0f
         eor t3,x
         adc $1b
         sta $1f
         lda $19
         eor $0f
         sta $1b
         ldx $0d
         lda t2,x
         ldx $0e
         eor t3,x
         adc $1b
         sta $1e
         lda $1a
         eor $0e
         sta $1b
         ldx $10
         lda t2,x
         ldx $0d
         eor t3,x
         sta $1c
         adc $1b
         sta $20
         lda $0d
         sta $13
         lda $10
         sta $14
         lda $0f
         sta $15
         lda $0e
         sta $16
         lda $1d
         sta $17
         lda $1f
         sta $18
         lda $1e
         sta $19
         lda $20
         sta $1a
         inc $11
         beq l4
         jmp l1
l4
         inc $12
         jmp l1
l3
         lda $13
         eor $17
         sta $0d
         lda $14
         eor $18
         sta $0e
         lda $15
         eor $19
         sta $0f
         lda $16
         eor $1a
         sta $10
         lda $0d
         sta $09
         lda $0e
         sta $0a
         lda $0f
         sta $0b
         lda $10
         sta $0c
         rts
; trap: a failed check, id in X;
; unwind to the export's caller
trap
         stx trapid
         ldx savesp
         txs
         rts
savesp
         .byte 0
trapid
         .byte 0
tbok
         .byte 0
vb
         .byte 0
yt
         .byte 0
progend
