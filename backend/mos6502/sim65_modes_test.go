package mos6502

import (
	"bytes"
	"testing"

	"github.com/lowent/lowentc/stdlib/golden"
)

// sim65ModeCases are the cases TestSim65AgreesSize and
// TestSim65AgreesBalanced run: in size mode every one of these modules
// but Poly1305 is the W=64 interpreter, in balanced mode all but SHA-512
// and Poly1305 fall back to it.
func sim65ModeCases() []golden.Case {
	return []golden.Case{
		golden.Blake2bCase("blake2b/200", bytes.Repeat([]byte{9}, 200)),
		golden.Blake2bCase("blake2b/empty", nil),
		golden.GHASHCase("ghash/2", bytes.Repeat([]byte{3}, 16), bytes.Repeat([]byte{5}, 32)),
		golden.CTRCase("aes128_ctr/40", bytes.Repeat([]byte{1}, 16), bytes.Repeat([]byte{2}, 16), bytes.Repeat([]byte{3}, 40)),
		golden.GCMSealCase("gcm/seal", bytes.Repeat([]byte{1}, 16), bytes.Repeat([]byte{2}, 12),
			bytes.Repeat([]byte{3}, 20), bytes.Repeat([]byte{4}, 40)),
		golden.SHA3_256Case("sha3_256/200", bytes.Repeat([]byte{6}, 200)),
		golden.SHA512Case("sha512/hello", []byte("Hello C64")),
		golden.Poly1305Case("poly1305/40", bytes.Repeat([]byte{9}, 32), bytes.Repeat([]byte{10}, 40)),
	}
}

// TestSim65AgreesSize runs --opt size programs in sim65 and go6502: the
// same output and cycle count (sim65 used to stop at "Illegal opcode $1C"
// in the interpreter's ROL abs,X loop: see patchSim65RolAbsX).
func TestSim65AgreesSize(t *testing.T) {
	sim65AgreeOpt(t, sim65ModeCases(), "size")
}

// TestSim65AgreesBalanced is TestSim65AgreesSize for --opt balanced.
func TestSim65AgreesBalanced(t *testing.T) {
	sim65AgreeOpt(t, sim65ModeCases(), "balanced")
}

// TestSim65RolThunk: in go6502, a JSR to rolThunk leaves A, X, Y, the
// flags and the target byte as ROL abs,X does, for carries in and out,
// zero and negative results, and an index crossing a page.
func TestSim65RolThunk(t *testing.T) {
	const base = 0x30f8
	for _, x := range []byte{0, 7, 8, 0xff} {
		for _, v := range []byte{0x00, 0x80, 0x40, 0x01, 0xff} {
			for _, carry := range []bool{false, true} {
				run := func(code []byte) (byte, byte, byte, bool, bool, bool, bool, byte) {
					m := newMachine()
					if err := m.load(runOrg, code); err != nil {
						t.Fatal(err)
					}
					m.mem.StoreByte(uint16(base+int(x)), v)
					m.cpu.Reg.A, m.cpu.Reg.X, m.cpu.Reg.Y = 0x5a, x, 0xa5
					m.cpu.Reg.Carry, m.cpu.Reg.Overflow = carry, true
					if _, err := m.call(runOrg, nil); err != nil {
						t.Fatal(err)
					}
					r := m.cpu.Reg
					return r.A, r.X, r.Y, r.Carry, r.Zero, r.Sign, r.Overflow, m.mem.LoadByte(uint16(base + int(x)))
				}
				a1, x1, y1, c1, z1, n1, v1, m1 := run([]byte{0x3e, byte(base & 0xff), byte(base >> 8), 0x60})
				a2, x2, y2, c2, z2, n2, v2, m2 := run(rolThunk(runOrg, base))
				if a1 != a2 || x1 != x2 || y1 != y2 || c1 != c2 || z1 != z2 || n1 != n2 || v1 != v2 || m1 != m2 {
					t.Errorf("x=%#x v=%#x c=%v: rol abs,x A=%#x X=%#x Y=%#x C=%v Z=%v N=%v V=%v mem=%#x; thunk A=%#x X=%#x Y=%#x C=%v Z=%v N=%v V=%v mem=%#x",
						x, v, carry, a1, x1, y1, c1, z1, n1, v1, m1, a2, x2, y2, c2, z2, n2, v2, m2)
				}
			}
		}
	}
}
