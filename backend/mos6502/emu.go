package mos6502

import (
	"fmt"

	"github.com/beevik/go6502/cpu"
)

// machine is a 6502 with 64 KiB of RAM, counting cycles exactly
// (page-crossing and taken-branch penalties included). With vic set it
// also counts the cycles the C64's VIC-II steals on badlines (vic.go).
type machine struct {
	mem *cpu.FlatMemory
	cpu *cpu.CPU
	vic *vic // nil: the ideal timing, every cycle the CPU's
	// maxCycles stops a call (0: defaultMaxCycles).
	maxCycles uint64
}

// runOpts are how a runner's calls are timed.
type runOpts struct {
	c64       bool   // --timing c64: the VIC-II's badlines take cycles
	blank     bool   // --timing c64-blank: the screen off ($D011 = $0B) from the start
	maxCycles uint64 // --max-cycles; 0: defaultMaxCycles
}

// newMachine returns a machine whose RAM holds $FF everywhere, as in
// sim65: code that reads a byte it never wrote then misbehaves in tests
// instead of passing by the luck of zeroed memory. It has the ideal
// timing and the default cycle cap.
func newMachine() *machine { return newMachineWith(runOpts{}) }

// newMachineWith is newMachine timed and capped as ro says.
func newMachineWith(ro runOpts) *machine {
	m := cpu.NewFlatMemory()
	ff := make([]byte, 0x10000)
	for i := range ff {
		ff[i] = 0xff
	}
	m.StoreBytes(0, ff)
	mc := &machine{mem: m, maxCycles: ro.maxCycles}
	var bus cpu.Memory = m
	if ro.c64 {
		mc.vic = newVIC()
		if ro.blank {
			mc.vic.d011 = 0x0b
		}
		bus = &vicBus{Memory: m, m: mc}
	}
	mc.cpu = cpu.NewCPU(cpu.NMOS, bus)
	return mc
}

// restart sets the cycle count and the timing model back to a new
// machine's, keeping the memory: a call after the program's start-up is
// timed as the first call of a fresh machine.
func (m *machine) restart(ro runOpts) {
	m.cpu.Cycles = 0
	if m.vic != nil {
		m.vic = newVIC()
		if ro.blank {
			m.vic.d011 = 0x0b
		}
	}
}

// wrapBus puts wrap's device (a test's CIA, say) in front of the
// machine's memory.
func (m *machine) wrapBus(wrap func(inner cpu.Memory, c func() *cpu.CPU) cpu.Memory) {
	m.cpu = cpu.NewCPU(cpu.NMOS, wrap(m.cpu.Mem, func() *cpu.CPU { return m.cpu }))
}

// load copies data into memory at addr.
func (m *machine) load(addr int, data []byte) error {
	if addr < 0 || addr+len(data) > 0x10000 {
		return fmt.Errorf("mos6502: %d bytes at $%04x do not fit in 64 KiB", len(data), addr)
	}
	m.mem.StoreBytes(uint16(addr), data)
	return nil
}

// callStub is where call places `jsr ENTRY`; the call ends when the PC
// comes back to the instruction after it.
const callStub = 0x0200

// defaultMaxCycles is where a call stops unless --max-cycles says
// otherwise: 406 seconds of a PAL C64.
const defaultMaxCycles = 400_000_000

// CapError is a call stopped by the cycle cap (--max-cycles).
type CapError struct{ Cycles uint64 }

func (e *CapError) Error() string {
	return fmt.Sprintf("mos6502: the call did not finish within %d cycles (--max-cycles)", e.Cycles)
}

// CapReached marks the error for the command line (bench --block stops
// adding blocks on it).
func (e *CapError) CapReached() {}

// call runs `jsr entry` from callStub with the stack pointer at $ff and
// returns the cycles from the JSR up to and including the routine's RTS.
// hook, when not nil, is called before each instruction and may handle it
// (returning true), as the KERNAL traps of the C64 program do.
func (m *machine) call(entry int, hook func(m *machine) bool) (uint64, error) {
	m.mem.StoreBytes(callStub, []byte{0x20, byte(entry), byte(entry >> 8)})
	c := m.cpu
	c.Reg.SP = 0xff
	c.Reg.Decimal = false
	c.SetPC(callStub)
	limit := m.maxCycles
	if limit == 0 {
		limit = defaultMaxCycles
	}
	start := c.Cycles
	for c.Reg.PC != callStub+3 {
		if c.Cycles-start > limit {
			return 0, &CapError{limit}
		}
		if hook != nil && hook(m) {
			continue
		}
		pc := c.Reg.PC
		inst := c.GetInstruction(pc)
		if inst.Name == "???" || inst.Name == "" {
			return 0, fmt.Errorf("mos6502: undocumented opcode $%02x at $%04x", inst.Opcode, pc)
		}
		if m.mem.LoadByte(pc) == 0x00 {
			return 0, fmt.Errorf("mos6502: BRK at $%04x", pc)
		}
		if m.vic == nil {
			c.Step()
			continue
		}
		t0, old := c.Cycles, m.vic.d011
		c.Step()
		c.Cycles += m.vic.after(t0, c.Cycles, old, writeCycles(inst))
	}
	if c.Cycles-start > limit {
		return 0, &CapError{limit}
	}
	return c.Cycles - start, nil
}
