package mos6502

import (
	"strings"
	"testing"
)

// runAsm assembles src (at org) and returns the cycles of `jsr start`.
func runAsm(t *testing.T, src string) uint64 {
	t.Helper()
	img, err := assemble64tass(src, false)
	if err != nil {
		t.Fatal(err)
	}
	m := newMachine()
	org := img.labels["start"]
	for l, a := range img.labels {
		if l == "org" {
			org = a
		}
	}
	if err := m.load(org, img.data); err != nil {
		t.Fatal(err)
	}
	c, err := m.call(img.labels["start"], nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestEmulatorCycles checks the emulator's cycle counts against the 6502
// datasheet: JSR 6 and RTS 6; LDA abs,X 4, plus 1 across a page; a branch
// 2 not taken, 3 taken, 4 taken to another page.
func TestEmulatorCycles(t *testing.T) {
	prog := func(org string, body ...string) string {
		var b strings.Builder
		b.WriteString("         *= " + org + "\norg\nstart\n")
		for _, l := range body {
			if strings.HasSuffix(l, ":") {
				b.WriteString(strings.TrimSuffix(l, ":") + "\n")
			} else {
				b.WriteString("         " + l + "\n")
			}
		}
		return b.String()
	}
	cases := []struct {
		name string
		src  string
		want uint64
	}{
		{"jsr+rts", prog("$0800", "rts"), 12},
		{"lda abs,x same page", prog("$0800", "ldx #$01", "lda $1200,x", "rts"), 12 + 2 + 4},
		{"lda abs,x page cross", prog("$0800", "ldx #$01", "lda $12ff,x", "rts"), 12 + 2 + 5},
		{"lda (zp),y page cross", prog("$0800", "lda #$ff", "sta $10", "lda #$12", "sta $11", "ldy #$01", "lda ($10),y", "rts"), 12 + 2 + 3 + 2 + 3 + 2 + 6},
		{"sta abs,x no penalty", prog("$0800", "ldx #$01", "sta $12ff,x", "rts"), 12 + 2 + 5},
		{"branch not taken", prog("$0800", "lda #$01", "beq l", "l:", "rts"), 12 + 2 + 2},
		{"branch taken", prog("$0800", "lda #$00", "beq l", "nop", "l:", "rts"), 12 + 2 + 3},
		// beq at $08fd, next instruction $08ff, target $0900: another page.
		{"branch taken across page", prog("$08fb", "lda #$00", "beq l", "nop", "l:", "rts"), 12 + 2 + 4},
		{"loop", prog("$0800", "ldx #$05", "l:", "dex", "bne l", "rts"), 12 + 2 + 5*2 + 4*3 + 2},
	}
	for _, c := range cases {
		if got := runAsm(t, c.src); got != c.want {
			t.Errorf("%s: %d cycles, want %d", c.name, got, c.want)
		}
	}
}
