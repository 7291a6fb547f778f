package mos6502

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/beevik/go6502/cpu"
	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/stdlib/golden"
)

// cia2 models the two timers of CIA #2 as the driver uses them: timer A
// counting cycles down from $FFFF, timer B counting A's underflows, both
// started by writing $11 to $DD0E and stopped by writing 0 there.
type cia2 struct {
	*cpu.FlatMemory
	c        *cpu.CPU
	start    uint64
	elapsed  uint64
	running  bool
	accesses int
}

// now is the cycle of the bus access of a 4-cycle absolute instruction.
func (m *cia2) now() uint64 { return m.c.Cycles + 3 }

func (m *cia2) StoreByte(addr uint16, v byte) {
	if addr == 0xdd0e {
		m.accesses++
		switch {
		case v&1 != 0 && !m.running:
			m.running, m.start = true, m.now()
		case v&1 == 0 && m.running:
			m.running, m.elapsed = false, m.now()-m.start
		}
	}
	m.FlatMemory.StoreByte(addr, v)
}

func (m *cia2) LoadByte(addr uint16) byte {
	if addr >= 0xdd04 && addr <= 0xdd07 {
		m.accesses++
		e := m.elapsed
		if m.running {
			e = m.now() - m.start
		}
		v := uint32(0xffffffff) - uint32(e) // B:A
		return byte(v >> (8 * (addr - 0xdd04)))
	}
	return m.FlatMemory.LoadByte(addr)
}

// TestPRG runs the C64 program of sha256 in the emulator with the KERNAL's
// CHRIN and CHROUT trapped: it types "Hello C64" (shifted H and C, as on a
// C64 in lower case mode), and checks the printed digest against Go's
// crypto/sha256, the printed cycle figure against the emulator's count of
// the call, and that the zero page BASIC owns is intact afterwards.
func TestPRG(t *testing.T) {
	for _, opt := range []string{"speed", "size"} {
		t.Run(opt, func(t *testing.T) { testPRG(t, opt) })
	}
}

// testPRG is TestPRG for one --opt.
func testPRG(t *testing.T, opt string) {
	p, err := golden.Load("sha256")
	if err != nil {
		t.Fatal(err)
	}
	prg, err := compileArtifact(p, backend.Options{Emit: "prg", Opt: opt})
	if err != nil {
		t.Fatal(err)
	}
	if prg[0] != 0x01 || prg[1] != 0x08 {
		t.Fatalf("load address $%02x%02x, want $0801", prg[1], prg[0])
	}
	// The BASIC line: link, line 10, SYS, "2064".
	if got := string(prg[6:11]); prg[6] != 0x9e || got[1:] != "2064" {
		t.Fatalf("BASIC stub % x, want 10 SYS2064", prg[2:14])
	}
	prog, err := build(p, backend.Options{Opt: opt}, layout{org: prgOrg, linear: true, prg: true})
	if err != nil {
		t.Fatal(err)
	}
	if errs := Lint(prog.src); len(errs) > 0 {
		t.Errorf("the C64 program's source: %d lint errors, first: %s", len(errs), errs[0])
	}

	flat := cpu.NewFlatMemory()
	ff := make([]byte, 0x10000)
	for i := range ff {
		ff[i] = 0xff
	}
	flat.StoreBytes(0, ff)
	mem := &cia2{FlatMemory: flat}
	mem.c = cpu.NewCPU(cpu.NMOS, mem)
	m := &machine{mem: flat, cpu: mem.c}
	if err := m.load(0x0801, prg[2:]); err != nil {
		t.Fatal(err)
	}
	basicZP := make([]byte, 256)
	for a := 2; a < 256; a++ {
		basicZP[a] = byte(a*7 + 3)
		flat.StoreByte(uint16(a), basicZP[a])
	}

	input := []byte{0xc8, 'E', 'L', 'L', 'O', ' ', 0xc3, '6', '4', 0x0d} // PETSCII
	var printed []byte
	callAt := uint16(prog.img.labels["callhash"])
	var hashStart, hashCycles uint64
	rts := func(c *cpu.CPU) {
		c.Reg.SP++
		lo := flat.LoadByte(0x100 + uint16(c.Reg.SP))
		c.Reg.SP++
		hi := flat.LoadByte(0x100 + uint16(c.Reg.SP))
		c.SetPC(uint16(lo) | uint16(hi)<<8 + 1)
	}
	hook := func(mm *machine) bool {
		c := mm.cpu
		switch c.Reg.PC {
		case kernalCHRIN:
			if len(input) == 0 {
				t.Fatal("the program reads past RETURN")
			}
			c.Reg.A, input = input[0], input[1:]
			rts(c)
			return true
		case kernalCHROUT:
			printed = append(printed, c.Reg.A)
			rts(c)
			return true
		case callAt:
			hashStart = c.Cycles
		case callAt + 3:
			hashCycles = c.Cycles - hashStart
		}
		return false
	}
	if _, err := m.call(prgStart, hook); err != nil {
		t.Fatal(err)
	}
	// PETSCII in lower case mode back to text.
	var sb strings.Builder
	for _, ch := range printed {
		switch {
		case ch == 0x0d:
			sb.WriteByte('\n')
		case ch >= 0x41 && ch <= 0x5a:
			sb.WriteByte(ch + 0x20)
		case ch >= 0x20 && ch < 0x41:
			sb.WriteByte(ch)
		}
	}
	out := sb.String()
	t.Logf("printed:\n%s", out)
	want := sha256.Sum256([]byte("Hello C64"))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || lines[0] != hex.EncodeToString(want[:]) {
		t.Fatalf("printed %q, want the digest %x then the cycles", out, want)
	}
	mm := regexp.MustCompile(`^(\d+) cycles$`).FindStringSubmatch(lines[1])
	if mm == nil {
		t.Fatalf("no cycle figure in %q", lines[1])
	}
	n, _ := strconv.ParseUint(mm[1], 10, 64)
	// The timers run from the store that starts A to the one that stops it:
	// the JSR to the RTS plus the lda #0 and that store.
	if n < hashCycles || n > hashCycles+10 {
		t.Errorf("printed %d cycles, the call took %d", n, hashCycles)
	}
	for a := 2; a < 256; a++ {
		if got := flat.LoadByte(uint16(a)); got != basicZP[a] {
			t.Errorf("zero page $%02x is $%02x after the program, was $%02x", a, got, basicZP[a])
		}
	}
}
