package mos6502

import (
	"strings"
	"testing"
)

// TestPeephole: balanced's peepholes drop a reload of what X holds (not
// when X, or what it was loaded from, changed, nor across a label, nor
// when the next instruction reads the flags), turn `sta OP / ldx OP` into
// `sta OP / tax`, and drop a zero-page store written again before any
// read (not across a branch, a label or an indirect read).
func TestPeephole(t *testing.T) {
	ins := func(s string) []string {
		var out []string
		for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
			l = strings.TrimSpace(l)
			if strings.HasSuffix(l, ":") {
				out = append(out, strings.TrimSuffix(l, ":"))
			} else {
				out = append(out, "         "+l)
			}
		}
		return out
	}
	cases := []struct{ in, want string }{
		{"ldx $10\nlda t0,x\nldx $10\neor t1,x", "ldx $10\nlda t0,x\neor t1,x"},
		{"ldx $10\nlda t0,x\nsta $10\nldx $10\neor t1,x", "ldx $10\nlda t0,x\nsta $10\ntax\neor t1,x"},
		{"ldx $10\nlda t0,x\ninx\nldx $10\neor t1,x", "ldx $10\nlda t0,x\ninx\nldx $10\neor t1,x"},
		{"ldx $10\nlda t0,x\nl1:\nldx $10\neor t1,x", "ldx $10\nlda t0,x\nl1:\nldx $10\neor t1,x"},
		{"ldx $10\nlda t0,x\nldx $10\nbeq l1", "ldx $10\nlda t0,x\nldx $10\nbeq l1"},
		{"ldx $10\nlda t0,x\nsta ($04),y\nldx $10\neor t1,x", "ldx $10\nlda t0,x\nsta ($04),y\nldx $10\neor t1,x"},
		{"ldx vb+1\nlda t0,x\nsta b0_0,x\nldx vb+1\neor t1,x", "ldx vb+1\nlda t0,x\nsta b0_0,x\nldx vb+1\neor t1,x"},
		{"ldy $10\nadc b0_0,y\nldy $10\nadc b0_0+1,y", "ldy $10\nadc b0_0,y\nadc b0_0+1,y"},
		{"ldy $10\nadc b0_0,y\nsta $10\nldy $10\nadc b0_0+1,y", "ldy $10\nadc b0_0,y\nsta $10\ntay\nadc b0_0+1,y"},
		{"ldy $10\nadc b0_0,y\niny\nldy $10\nadc b0_0+1,y", "ldy $10\nadc b0_0,y\niny\nldy $10\nadc b0_0+1,y"},
		{"ldy $10\nldx $11\nadc b0_0,y\nldx $12\nldy $10\nadc b0_0+1,y", "ldy $10\nldx $11\nadc b0_0,y\nldx $12\nadc b0_0+1,y"},
		{"ldy $10\nadc b0_0,y\nl1:\nldy $10\nadc b0_0+1,y", "ldy $10\nadc b0_0,y\nl1:\nldy $10\nadc b0_0+1,y"},
		{"ldx $10\nlda t0,x\nldx $10\nsta b0_0,x\nclc\nlda $11", "ldx $10\nlda t0,x\nsta b0_0,x\nclc\nlda $11"},
		{"ldx $10\nlda t0,x\nldx $10\nsta b0_0,x\ninc $12", "ldx $10\nlda t0,x\nsta b0_0,x\ninc $12"},
		{"ldx $10\nlda t0,x\nldx $10\nsta b0_0,x\nbne l1", "ldx $10\nlda t0,x\nldx $10\nsta b0_0,x\nbne l1"},
		{"sta $20\nadc $21\nsta $20", "adc $21\nsta $20"},
		{"sta $20\nadc $20\nsta $20", "sta $20\nadc $20\nsta $20"},
		{"sta $20\nbcc l1\nsta $20", "sta $20\nbcc l1\nsta $20"},
		{"sta $20\nl1:\nsta $20", "sta $20\nl1:\nsta $20"},
		{"sta $20\nlda ($1f),y\nsta $20", "sta $20\nlda ($1f),y\nsta $20"},
		{"sta $20\nlda $00,x\nsta $20", "sta $20\nlda $00,x\nsta $20"},
		{"sta $20\njsr mulw\nsta $20", "sta $20\njsr mulw\nsta $20"},
	}
	for _, c := range cases {
		got := strings.Join(peephole(ins(c.in)), "\n")
		want := strings.Join(ins(c.want), "\n")
		if got != want {
			t.Errorf("%q:\n%s\nwant\n%s", c.in, got, want)
		}
	}
}
