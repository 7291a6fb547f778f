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
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// cia2 models the two timers of CIA #2 as the driver uses them: timer A
// counting cycles down from $FFFF, timer B counting A's underflows, both
// started by writing $11 to $DD0E and stopped by writing 0 there.
type cia2 struct {
	cpu.Memory
	c        func() *cpu.CPU
	start    uint64
	elapsed  uint64
	running  bool
	accesses int
}

// now is the cycle of the bus access of a 4-cycle absolute instruction.
func (m *cia2) now() uint64 { return m.c().Cycles + 3 }

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
	m.Memory.StoreByte(addr, v)
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
	return m.Memory.LoadByte(addr)
}

// TestPRG runs the C64 program of sha256 in the emulator, C64 timing
// model on (the program polls the raster), with the KERNAL's CHRIN and
// CHROUT trapped: it types "Hello C64" (shifted H and C, as on a C64 in
// lower case mode), and checks the printed digest against Go's
// crypto/sha256, the printed cycle figure against the emulator's count of
// the call and against `run --timing c64-blank --stats` (the timer's
// overhead: prgTimerOverhead), that the screen is on again afterwards, and
// that the zero page BASIC owns is intact. The same program with the
// screen left on prints more: the badlines the blanking avoids.
func TestPRG(t *testing.T) {
	for _, opt := range []string{"speed", "balanced", "size"} {
		t.Run(opt, func(t *testing.T) {
			p := testprog.Stdlib(t, "sha256")
			blanked := runPRG(t, p, opt, true)
			// The runner under the model the program times its hash in:
			// the package's shared build (TestBalancedSHA256's, for
			// balanced), copied, since its run options change.
			shared, err := stdlibProgramOpt("sha256", p, opt)
			if err != nil {
				t.Fatal(err)
			}
			copied := *shared
			prog := &copied
			prog.run = runOpts{c64: true, blank: true}
			_, st, err := (&Runner{prog: prog}).Run("sha256", []lang.Value{bytesValue([]byte("Hello C64")), {IsArray: true, Elems: make([]uint64, 32)}})
			if err != nil {
				t.Fatal(err)
			}
			stats := map[string]string{}
			for _, s := range st {
				stats[s.Key] = s.Value
			}
			runCycles, _ := strconv.ParseUint(stats["cycles"], 10, 64)
			if stats["timing"] != "c64-blank" || stats["badlines"] != "0" {
				t.Errorf("run --timing c64-blank --stats: %v", st)
			}
			if blanked.printed != runCycles+prgTimerOverhead {
				t.Errorf("the program printed %d cycles; run --timing c64-blank --stats says %d, + %d of the timer = %d",
					blanked.printed, runCycles, prgTimerOverhead, runCycles+prgTimerOverhead)
			}
			if blanked.badlines != 0 {
				t.Errorf("%d badlines while the blanked program hashed", blanked.badlines)
			}
			on := runPRG(t, p, opt, false)
			if on.badlines == 0 || on.printed <= blanked.printed {
				t.Errorf("screen on: %d cycles, %d badlines; blanked: %d cycles", on.printed, on.badlines, blanked.printed)
			}
			if on.printed-blanked.printed != on.stolen {
				t.Errorf("screen on costs %d cycles more, the badlines took %d", on.printed-blanked.printed, on.stolen)
			}
			t.Logf("%s: printed %d cycles blanked (run --timing c64-blank: %d), %d with the screen on (%d badlines, %d cycles)",
				opt, blanked.printed, runCycles, on.printed, on.badlines, on.stolen)
		})
	}
}

// prgTimerOverhead is what the C64 program's cycle figure adds to the
// call's (JSR to RTS): the timer, as cia2 models it, counts from the
// write cycle of the store that starts it to that of the store that stops
// it, so it also counts the lda #0 (2 cycles) and sta $dd0e (4) after the
// RTS: 6 cycles.
const prgTimerOverhead = 6

// prgRun is what runPRG saw: the printed cycle figure, and the badlines
// (and the cycles they took) during the timed call.
type prgRun struct{ printed, badlines, stolen uint64 }

// runPRG runs the C64 program of sha256 (p) built with opt, the screen
// blanked or not while it hashes.
func runPRG(t *testing.T, p *lang.Program, opt string, blank bool) prgRun {
	t.Helper()
	want := sha256.Sum256([]byte("Hello C64"))
	return runPRGEntry(t, p, "", opt, blank, want[:])
}

// runPRGEntry runs the C64 program of p calling the export entry ("": the
// default choice) built with opt, and checks that it prints want in hex.
func runPRGEntry(t *testing.T, p *lang.Program, entry, opt string, blank bool, want []byte) prgRun {
	t.Helper()
	f, n, err := PRGEntry(input(p).Exports, entry)
	if err != nil {
		t.Fatal(err)
	}
	if n != len(want) {
		t.Fatalf("export %s writes %d bytes, want %d", f, n, len(want))
	}
	lay := layout{org: prgOrgFor(n), linear: true, prg: true, noBlank: !blank, entry: f, outLen: n}
	var prg []byte
	if blank {
		var err error
		if prg, err = compileArtifact(input(p), backend.Options{Emit: "prg", Opt: opt, Entry: entry}); err != nil {
			t.Fatal(err)
		}
		if prg[0] != 0x01 || prg[1] != 0x08 {
			t.Fatalf("load address $%02x%02x, want $0801", prg[1], prg[0])
		}
		// The BASIC line: link, line 10, SYS, "2064".
		if got := string(prg[6:11]); prg[6] != 0x9e || got[1:] != "2064" {
			t.Fatalf("BASIC stub % x, want 10 SYS2064", prg[2:14])
		}
	}
	prog, err := build(input(p), backend.Options{Opt: opt}, lay)
	if err != nil {
		t.Fatal(err)
	}
	if prog.img.labels["drvend"] > lay.org {
		t.Fatalf("the driver ends at $%04x, past the module's $%04x", prog.img.labels["drvend"], lay.org)
	}
	if !blank {
		prg = append([]byte{0x01, 0x08}, prog.img.data...)
	}
	if errs := Lint(prog.src); len(errs) > 0 {
		t.Errorf("the C64 program's source: %d lint errors, first: %s", len(errs), errs[0])
	}

	m := newMachineWith(runOpts{c64: true})
	flat := m.mem
	m.wrapBus(func(inner cpu.Memory, c func() *cpu.CPU) cpu.Memory { return &cia2{Memory: inner, c: c} })
	flat.StoreByte(1, 0x37) // the 6510 port as the KERNAL leaves it
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
	var hashStart, hashCycles, bl0, st0 uint64
	var run prgRun
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
			hashStart, bl0, st0 = c.Cycles, mm.vic.badlines, mm.vic.stolen
		case callAt + 3:
			hashCycles = c.Cycles - hashStart
			run.badlines, run.stolen = mm.vic.badlines-bl0, mm.vic.stolen-st0
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
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || lines[0] != hex.EncodeToString(want) {
		t.Fatalf("printed %q, want the digest %x then the cycles", out, want)
	}
	mm := regexp.MustCompile(`^(\d+) cycles$`).FindStringSubmatch(lines[1])
	if mm == nil {
		t.Fatalf("no cycle figure in %q", lines[1])
	}
	run.printed, _ = strconv.ParseUint(mm[1], 10, 64)
	if run.printed != hashCycles+prgTimerOverhead {
		t.Errorf("printed %d cycles, the call took %d (+ %d of the timer)", run.printed, hashCycles, prgTimerOverhead)
	}
	if blank && m.vic.d011 != 0x1b {
		t.Errorf("$D011 is $%02x after the program, was $1b", m.vic.d011)
	}
	for a := 2; a < 256; a++ {
		if got := flat.LoadByte(uint16(a)); got != basicZP[a] {
			t.Errorf("zero page $%02x is $%02x after the program, was $%02x", a, got, basicZP[a])
		}
	}
	return run
}

// TestPRGEntry builds the C64 program of stdlib/blake2b.lw, whose export
// blake2b writes 64 bytes (blake2b_keyed's out is a slice, so blake2b is
// the only export the program can call), by default and by --entry, runs
// it in the emulator as TestPRG does, and checks the 64 printed bytes
// against the golden reference; then the choices --entry refuses.
func TestPRGEntry(t *testing.T) {
	p := testprog.Stdlib(t, "blake2b")
	want := golden.Blake2bRef(nil, []byte("Hello C64"), 64)
	for _, entry := range []string{"", "blake2b"} {
		r := runPRGEntry(t, p, entry, "speed", true, want)
		t.Logf("--entry %q: %d cycles printed", entry, r.printed)
	}
	for entry, msg := range map[string]string{
		"blake2b_keyed": "--entry blake2b_keyed: not shaped NAME(msg: []u8, out: mut [N]u8), 1 <= N <= 255; exports of that shape: blake2b",
		"nosuch":        "--entry nosuch: no export; exports of that shape: blake2b",
	} {
		_, err := compileArtifact(input(p), backend.Options{Emit: "prg", Entry: entry})
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("--entry %s: error %v, want %q", entry, err, msg)
		}
	}
	sha := testprog.Stdlib(t, "sha256")
	if _, err := compileArtifact(input(sha), backend.Options{Emit: "prg", Entry: "blake2b"}); err == nil || !strings.Contains(err.Error(), "exports of that shape: sha256") {
		t.Errorf("sha256.lw --entry blake2b: error %v", err)
	}
}
