package mos6502

import (
	"fmt"

	"github.com/beevik/go6502/cpu"
)

// machine is a 6502 with 64 KiB of RAM, counting cycles exactly
// (page-crossing and taken-branch penalties included).
type machine struct {
	mem *cpu.FlatMemory
	cpu *cpu.CPU
}

// newMachine returns a machine whose RAM holds $FF everywhere, as in
// sim65: code that reads a byte it never wrote then misbehaves in tests
// instead of passing by the luck of zeroed memory.
func newMachine() *machine {
	m := cpu.NewFlatMemory()
	ff := make([]byte, 0x10000)
	for i := range ff {
		ff[i] = 0xff
	}
	m.StoreBytes(0, ff)
	return &machine{mem: m, cpu: cpu.NewCPU(cpu.NMOS, m)}
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

// maxCycles stops a runaway program.
const maxCycles = 400_000_000

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
	start := c.Cycles
	for c.Reg.PC != callStub+3 {
		if c.Cycles-start > maxCycles {
			return 0, fmt.Errorf("mos6502: no return after %d cycles (PC $%04x)", maxCycles, c.Reg.PC)
		}
		if hook != nil && hook(m) {
			continue
		}
		if inst := c.GetInstruction(c.Reg.PC); inst.Name == "???" || inst.Name == "" {
			return 0, fmt.Errorf("mos6502: undocumented opcode $%02x at $%04x", inst.Opcode, c.Reg.PC)
		}
		if c.Mem.LoadByte(c.Reg.PC) == 0x00 {
			return 0, fmt.Errorf("mos6502: BRK at $%04x", c.Reg.PC)
		}
		c.Step()
	}
	return c.Cycles - start, nil
}
