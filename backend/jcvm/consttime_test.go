package jcvm

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// carryRead reports whether the array load at code[i] reads the carry
// array at a constant index (getstatic_a carry; a constant; the load).
func carryRead(cls *Class, code []Insn, i int) bool {
	if i < 2 || code[i-2].Op != opGetstaticA || int(code[i-2].A) != cls.Carry.Field {
		return false
	}
	return isConstPush(code[i-1].Op)
}

func isConstPush(op byte) bool {
	k := opName(op)
	return strings.HasPrefix(k, "sconst") || k == "bspush" || k == "sspush"
}

// TestAESRoundsTableFree checks the software AES rounds (the methods
// compiled from lwrt/rt.lw, and any method they were split into) at both
// widths: no array load (a table lookup would index memory with secret
// bytes) but the carry array's results at fixed indices, and no branch, so
// their timing cannot depend on the data.
func TestAESRoundsTableFree(t *testing.T) {
	for _, noInt := range []bool{false, true} {
		p := testprog.Stdlib(t, "gcm")
		cls, err := compileClass(input(p), backend.Options{NoInt: noInt})
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, m := range cls.Methods {
			if !strings.HasPrefix(m.Name, "rt_") || m.Name == "rt_clmul" {
				continue
			}
			if m.carryInt {
				// Reads carry at its argument, a constant at every call
				// (carryRead checks the calls' arguments below).
				continue
			}
			if strings.HasPrefix(m.Name, "rt_enc") {
				seen++
			}
			for i, in := range m.Code {
				name := opName(in.Op)
				if in.Op == opInvokestatic {
					if k := int(in.A) - len(cls.Fields); k >= 0 && k < len(cls.Methods) && cls.Methods[k].carryInt && (i < 1 || !isConstPush(m.Code[i-1].Op)) {
						t.Errorf("noInt=%v: %s reads carry at a computed index", noInt, m.Name)
					}
				}
				if name == "saload" && carryRead(cls, m.Code, i) {
					continue // the results of the S-box method: a fixed index
				}
				if in.Op != opLabel && (name == "baload" || name == "saload" || name == "iaload" || strings.HasPrefix(name, "if") || strings.HasPrefix(name, "goto")) {
					t.Errorf("noInt=%v: %s uses %s", noInt, m.Name, name)
					break
				}
			}
		}
		if seen < 2 {
			t.Errorf("noInt=%v: found %d AES round methods, want rt_enc and rt_enclast", noInt, seen)
		}
		for _, a := range cls.Fields {
			if strings.HasPrefix(a.Name, "rt_") && a.Data != nil {
				t.Errorf("noInt=%v: the runtime has a constant table %s", noInt, a.Name)
			}
		}
	}
}

// TestAESOpcodeCountsFixed runs aes128_encrypt_block in the simulator on
// random keys and blocks: the executed opcodes must be the same, count for
// count, whatever the data.
func TestAESOpcodeCountsFixed(t *testing.T) {
	r := rand.New(rand.NewSource(golden.Seed(t)))
	for _, noInt := range []bool{false, true} {
		checkCountsFixed(t, "aes", "aes128_encrypt_block", noInt, func(int) []lang.Value {
			return []lang.Value{golden.Bytes(randBytes(r, 16)), golden.Bytes(randBytes(r, 16)), golden.Bytes(make([]byte, 16))}
		})
	}
}

// checkCountsFixed runs export of the stdlib module mod four times, on
// args(0) to args(3), and fails t unless every run executes the same
// opcodes, count for count.
func checkCountsFixed(t *testing.T, mod, export string, noInt bool, args func(i int) []lang.Value) {
	t.Helper()
	run, err := prepareShared(testprog.Stdlib(t, mod), backend.Options{NoInt: noInt})
	if err != nil {
		t.Fatal(err)
	}
	var first [256]int64
	for i := 0; i < 4; i++ {
		_, counts, err := run.(*Runner).call(export, args(i))
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = counts
		} else if counts != first {
			t.Errorf("noInt=%v %s: opcode counts depend on the data: %s", noInt, export, countsDiff(first, counts))
		}
	}
}

func countsDiff(a, b [256]int64) string {
	var d []string
	for op := range a {
		if a[op] != b[op] {
			d = append(d, fmt.Sprintf("%s %d vs %d", opName(byte(op)), a[op], b[op]))
		}
	}
	return strings.Join(d, ", ")
}

// TestGHASHGCMOpcodeCountsFixed: GHASH (the carry-less multiply and the
// powers of H) and GCM seal and open (the key schedule included) execute
// the same opcodes, count for count, for every key and data of the same
// lengths, at both widths.
func TestGHASHGCMOpcodeCountsFixed(t *testing.T) {
	r := rand.New(rand.NewSource(golden.Seed(t)))
	for _, noInt := range []bool{false, true} {
		for _, c := range []struct {
			mod, export string
			args        func() []lang.Value
		}{
			{"ghash", "ghash", func() []lang.Value {
				return []lang.Value{golden.Bytes(randBytes(r, 16)), golden.Bytes(randBytes(r, 32)), golden.Bytes(make([]byte, 16))}
			}},
			{"gcm", "aes128_gcm_seal", func() []lang.Value {
				return []lang.Value{golden.Bytes(randBytes(r, 16)), golden.Bytes(randBytes(r, 12)), golden.Bytes(randBytes(r, 5)),
					golden.Bytes(randBytes(r, 21)), golden.Bytes(make([]byte, 21)), golden.Bytes(make([]byte, 16))}
			}},
			{"gcm", "aes128_gcm_open", func() []lang.Value { // random tags: every one fails
				return []lang.Value{golden.Bytes(randBytes(r, 16)), golden.Bytes(randBytes(r, 12)), golden.Bytes(randBytes(r, 5)),
					golden.Bytes(randBytes(r, 21)), golden.Bytes(randBytes(r, 16)), golden.Bytes(make([]byte, 21))}
			}},
		} {
			checkCountsFixed(t, c.mod, c.export, noInt, func(int) []lang.Value { return c.args() })
		}
	}
}
