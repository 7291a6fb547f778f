package mos6502

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/lowent/lowentc/backend"

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

// TestSim65AgreesBalanced is TestSim65AgreesSize for --opt balanced
// (balancedCases: the modules served by the interpreter under
// LOWENT_LONG=1).
func TestSim65AgreesBalanced(t *testing.T) {
	sim65AgreeOpt(t, balancedCases(sim65ModeCases()), "balanced")
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

// TestSim65PerBlock prints, for docs/mos6502.md, the cycles per block of
// BLAKE2b (128 bytes), GHASH, AES-128-CTR and AES-128-GCM seal (16) in the
// three modes, as `lowentc bench --block B` fits them (1 to 32 blocks,
// least squares), in go6502 and in sim65, and each program's size; every
// run is also a sim65 agreement check. It takes minutes (every mode's
// build and 72 runs in each emulator): LOWENT_SIM65_TABLE=1 runs it.
func TestSim65PerBlock(t *testing.T) {
	if os.Getenv("LOWENT_SIM65_TABLE") == "" {
		t.Skip("LOWENT_SIM65_TABLE=1 prints the per-block table")
	}
	rep := func(b byte, n int) []byte { return bytes.Repeat([]byte{b}, n) }
	rows := []struct {
		name, mod string
		block     int
		mk        func(n int) golden.Case
	}{
		{"blake2b", "blake2b", 128, func(n int) golden.Case { return golden.Blake2bCase("blake2b", rep(9, n)) }},
		{"ghash", "ghash", 16, func(n int) golden.Case { return golden.GHASHCase("ghash", rep(3, 16), rep(5, n)) }},
		{"aes128_ctr", "aes", 16, func(n int) golden.Case { return golden.CTRCase("aes128_ctr", rep(1, 16), rep(2, 16), rep(3, n)) }},
		{"aes128_gcm_seal", "gcm", 16, func(n int) golden.Case {
			return golden.GCMSealCase("aes128_gcm_seal", rep(1, 16), rep(2, 12), nil, rep(4, n))
		}},
	}
	var ps golden.Programs
	out := "| export (block) | mode | per block, go6502 | per block, sim65 | program bytes |\n|---|---|---|---|---|\n"
	for _, r := range rows {
		for _, opt := range []string{"speed", "balanced", "size"} {
			var xs, gys, sys []float64
			for _, k := range []int{1, 2, 4, 8, 16, 32} {
				g, s := sim65Case(t, &ps, r.mk(k*r.block), opt)
				xs, gys, sys = append(xs, float64(k)), append(gys, float64(g)), append(sys, float64(s))
			}
			gs, _ := backend.FitLine(xs, gys)
			ss, _ := backend.FitLine(xs, sys)
			prog, err := stdlibProgramOpt(r.mod, nil, opt)
			if err != nil {
				t.Fatal(err)
			}
			out += fmt.Sprintf("| %s (%d B) | %s | %.6g | %.6g | %d |\n", r.name, r.block, opt, gs, ss, prog.img.labels["progend"]-runOrg)
		}
	}
	t.Log("\n" + out)
}

// TestSizeReadsNoUninitialisedMemory: sim65 and go6502 both start with
// $FF in every byte, so agreeing between them does not show that a
// program reads only what it or its loader wrote. Here every byte that
// is not the program, an argument or a parameter's zero-page byte is
// first $00, then $5A, then $A5 (a C64 holds whatever was there): the size
// and balanced programs must give the same output in the same cycles.
func TestSizeReadsNoUninitialisedMemory(t *testing.T) {
	for _, opt := range []string{"size", "balanced"} {
		var ps golden.Programs
		cases := sim65ModeCases()
		if opt == "balanced" {
			// The modules whose balanced program is not size's own
			// (every module under LOWENT_LONG=1, CI's long run).
			cases = balancedCases(cases)
		}
		for _, c := range cases {
			p, err := ps.Get(c.Module)
			if err != nil {
				t.Fatal(err)
			}
			prog, err := stdlibProgramOpt(c.Module, p, opt)
			if err != nil {
				t.Fatal(err)
			}
			fn := p.Export(c.Export)
			var want []byte
			var wantCycles uint64
			for i, fill := range []int{-1, 0x00, 0x5a, 0xa5} {
				m, abi, bufs, err := prog.setup(fn.Name, c.Args())
				if err != nil {
					t.Fatal(err)
				}
				if fill >= 0 {
					keep := make([]bool, 0x10000)
					for a := prog.img.org; a < prog.img.org+len(prog.img.data); a++ {
						keep[a] = true
					}
					for _, b := range bufs {
						for a := b.addr; a < b.addr+b.n*b.per; a++ {
							keep[a] = true
						}
					}
					for _, pa := range abi.Params {
						keep[pa.Ptr], keep[pa.Ptr+1] = true, true
						if pa.Len != 0 {
							keep[pa.Len], keep[pa.Len+1] = true, true
						}
						for _, l := range pa.Limbs {
							keep[l] = true
						}
					}
					for a := range keep {
						if !keep[a] {
							m.mem.StoreByte(uint16(a), byte(fill))
						}
					}
				}
				cycles, err := m.call(prog.img.labels[abi.Label], nil)
				if err != nil {
					t.Fatalf("%s %s, fill %#x: %v", opt, c.Name, fill, err)
				}
				out := bufs[len(bufs)-1]
				got := make([]byte, out.n*out.per)
				for j := range got {
					got[j] = m.mem.LoadByte(uint16(out.addr + j))
				}
				if i == 0 {
					want, wantCycles = got, cycles
					continue
				}
				if !bytes.Equal(got, want) || cycles != wantCycles {
					t.Errorf("%s %s: memory filled with %#x: output %x in %d cycles; filled with $FF: %x in %d",
						opt, c.Name, fill, got, cycles, want, wantCycles)
				}
			}
		}
	}
}
