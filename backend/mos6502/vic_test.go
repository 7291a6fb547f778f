package mos6502

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/beevik/go6502/cpu"
)

// runTimed assembles body (after `start`, at $0800) and runs `jsr start`
// on a machine timed as ro says.
func runTimed(t *testing.T, ro runOpts, body ...string) (*machine, uint64, error) {
	t.Helper()
	var b strings.Builder
	b.WriteString("         *= $0800\nstart\n")
	for _, l := range body {
		if strings.HasSuffix(l, ":") {
			b.WriteString(strings.TrimSuffix(l, ":") + "\n")
		} else {
			b.WriteString("         " + l + "\n")
		}
	}
	img, err := assemble64tass(b.String(), false)
	if err != nil {
		t.Fatal(err)
	}
	m := newMachineWith(ro)
	if err := m.load(0x0800, img.data); err != nil {
		t.Fatal(err)
	}
	c, err := m.call(img.labels["start"], nil)
	return m, c, err
}

// spin is nested loops of about 1,285 cycles a round of the outer one,
// reading only: on a badline the CPU then loses all 43 cycles.
func spin(outer int) []string {
	return []string{fmt.Sprintf("ldy #%d", outer), "o:", "ldx #0", "i:", "dex", "bne i", "dey", "bne o"}
}

// TestVICBadlines: under --timing c64 a loop of reads running two whole
// frames and more loses 43 cycles on each of 25 badlines a frame, 40 of
// them the VIC's, 3 waiting for it (the ideal timing loses none); the
// badlines are the lines $30-$F7 whose low bits are YSCROLL.
func TestVICBadlines(t *testing.T) {
	body := append(spin(40), "rts") // about 51,400 cycles: 2.6 frames
	_, ideal, err := runTimed(t, runOpts{}, body...)
	if err != nil {
		t.Fatal(err)
	}
	m, c64, err := runTimed(t, runOpts{c64: true}, body...)
	if err != nil {
		t.Fatal(err)
	}
	frames := c64 / palFrame // whole frames, each with its 25 badlines
	if m.vic.stolen != 43*m.vic.badlines || c64-ideal != m.vic.stolen {
		t.Errorf("%d badlines took %d cycles (the run %d more than ideal), want 43 each", m.vic.badlines, m.vic.stolen, c64-ideal)
	}
	if m.vic.badlines < 25*frames || m.vic.badlines > 25*(frames+1) || frames < 2 {
		t.Errorf("%d badlines in %d cycles (%d whole frames)", m.vic.badlines, c64, frames)
	}
	// Which lines: a badline's BA cycle in the VIC's own count.
	v := newVIC()
	v.denFrame = 0
	for line := 0; line < palLines; line++ {
		t0 := uint64(line*palLineCycles + baCycle)
		got := v.after(t0, t0+2, v.d011, 0) != 0
		want := line >= 0x30 && line <= 0xf7 && line&7 == 3
		if got != want {
			t.Errorf("line $%02x: badline %v, want %v", line, got, want)
		}
	}
}

// TestVICWriteCycles: the CPU goes on through write cycles after BA goes
// low, so it loses 43 cycles less one per write: JSR's pushes (cycles 4
// and 5), a store's last cycle, an INC's last two.
func TestVICWriteCycles(t *testing.T) {
	set := cpu.GetInstructionSet(cpu.NMOS)
	cases := []struct {
		op     byte
		at     uint64 // the BA cycle's index in the instruction
		stolen uint64
	}{
		{0x20, 3, 41}, // jsr: cycles 3 and 4 write
		{0x20, 4, 42},
		{0x20, 5, 43},
		{0x20, 0, 43},
		{0x8d, 3, 42}, // sta abs
		{0x8d, 2, 43},
		{0xee, 4, 41}, // inc abs: 6 cycles, the last two write
		{0xee, 5, 42},
		{0x48, 2, 42}, // pha
		{0xad, 3, 43}, // lda abs
	}
	for _, c := range cases {
		v := newVIC()
		v.denFrame = 0
		inst := set.Lookup(c.op)
		b := uint64(0x33*palLineCycles + baCycle)
		t0 := b - c.at
		if got := v.after(t0, t0+uint64(inst.Cycles), v.d011, writeCycles(inst)); got != c.stolen {
			t.Errorf("%s ($%02x) with BA in its cycle %d: %d cycles stolen, want %d", inst.Name, c.op, c.at, got, c.stolen)
		}
	}
}

// TestVICBlanking: DEN cleared before raster line $30 leaves the frame
// without badlines; cleared later (here at line $80, after waiting for
// the raster) the frame keeps all 25 and the next has none; YSCROLL moves
// them; --timing c64-blank starts with DEN clear.
func TestVICBlanking(t *testing.T) {
	twoFrames := append(spin(30), "rts")
	m, _, err := runTimed(t, runOpts{c64: true}, append([]string{"lda #$0b", "sta $d011"}, twoFrames...)...)
	if err != nil {
		t.Fatal(err)
	}
	if m.vic.badlines != 0 {
		t.Errorf("screen blanked at line 0: %d badlines", m.vic.badlines)
	}
	m, _, err = runTimed(t, runOpts{c64: true, blank: true}, twoFrames...)
	if err != nil || m.vic.badlines != 0 {
		t.Errorf("--timing c64-blank: %d badlines, %v", m.vic.badlines, err)
	}
	late := []string{"w:", "lda $d012", "cmp #$80", "bne w", "lda #$0b", "sta $d011"}
	m, c, err := runTimed(t, runOpts{c64: true}, append(late, twoFrames...)...)
	if err != nil {
		t.Fatal(err)
	}
	if m.vic.badlines != 25 || c < 2*palFrame {
		t.Errorf("screen blanked at line $80: %d badlines in %d cycles, want the first frame's 25", m.vic.badlines, c)
	}
	// The raster as the program reads it: bit 8 in $D011's bit 7.
	m, c, err = runTimed(t, runOpts{c64: true}, "w:", "lda $d011", "bpl w", "rts")
	if err != nil || rasterLine(c-6) < 256 || rasterLine(c-6-20) >= 256 {
		t.Errorf("waiting for line 256 ended at cycle %d (line %d): %v", c, rasterLine(c), err)
	}
	// YSCROLL 0: the badlines are $30, $38, ...
	v := newVIC()
	v.d011, v.denFrame = 0x18, 0
	t0 := uint64(0x30*palLineCycles + baCycle)
	if v.after(t0, t0+2, v.d011, 0) == 0 {
		t.Error("YSCROLL 0: line $30 is no badline")
	}
	// With the I/O area banked out ($01 = $34) $D011 is RAM.
	m, _, err = runTimed(t, runOpts{c64: true}, append([]string{"lda #$34", "sta $01", "lda #$0b", "sta $d011"}, twoFrames...)...)
	if err != nil || m.vic.d011 != 0x1b || m.vic.badlines == 0 || m.mem.LoadByte(0xd011) != 0x0b {
		t.Errorf("$01 = $34: VIC $D011 $%02x, RAM $%02x, %d badlines", m.vic.d011, m.mem.LoadByte(0xd011), m.vic.badlines)
	}
}

// TestCycleCap: a call that runs past --max-cycles stops with an error
// that names the cap and the flag; one that finishes within it does not.
func TestCycleCap(t *testing.T) {
	loop := []string{"l:", "jmp l"}
	_, _, err := runTimed(t, runOpts{maxCycles: 1000}, loop...)
	var ce *CapError
	if !errors.As(err, &ce) || err.Error() != "mos6502: the call did not finish within 1000 cycles (--max-cycles)" {
		t.Errorf("endless loop, cap 1000: %v", err)
	}
	if _, c, err := runTimed(t, runOpts{maxCycles: 14}, "nop", "rts"); err != nil || c != 14 {
		t.Errorf("a 14-cycle call under a cap of 14: %d cycles, %v", c, err)
	}
	if _, _, err := runTimed(t, runOpts{maxCycles: 13}, "nop", "rts"); !errors.As(err, &ce) {
		t.Errorf("a 14-cycle call under a cap of 13: %v", err)
	}
}
