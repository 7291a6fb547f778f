; ir: unroll 20000, inline 400,
; unroll by 8
; lowentc: module inout
; Turbo Macro Pro source, 6502
; xorinto: jsr xorinto
;  dst ptr $05 len $07
;  src ptr $09 len $0b
;  k at $0d
;  zero page $02-$12
         *= $0800
; inout.xorinto
xorinto
         cld
         tsx
         stx savesp
         lda $05
         sta ovt+0
         lda $06
         sta ovt+1
         lda $07
         sta ovt+2
         lda $08
         sta ovt+3
         lda $09
         sta ovt+4
         lda $0a
         sta ovt+5
         lda $0b
         sta ovt+6
         lda $0c
         sta ovt+7
         ldx #0
         ldy #4
         jsr ovl
         bcs l1
         bcc l2
l1
         ldx #$01
         jmp trap
l2
fn0
         lda $07
         eor $0b
         cmp #$01
         lda #$00
         rol a
         eor #$01
         sta $0e
         lda $08
         eor $0c
         cmp #$01
         lda #$00
         rol a
         eor #$01
         sta $0f
         lda #$00
         eor #$00
         cmp #$01
         lda #$00
         rol a
         eor #$01
         sta $10
         lda #$00
         eor #$00
         cmp #$01
         lda #$00
         rol a
         eor #$01
         sta $11
         lda $0e
         and $0f
         and $10
         and $11
         sta $0f
         lda $0f
         bne l3
         ldx #$02
         jmp trap
l3
         lda #$00
         sta $0e
         sta $0f
l4
         lda $0e
         cmp $0b
         lda $0f
         sbc $0c
         lda #$00
         sbc #$00
         lda #$00
         sbc #$00
         bcc l5
         jmp l6
l5
         clc
         lda $05
         adc $0e
         sta $03
         lda $06
         adc $0f
         sta $04
         ldy #$00
         lda ($03),y
         sta $10
         clc
         lda $09
         adc $0e
         sta $03
         lda $0a
         adc $0f
         sta $04
         ldy #$00
         lda ($03),y
         eor $10
         sta $12
         clc
         adc $0d
         sta $10
         clc
         lda $05
         adc $0e
         sta $03
         lda $06
         adc $0f
         sta $04
         ldy #$00
         lda $10
         sta ($03),y
         inc $0e
         beq l7
         jmp l4
l7
         inc $0f
         jmp l4
l6
         rts
; trap: a failed check, id in X;
; unwind to the export's caller
trap
         stx trapid
         ldx savesp
         txs
         rts
; ovl: C = the ranges at ovt+X and ovt+Y
ovl
         lda ovt+2,x
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
ovlno
         clc
         rts
ovlyes
         sec
ovlend
         rts
savesp
         .byte 0
trapid
         .byte 0
ovt
         .byte 0,0,0,0,0,0,0,0
ove1
         .byte 0,0
ove2
         .byte 0,0
vb
         .byte 0
yt
         .byte 0
progend
