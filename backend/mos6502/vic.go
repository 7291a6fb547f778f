package mos6502

import "github.com/beevik/go6502/cpu"

// The C64 timing model (--timing c64). A PAL VIC-II draws 312 raster
// lines of 63 cycles each. On a badline (a raster line from $30 to $F7
// whose low three bits equal YSCROLL, the low three bits of $D011: the
// first line of each of the 25 text rows) it reads the row's 40 character
// codes and takes the bus for 40 cycles. It asks 3 cycles earlier (BA low
// at cycle 12 of the line, the reads in cycles 15-54); in those 3 cycles
// the CPU goes on only while it writes (a 6502 never writes more than 3
// cycles in a row) and stops at its first read. So the CPU loses 43
// cycles on a badline, less one for each write cycle it does from cycle
// 12 on (stores write in their last cycle, read-modify-write
// instructions in their last two, PHA/PHP in their third, JSR in its
// fourth and fifth): 40 to 43 cycles.
//
// There are no badlines in a frame unless the display is enabled ($D011
// bit 4, DEN) in some cycle of raster line $30: clearing DEN blanks the
// screen from the next frame on (or from line $30 of this one). Writes to
// $D011 take effect in the cycle of the store; YSCROLL is read at cycle
// 12 of each line. Reads of $D011 (bit 7 is bit 8 of the raster line)
// and $D012 (its low bits) see the raster position of the instruction's
// fourth cycle. $D011 and $D012 are the VIC when the 6510's port at $01
// maps the I/O area in (bits 0-1 not both 0, bit 2 set; the runner's RAM
// holds $FF there), RAM otherwise. Sprites (which steal more) and the
// VIC's other registers are not modelled: a program that turns sprites
// on is timed without their cost.
//
// The raster position counts from the machine's first cycle: a runner's
// call starts at cycle 1 of raster line 0 with $D011 = $1B (what the
// KERNAL sets: display on, 25 rows, YSCROLL 3), or with $D011 = $0B
// (display off) under --timing c64-blank, as the --emit prg driver times
// its hash.
const (
	palLines      = 312
	palLineCycles = 63
	palFrame      = palLines * palLineCycles
	firstDMALine  = 0x30
	lastDMALine   = 0xf7
	baCycle       = 11 // cycle 12 of the line, counted from 0
	badlineTake   = 40 // the VIC's own cycles
	baLead        = 3  // BA low before the VIC takes the bus
)

// vic is the part of the VIC-II that takes cycles from the CPU.
type vic struct {
	d011     byte  // $D011 as last written
	denFrame int64 // the frame whose line $30 saw DEN set; -1 none yet
	wrote    bool  // the instruction being executed wrote $D011
	// badlines and stolen count the badlines that stopped the CPU and
	// the cycles they took.
	badlines, stolen uint64
}

func newVIC() *vic { return &vic{d011: 0x1b, denFrame: -1} }

func rasterLine(t uint64) int { return int(t / palLineCycles % palLines) }
func frameOf(t uint64) int64  { return int64(t / palFrame) }

// after accounts for an instruction the CPU ran from cycle t0 to t1
// (exclusive) with $D011 at old before it and writes in the cycles of
// the mask: it returns the cycles a badline stole during it.
func (v *vic) after(t0, t1 uint64, old byte, writes uint8) uint64 {
	// The value of $D011 in cycle t: a store writes in its last cycle.
	wt := t1
	if v.wrote {
		wt = t0 + uint64(lastBit(writes))
		v.wrote = false
	}
	at := func(t uint64) byte {
		if t >= wt {
			return v.d011
		}
		return old
	}
	if rasterLine(t0) == firstDMALine || rasterLine(t1-1) == firstDMALine {
		for t := t0; t < t1; t++ {
			if rasterLine(t) == firstDMALine && at(t)&0x10 != 0 {
				v.denFrame = frameOf(t)
			}
		}
	}
	b := t0 + (baCycle+palLineCycles-t0%palLineCycles)%palLineCycles
	if b >= t1 {
		return 0
	}
	line := rasterLine(b)
	if line < firstDMALine || line > lastDMALine || line&7 != int(at(b)&7) || v.denFrame != frameOf(b) {
		return 0
	}
	w := 0
	for i := b - t0; w < baLead && i < 8 && writes>>i&1 != 0; i++ {
		w++
	}
	steal := uint64(badlineTake + baLead - w)
	v.badlines++
	v.stolen += steal
	return steal
}

func lastBit(m uint8) int {
	n := 0
	for i := 0; i < 8; i++ {
		if m>>i&1 != 0 {
			n = i
		}
	}
	return n
}

// writeCycles is the mask of the cycles (from 0, the opcode fetch) in
// which inst writes to memory.
func writeCycles(inst *cpu.Instruction) uint8 {
	n := inst.Cycles
	switch inst.Name {
	case "STA", "STX", "STY":
		return 1 << (n - 1)
	case "ASL", "LSR", "ROL", "ROR", "INC", "DEC":
		if inst.Mode == cpu.ACC {
			return 0
		}
		return 3 << (n - 2)
	case "PHA", "PHP":
		return 1 << 2
	case "JSR":
		return 3 << 3
	case "BRK":
		return 7 << 2
	}
	return 0
}

// ioVisible says the I/O area is mapped in: the 6510's port at $01 has
// LORAM or HIRAM set, and CHAREN.
func (m *machine) ioVisible() bool {
	p := m.mem.LoadByte(1)
	return p&3 != 0 && p&4 != 0
}

// vicBus puts $D011 and $D012 in front of the RAM.
type vicBus struct {
	cpu.Memory
	m *machine
}

func (b *vicBus) LoadByte(addr uint16) byte {
	if (addr == 0xd011 || addr == 0xd012) && b.m.ioVisible() {
		t := b.m.cpu.Cycles + 3
		line := rasterLine(t)
		if addr == 0xd012 {
			return byte(line)
		}
		return b.m.vic.d011&0x7f | byte(line>>8)<<7
	}
	return b.Memory.LoadByte(addr)
}

func (b *vicBus) LoadBytes(addr uint16, p []byte) {
	for i := range p {
		p[i] = b.LoadByte(addr + uint16(i))
	}
}

func (b *vicBus) LoadAddress(addr uint16) uint16 {
	return uint16(b.LoadByte(addr)) | uint16(b.LoadByte(addr+1))<<8
}

func (b *vicBus) StoreByte(addr uint16, v byte) {
	if addr == 0xd011 && b.m.ioVisible() {
		b.m.vic.d011, b.m.vic.wrote = v, true
		return
	}
	if addr == 0xd012 && b.m.ioVisible() {
		return // the raster compare: no interrupts are modelled
	}
	b.Memory.StoreByte(addr, v)
}

func (b *vicBus) StoreBytes(addr uint16, p []byte) {
	for i, v := range p {
		b.StoreByte(addr+uint16(i), v)
	}
}

func (b *vicBus) StoreAddress(addr uint16, v uint16) {
	b.StoreByte(addr, byte(v))
	b.StoreByte(addr+1, byte(v>>8))
}
