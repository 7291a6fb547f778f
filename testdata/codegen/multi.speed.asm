; ir: unroll 20000, inline 0
; lowentc: module multi
; Turbo Macro Pro source, 6502
; products: jsr products
;  x ptr $05
;  y ptr $07
;  out ptr $09
;  zero page $02-$1f
         *= $0800
; multi.products
products
         cld
         tsx
         stx savesp
         lda $05
         sta ovt+0
         lda $06
         sta ovt+1
         lda #$10
         sta ovt+2
         lda #$00
         sta ovt+3
         lda $07
         sta ovt+4
         lda $08
         sta ovt+5
         lda #$10
         sta ovt+6
         lda #$00
         sta ovt+7
         lda $09
         sta ovt+8
         lda $0a
         sta ovt+9
         lda #$20
         sta ovt+10
         lda #$00
         sta ovt+11
         ldx #8
         ldy #0
         jsr ovl
         bcs l1
         ldx #8
         ldy #4
         jsr ovl
         bcs l1
         bcc l2
l1
         ldx #$01
         jmp trap
l2
fn0
         ldy #$00
         lda ($05),y
         sta $0b
         ldy #$01
         lda ($05),y
         sta $0c
         ldy #$02
         lda ($05),y
         sta $0d
         ldy #$03
         lda ($05),y
         sta $0e
         ldy #$00
         lda ($07),y
         sta $0f
         ldy #$01
         lda ($07),y
         sta $10
         ldy #$02
         lda ($07),y
         sta $11
         ldy #$03
         lda ($07),y
         sta $12
         lda $0b
         sta hma
         lda $0f
         sta hmb
         jsr mulw
         lda hma
         sta $13
         lda hmb
         sta $14
         lda $0b
         sta hma
         lda $10
         sta hmb
         jsr mulw
         lda hma
         sta $15
         lda hmb
         sta $16
         clc
         lda $15
         adc $14
         sta $17
         ldx #$00
         bcc l3
         inx
l3
         stx $18
         lda $18
         sta $14
         clc
         adc $16
         sta $15
         lda $0b
         sta hma
         lda $11
         sta hmb
         jsr mulw
         lda hma
         sta $14
         lda hmb
         sta $16
         clc
         lda $14
         adc $15
         sta $18
         ldx #$00
         bcc l4
         inx
l4
         stx $19
         lda $19
         sta $14
         clc
         adc $16
         sta $15
         lda $0b
         sta hma
         lda $12
         sta hmb
         jsr mulw
         lda hma
         sta $14
         lda hmb
         sta $16
         clc
         lda $14
         adc $15
         sta $0b
         ldx #$00
         bcc l5
         inx
l5
         stx $19
         lda $19
         sta $14
         clc
         adc $16
         sta $15
         lda $0c
         sta hma
         lda $0f
         sta hmb
         jsr mulw
         lda hma
         sta $14
         lda hmb
         sta $16
         lda $0c
         sta hma
         lda $10
         sta hmb
         jsr mulw
         lda hma
         sta $19
         lda hmb
         sta $1a
         clc
         lda $19
         adc $16
         sta $1b
         ldx #$00
         bcc l6
         inx
l6
         stx $1c
         lda $1c
         sta $16
         clc
         adc $1a
         sta $19
         lda $0c
         sta hma
         lda $11
         sta hmb
         jsr mulw
         lda hma
         sta $16
         lda hmb
         sta $1a
         clc
         lda $16
         adc $19
         sta $1c
         ldx #$00
         bcc l7
         inx
l7
         stx $1d
         lda $1d
         sta $16
         clc
         adc $1a
         sta $19
         lda $0c
         sta hma
         lda $12
         sta hmb
         jsr mulw
         lda hma
         sta $16
         lda hmb
         sta $1a
         clc
         lda $16
         adc $19
         sta $0c
         ldx #$00
         bcc l8
         inx
l8
         stx $1d
         lda $1d
         sta $16
         clc
         adc $1a
         sta $19
         clc
         lda $17
         adc $14
         sta $16
         lda $18
         adc $1b
         sta $14
         lda $0b
         adc $1c
         sta $18
         lda $15
         adc $0c
         sta $0b
         lda $19
         adc #$00
         sta $0c
         lda #$00
         adc #$00
         sta $17
         lda #$00
         adc #$00
         sta $15
         lda $0d
         sta hma
         lda $0f
         sta hmb
         jsr mulw
         lda hma
         sta $19
         lda hmb
         sta $1a
         lda $0d
         sta hma
         lda $10
         sta hmb
         jsr mulw
         lda hma
         sta $1b
         lda hmb
         sta $1c
         clc
         lda $1b
         adc $1a
         sta $1d
         ldx #$00
         bcc l9
         inx
l9
         stx $1e
         lda $1e
         sta $1a
         clc
         adc $1c
         sta $1b
         lda $0d
         sta hma
         lda $11
         sta hmb
         jsr mulw
         lda hma
         sta $1a
         lda hmb
         sta $1c
         clc
         lda $1a
         adc $1b
         sta $1e
         ldx #$00
         bcc l10
         inx
l10
         stx $1f
         lda $1f
         sta $1a
         clc
         adc $1c
         sta $1b
         lda $0d
         sta hma
         lda $12
         sta hmb
         jsr mulw
         lda hma
         sta $1a
         lda hmb
         sta $1c
         clc
         lda $1a
         adc $1b
         sta $0d
         ldx #$00
         bcc l11
         inx
l11
         stx $1f
         lda $1f
         sta $1a
         clc
         adc $1c
         sta $1b
         clc
         lda $14
         adc $19
         sta $1a
         lda $18
         adc $1d
         sta $14
         lda $0b
         adc $1e
         sta $18
         lda $0c
         adc $0d
         sta $0b
         lda $17
         adc $1b
         sta $0c
         lda $15
         adc #$00
         sta $17
         lda $0e
         sta hma
         lda $0f
         sta hmb
         jsr mulw
         lda hma
         sta $0d
         lda hmb
         sta $15
         lda $0e
         sta hma
         lda $10
         sta hmb
         jsr mulw
         lda hma
         sta $0f
         lda hmb
         sta $19
         clc
         lda $0f
         adc $15
         sta $10
         ldx #$00
         bcc l12
         inx
l12
         stx $1b
         lda $1b
         sta $0f
         clc
         adc $19
         sta $15
         lda $0e
         sta hma
         lda $11
         sta hmb
         jsr mulw
         lda hma
         sta $0f
         lda hmb
         sta $19
         clc
         lda $0f
         adc $15
         sta $11
         ldx #$00
         bcc l13
         inx
l13
         stx $1b
         lda $1b
         sta $0f
         clc
         adc $19
         sta $15
         lda $0e
         sta hma
         lda $12
         sta hmb
         jsr mulw
         lda hma
         sta $0f
         lda hmb
         sta $19
         clc
         lda $0f
         adc $15
         sta $0e
         ldx #$00
         bcc l14
         inx
l14
         stx $12
         lda $12
         sta $0f
         clc
         adc $19
         sta $12
         clc
         lda $14
         adc $0d
         sta $0f
         lda $18
         adc $10
         sta $0d
         lda $0b
         adc $11
         sta $10
         lda $0c
         adc $0e
         sta $0b
         lda $17
         adc $12
         sta $0c
         ldy #$00
         lda $13
         sta ($09),y
         ldy #$01
         lda $16
         sta ($09),y
         ldy #$02
         lda $1a
         sta ($09),y
         ldy #$03
         lda $0f
         sta ($09),y
         ldy #$04
         lda $0d
         sta ($09),y
         ldy #$05
         lda $10
         sta ($09),y
         ldy #$06
         lda $0b
         sta ($09),y
         ldy #$07
         lda $0c
         sta ($09),y
         ldy #$04
         lda ($05),y
         sta $0b
         ldy #$05
         lda ($05),y
         sta $0c
         ldy #$06
         lda ($05),y
         sta $0d
         ldy #$07
         lda ($05),y
         sta $0e
         ldy #$04
         lda ($07),y
         sta $0f
         ldy #$05
         lda ($07),y
         sta $10
         ldy #$06
         lda ($07),y
         sta $11
         ldy #$07
         lda ($07),y
         sta $12
         lda $0b
         sta hma
         lda $0f
         sta hmb
         jsr mulw
         lda hma
         sta $13
         lda hmb
         sta $14
         lda $0b
         sta hma
         lda $10
         sta hmb
         jsr mulw
         lda hma
         sta $15
         lda hmb
         sta $16
         clc
         lda $15
         adc $14
         sta $17
         ldx #$00
         bcc l15
         inx
l15
         stx $18
         lda $18
         sta $14
         clc
         adc $16
         sta $15
         lda $0b
         sta hma
         lda $11
         sta hmb
         jsr mulw
         lda hma
         sta $14
         lda hmb
         sta $16
         clc
         lda $14
         adc $15
         sta $18
         ldx #$00
         bcc l16
         inx
l16
         stx $19
         lda $19
         sta $14
         clc
         adc $16
         sta $15
         lda $0b
         sta hma
         lda $12
         sta hmb
         jsr mulw
         lda hma
         sta $14
         lda hmb
         sta $16
         clc
         lda $14
         adc $15
         sta $0b
         ldx #$00
         bcc l17
         inx
l17
         stx $19
         lda $19
         sta $14
         clc
         adc $16
         sta $15
         lda $0c
         sta hma
         lda $0f
         sta hmb
         jsr mulw
         lda hma
         sta $14
         lda hmb
         sta $16
         lda $0c
         sta hma
         lda $10
         sta hmb
         jsr mulw
         lda hma
         sta $19
         lda hmb
         sta $1a
         clc
         lda $19
         adc $16
         sta $1b
         ldx #$00
         bcc l18
         inx
l18
         stx $1c
         lda $1c
         sta $16
         clc
         adc $1a
         sta $19
         lda $0c
         sta hma
         lda $11
         sta hmb
         jsr mulw
         lda hma
         sta $16
         lda hmb
         sta $1a
         clc
         lda $16
         adc $19
         sta $1c
         ldx #$00
         bcc l19
         inx
l19
         stx $1d
         lda $1d
         sta $16
         clc
         adc $1a
         sta $19
         lda $0c
         sta hma
         lda $12
         sta hmb
         jsr mulw
         lda hma
         sta $16
         lda hmb
         sta $1a
         clc
         lda $16
         adc $19
         sta $0c
         ldx #$00
         bcc l20
         inx
l20
         stx $1d
         lda $1d
         sta $16
         clc
         adc $1a
         sta $19
         clc
         lda $17
         adc $14
         sta $16
         lda $18
         adc $1b
         sta $14
         lda $0b
         adc $1c
         sta $18
         lda $15
         adc $0c
         sta $0b
         lda $19
         adc #$00
         sta $0c
         lda #$00
         adc #$00
         sta $17
         lda #$00
         adc #$00
         sta $15
         lda $0d
         sta hma
         lda $0f
         sta hmb
         jsr mulw
         lda hma
         sta $19
         lda hmb
         sta $1a
         lda $0d
         sta hma
         lda $10
         sta hmb
         jsr mulw
         lda hma
         sta $1b
         lda hmb
         sta $1c
         clc
         lda $1b
         adc $1a
         sta $1d
         ldx #$00
         bcc l21
         inx
l21
         stx $1e
         lda $1e
         sta $1a
         clc
         adc $1c
         sta $1b
         lda $0d
         sta hma
         lda $11
         sta hmb
         jsr mulw
         lda hma
         sta $1a
         lda hmb
         sta $1c
         clc
         lda $1a
         adc $1b
         sta $1e
         ldx #$00
         bcc l22
         inx
l22
         stx $1f
         lda $1f
         sta $1a
         clc
         adc $1c
         sta $1b
         lda $0d
         sta hma
         lda $12
         sta hmb
         jsr mulw
         lda hma
         sta $1a
         lda hmb
         sta $1c
         clc
         lda $1a
         adc $1b
         sta $0d
         ldx #$00
         bcc l23
         inx
l23
         stx $1f
         lda $1f
         sta $1a
         clc
         adc $1c
         sta $1b
         clc
         lda $14
         adc $19
         sta $1a
         lda $18
         adc $1d
         sta $14
         lda $0b
         adc $1e
         sta $18
         lda $0c
         adc $0d
         sta $0b
         lda $17
         adc $1b
         sta $0c
         lda $15
         adc #$00
         sta $17
         lda $0e
         sta hma
         lda $0f
         sta hmb
         jsr mulw
         lda hma
         sta $0d
         lda hmb
         sta $15
         lda $0e
         sta hma
         lda $10
         sta hmb
         jsr mulw
         lda hma
         sta $0f
         lda hmb
         sta $19
         clc
         lda $0f
         adc $15
         sta $10
         ldx #$00
         bcc l24
         inx
l24
         stx $1b
         lda $1b
         sta $0f
         clc
         adc $19
         sta $15
         lda $0e
         sta hma
         lda $11
         sta hmb
         jsr mulw
         lda hma
         sta $0f
         lda hmb
         sta $19
         clc
         lda $0f
         adc $15
         sta $11
         ldx #$00
         bcc l25
         inx
l25
         stx $1b
         lda $1b
         sta $0f
         clc
         adc $19
         sta $15
         lda $0e
         sta hma
         lda $12
         sta hmb
         jsr mulw
         lda hma
         sta $0f
         lda hmb
         sta $19
         clc
         lda $0f
         adc $15
         sta $0e
         ldx #$00
         bcc l26
         inx
l26
         stx $12
         lda $12
         sta $0f
         clc
         adc $19
         sta $12
         clc
         lda $14
         adc $0d
         sta $0f
         lda $18
         adc $10
         sta $0d
         lda $0b
         adc $11
         sta $10
         lda $0c
         adc $0e
         sta $0b
         lda $17
         adc $12
         sta $0c
         ldy #$08
         lda $13
         sta ($09),y
         ldy #$09
         lda $16
         sta ($09),y
         ldy #$0a
         lda $1a
         sta ($09),y
         ldy #$0b
         lda $0f
         sta ($09),y
         ldy #$0c
         lda $0d
         sta ($09),y
         ldy #$0d
         lda $10
         sta ($09),y
         ldy #$0e
         lda $0b
         sta ($09),y
         ldy #$0f
         lda $0c
         sta ($09),y
         ldy #$08
         lda ($05),y
         sta $0b
         ldy #$09
         lda ($05),y
         sta $0c
         ldy #$0a
         lda ($05),y
         sta $0d
         ldy #$0b
         lda ($05),y
         sta $0e
         ldy #$08
         lda ($07),y
         sta $0f
         ldy #$09
         lda ($07),y
         sta $10
         ldy #$0a
         lda ($07),y
         sta $11
         ldy #$0b
         lda ($07),y
         sta $12
         lda $0b
         sta hma
         lda $0f
         sta hmb
         jsr mulw
         lda hma
         sta $13
         lda hmb
         sta $14
         lda $0b
         sta hma
         lda $10
         sta hmb
         jsr mulw
         lda hma
         sta $15
         lda hmb
         sta $16
         clc
         lda $15
         adc $14
         sta $17
         ldx #$00
         bcc l27
         inx
l27
         stx $18
         lda $18
         sta $14
         clc
         adc $16
         sta $15
         lda $0b
         sta hma
         lda $11
         sta hmb
         jsr mulw
         lda hma
         sta $14
         lda hmb
         sta $16
         clc
         lda $14
         adc $15
         sta $18
         ldx #$00
         bcc l28
         inx
l28
         stx $19
         lda $19
         sta $14
         clc
         adc $16
         sta $15
         lda $0b
         sta hma
         lda $12
         sta hmb
         jsr mulw
         lda hma
         sta $14
         lda hmb
         sta $16
         clc
         lda $14
         adc $15
         sta $0b
         ldx #$00
         bcc l29
         inx
l29
         stx $19
         lda $19
         sta $14
         clc
         adc $16
         sta $15
         lda $0c
         sta hma
         lda $0f
         sta hmb
         jsr mulw
         lda hma
         sta $14
         lda hmb
         sta $16
         lda $0c
         sta hma
         lda $10
         sta hmb
         jsr mulw
         lda hma
         sta $19
         lda hmb
         sta $1a
         clc
         lda $19
         adc $16
         sta $1b
         ldx #$00
         bcc l30
         inx
l30
         stx $1c
         lda $1c
         sta $16
         clc
         adc $1a
         sta $19
         lda $0c
         sta hma
         lda $11
         sta hmb
         jsr mulw
         lda hma
         sta $16
         lda hmb
         sta $1a
         clc
         lda $16
         adc $19
         sta $1c
         ldx #$00
         bcc l31
         inx
l31
         stx $1d
         lda $1d
         sta $16
         clc
         adc $1a
         sta $19
         lda $0c
         sta hma
         lda $12
         sta hmb
         jsr mulw
         lda hma
         sta $16
         lda hmb
         sta $1a
         clc
         lda $16
         adc $19
         sta $0c
         ldx #$00
         bcc l32
         inx
l32
         stx $1d
         lda $1d
         sta $16
         clc
         adc $1a
         sta $19
         clc
         lda $17
         adc $14
         sta $16
         lda $18
         adc $1b
         sta $14
         lda $0b
         adc $1c
         sta $18
         lda $15
         adc $0c
         sta $0b
         lda $19
         adc #$00
         sta $0c
         lda #$00
         adc #$00
         sta $17
         lda #$00
         adc #$00
         sta $15
         lda $0d
         sta hma
         lda $0f
         sta hmb
         jsr mulw
         lda hma
         sta $19
         lda hmb
         sta $1a
         lda $0d
         sta hma
         lda $10
         sta hmb
         jsr mulw
         lda hma
         sta $1b
         lda hmb
         sta $1c
         clc
         lda $1b
         adc $1a
         sta $1d
         ldx #$00
         bcc l33
         inx
l33
         stx $1e
         lda $1e
         sta $1a
         clc
         adc $1c
         sta $1b
         lda $0d
         sta hma
         lda $11
         sta hmb
         jsr mulw
         lda hma
         sta $1a
         lda hmb
         sta $1c
         clc
         lda $1a
         adc $1b
         sta $1e
         ldx #$00
         bcc l34
         inx
l34
         stx $1f
         lda $1f
         sta $1a
         clc
         adc $1c
         sta $1b
         lda $0d
         sta hma
         lda $12
         sta hmb
         jsr mulw
         lda hma
         sta $1a
         lda hmb
         sta $1c
         clc
         lda $1a
         adc $1b
         sta $0d
         ldx #$00
         bcc l35
         inx
l35
         stx $1f
         lda $1f
         sta $1a
         clc
         adc $1c
         sta $1b
         clc
         lda $14
         adc $19
         sta $1a
         lda $18
         adc $1d
         sta $14
         lda $0b
         adc $1e
         sta $18
         lda $0c
         adc $0d
         sta $0b
         lda $17
         adc $1b
         sta $0c
         lda $15
         adc #$00
         sta $17
         lda $0e
         sta hma
         lda $0f
         sta hmb
         jsr mulw
         lda hma
         sta $0d
         lda hmb
         sta $15
         lda $0e
         sta hma
         lda $10
         sta hmb
         jsr mulw
         lda hma
         sta $0f
         lda hmb
         sta $19
         clc
         lda $0f
         adc $15
         sta $10
         ldx #$00
         bcc l36
         inx
l36
         stx $1b
         lda $1b
         sta $0f
         clc
         adc $19
         sta $15
         lda $0e
         sta hma
         lda $11
         sta hmb
         jsr mulw
         lda hma
         sta $0f
         lda hmb
         sta $19
         clc
         lda $0f
         adc $15
         sta $11
         ldx #$00
         bcc l37
         inx
l37
         stx $1b
         lda $1b
         sta $0f
         clc
         adc $19
         sta $15
         lda $0e
         sta hma
         lda $12
         sta hmb
         jsr mulw
         lda hma
         sta $0f
         lda hmb
         sta $19
         clc
         lda $0f
         adc $15
         sta $0e
         ldx #$00
         bcc l38
         inx
l38
         stx $12
         lda $12
         sta $0f
         clc
         adc $19
         sta $12
         clc
         lda $14
         adc $0d
         sta $0f
         lda $18
         adc $10
         sta $0d
         lda $0b
         adc $11
         sta $10
         lda $0c
         adc $0e
         sta $0b
         lda $17
         adc $12
         sta $0c
         ldy #$10
         lda $13
         sta ($09),y
         ldy #$11
         lda $16
         sta ($09),y
         ldy #$12
         lda $1a
         sta ($09),y
         ldy #$13
         lda $0f
         sta ($09),y
         ldy #$14
         lda $0d
         sta ($09),y
         ldy #$15
         lda $10
         sta ($09),y
         ldy #$16
         lda $0b
         sta ($09),y
         ldy #$17
         lda $0c
         sta ($09),y
         ldy #$0c
         lda ($05),y
         sta $0b
         ldy #$0d
         lda ($05),y
         sta $0c
         ldy #$0e
         lda ($05),y
         sta $0d
         ldy #$0f
         lda ($05),y
         sta $0e
         ldy #$0c
         lda ($07),y
         sta $0f
         ldy #$0d
         lda ($07),y
         sta $10
         ldy #$0e
         lda ($07),y
         sta $11
         ldy #$0f
         lda ($07),y
         sta $12
         lda $0b
         sta hma
         lda $0f
         sta hmb
         jsr mulw
         lda hma
         sta $13
         lda hmb
         sta $14
         lda $0b
         sta hma
         lda $10
         sta hmb
         jsr mulw
         lda hma
         sta $15
         lda hmb
         sta $16
         clc
         lda $15
         adc $14
         sta $17
         ldx #$00
         bcc l39
         inx
l39
         stx $18
         lda $18
         sta $14
         clc
         adc $16
         sta $15
         lda $0b
         sta hma
         lda $11
         sta hmb
         jsr mulw
         lda hma
         sta $14
         lda hmb
         sta $16
         clc
         lda $14
         adc $15
         sta $18
         ldx #$00
         bcc l40
         inx
l40
         stx $19
         lda $19
         sta $14
         clc
         adc $16
         sta $15
         lda $0b
         sta hma
         lda $12
         sta hmb
         jsr mulw
         lda hma
         sta $14
         lda hmb
         sta $16
         clc
         lda $14
         adc $15
         sta $0b
         ldx #$00
         bcc l41
         inx
l41
         stx $19
         lda $19
         sta $14
         clc
         adc $16
         sta $15
         lda $0c
         sta hma
         lda $0f
         sta hmb
         jsr mulw
         lda hma
         sta $14
         lda hmb
         sta $16
         lda $0c
         sta hma
         lda $10
         sta hmb
         jsr mulw
         lda hma
         sta $19
         lda hmb
         sta $1a
         clc
         lda $19
         adc $16
         sta $1b
         ldx #$00
         bcc l42
         inx
l42
         stx $1c
         lda $1c
         sta $16
         clc
         adc $1a
         sta $19
         lda $0c
         sta hma
         lda $11
         sta hmb
         jsr mulw
         lda hma
         sta $16
         lda hmb
         sta $1a
         clc
         lda $16
         adc $19
         sta $1c
         ldx #$00
         bcc l43
         inx
l43
         stx $1d
         lda $1d
         sta $16
         clc
         adc $1a
         sta $19
         lda $0c
         sta hma
         lda $12
         sta hmb
         jsr mulw
         lda hma
         sta $16
         lda hmb
         sta $1a
         clc
         lda $16
         adc $19
         sta $0c
         ldx #$00
         bcc l44
         inx
l44
         stx $1d
         lda $1d
         sta $16
         clc
         adc $1a
         sta $19
         clc
         lda $17
         adc $14
         sta $16
         lda $18
         adc $1b
         sta $14
         lda $0b
         adc $1c
         sta $18
         lda $15
         adc $0c
         sta $0b
         lda $19
         adc #$00
         sta $0c
         lda #$00
         adc #$00
         sta $17
         lda #$00
         adc #$00
         sta $15
         lda $0d
         sta hma
         lda $0f
         sta hmb
         jsr mulw
         lda hma
         sta $19
         lda hmb
         sta $1a
         lda $0d
         sta hma
         lda $10
         sta hmb
         jsr mulw
         lda hma
         sta $1b
         lda hmb
         sta $1c
         clc
         lda $1b
         adc $1a
         sta $1d
         ldx #$00
         bcc l45
         inx
l45
         stx $1e
         lda $1e
         sta $1a
         clc
         adc $1c
         sta $1b
         lda $0d
         sta hma
         lda $11
         sta hmb
         jsr mulw
         lda hma
         sta $1a
         lda hmb
         sta $1c
         clc
         lda $1a
         adc $1b
         sta $1e
         ldx #$00
         bcc l46
         inx
l46
         stx $1f
         lda $1f
         sta $1a
         clc
         adc $1c
         sta $1b
         lda $0d
         sta hma
         lda $12
         sta hmb
         jsr mulw
         lda hma
         sta $1a
         lda hmb
         sta $1c
         clc
         lda $1a
         adc $1b
         sta $0d
         ldx #$00
         bcc l47
         inx
l47
         stx $1f
         lda $1f
         sta $1a
         clc
         adc $1c
         sta $1b
         clc
         lda $14
         adc $19
         sta $1a
         lda $18
         adc $1d
         sta $14
         lda $0b
         adc $1e
         sta $18
         lda $0c
         adc $0d
         sta $0b
         lda $17
         adc $1b
         sta $0c
         lda $15
         adc #$00
         sta $17
         lda $0e
         sta hma
         lda $0f
         sta hmb
         jsr mulw
         lda hma
         sta $0d
         lda hmb
         sta $15
         lda $0e
         sta hma
         lda $10
         sta hmb
         jsr mulw
         lda hma
         sta $0f
         lda hmb
         sta $19
         clc
         lda $0f
         adc $15
         sta $10
         ldx #$00
         bcc l48
         inx
l48
         stx $1b
         lda $1b
         sta $0f
         clc
         adc $19
         sta $15
         lda $0e
         sta hma
         lda $11
         sta hmb
         jsr mulw
         lda hma
         sta $0f
         lda hmb
         sta $19
         clc
         lda $0f
         adc $15
         sta $11
         ldx #$00
         bcc l49
         inx
l49
         stx $1b
         lda $1b
         sta $0f
         clc
         adc $19
         sta $15
         lda $0e
         sta hma
         lda $12
         sta hmb
         jsr mulw
         lda hma
         sta $0f
         lda hmb
         sta $19
         clc
         lda $0f
         adc $15
         sta $0e
         ldx #$00
         bcc l50
         inx
l50
         stx $12
         lda $12
         sta $0f
         clc
         adc $19
         sta $12
         clc
         lda $14
         adc $0d
         sta $0f
         lda $18
         adc $10
         sta $0d
         lda $0b
         adc $11
         sta $10
         lda $0c
         adc $0e
         sta $0b
         lda $17
         adc $12
         sta $0c
         ldy #$18
         lda $13
         sta ($09),y
         ldy #$19
         lda $16
         sta ($09),y
         ldy #$1a
         lda $1a
         sta ($09),y
         ldy #$1b
         lda $0f
         sta ($09),y
         ldy #$1c
         lda $0d
         sta ($09),y
         ldy #$1d
         lda $10
         sta ($09),y
         ldy #$1e
         lda $0b
         sta ($09),y
         ldy #$1f
         lda $0c
         sta ($09),y
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
; mulw: hmb:hma = hma * hmb
mulw
         lda #$00
         ldx #$08
         lsr hma
mw1
         bcc mw2
         clc
         adc hmb
mw2
         ror a
         ror hma
         dex
         bne mw1
         sta hmb
         rts
savesp
         .byte $00
trapid
         .byte $00
ovt
         .byte $00,$00,$00,$00,$00,$00
         .byte $00,$00,$00,$00,$00,$00
ove1
         .byte $00,$00
ove2
         .byte $00,$00
vb
         .byte $00
yt
         .byte $00
hma
         .byte $00
hmb
         .byte $00
progend
