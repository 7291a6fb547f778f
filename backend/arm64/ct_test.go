package arm64

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/internal/testprog"
)

// Constant time: no load whose address is a constant table plus a
// register. A table's address comes from ADRP (and ADD :lo12:); a load
// from such a base with a register index (or from a base computed from
// one with a register) is a table lookup whose index is data, and with a
// cache its time can depend on that data. Loads at a fixed address (ADRP
// base plus an immediate: the computed AES's masks) are fine.

var (
	a64Func  = regexp.MustCompile(`^[0-9a-f]+ <(.*)>:$`)
	a64Insn  = regexp.MustCompile(`^\s+[0-9a-f]+:\s+(\S+)\s*(.*)$`)
	a64Reg   = regexp.MustCompile(`\b[xw]([0-9]+)\b`)
	a64MemOp = regexp.MustCompile(`\[([^\]]*)\]`)
)

// tableLoads returns the loads of an llvm-objdump -d listing that index a
// constant table with a register, as "function: instruction".
func tableLoads(listing string) []string {
	var bad []string
	fn := ""
	table := map[string]bool{} // registers (by number) holding a table address
	for _, line := range strings.Split(listing, "\n") {
		if m := a64Func.FindStringSubmatch(line); m != nil {
			fn, table = m[1], map[string]bool{}
			continue
		}
		m := a64Insn.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		mn, ops := m[1], m[2]
		regs := a64Reg.FindAllStringSubmatch(ops, -1)
		if strings.HasPrefix(mn, "ld") {
			if mem := a64MemOp.FindStringSubmatch(ops); mem != nil {
				inner := a64Reg.FindAllStringSubmatch(mem[1], -1)
				if len(inner) >= 2 && (table[inner[0][1]] || table[inner[1][1]]) {
					bad = append(bad, fn+": "+strings.TrimSpace(line))
				}
			}
		}
		if len(regs) == 0 || strings.HasPrefix(mn, "st") || strings.HasPrefix(mn, "b") ||
			strings.HasPrefix(mn, "cb") || strings.HasPrefix(mn, "tb") || mn == "cmp" || mn == "tst" || mn == "ret" {
			continue
		}
		// The first operand is the destination: a table address after
		// ADRP, or after arithmetic on one; anything else otherwise (a
		// vector destination changes no general register).
		first := a64Reg.FindStringSubmatch(strings.TrimSpace(strings.SplitN(ops, ",", 2)[0]))
		if first == nil {
			continue
		}
		dst := first[1]
		derived := mn == "adrp"
		if !derived && (mn == "add" || mn == "sub" || mn == "mov" || mn == "orr") {
			for _, r := range regs[1:] {
				derived = derived || table[r[1]]
			}
		}
		table[dst] = derived
	}
	return bad
}

// TestTableLoadsDetector: the detector finds a table lookup and leaves a
// fixed-address load alone.
func TestTableLoadsDetector(t *testing.T) {
	listing := `0000000000000000 <f>:
       0:      	adrp	x8, 0x0 <f>
       4:      	add	x8, x8, #0
       8:      	ldr	q0, [x8, #16]
       c:      	ldrb	w9, [x8, x1]
      10:      	add	x10, x8, x2
      14:      	ldr	w11, [x10, x3, lsl #2]
      18:      	mov	x8, x0
      1c:      	ldr	w12, [x8, x1]
`
	bad := tableLoads(listing)
	if len(bad) != 2 || !strings.Contains(bad[0], "ldrb") || !strings.Contains(bad[1], "x10, x3") {
		t.Errorf("tableLoads found %q, want the ldrb and the ldr through x10", bad)
	}
}

// TestNoTableLookups: the objects of the golden modules, computed and
// crypto, index no constant table with a register. sha3 is not in the
// list (as on amd64): its 24 rounds stay a loop, which reads the iota
// constant RC[r] at the round counter, a public index this detector
// cannot tell from data.
func TestNoTableLookups(t *testing.T) {
	mods := []string{"aes", "gcm", "ghash", "sha256", "blake2b", "sha512", "chacha20", "poly1305", "chacha20poly1305"}
	prebuild(t, mods, []string{"none", "crypto"})
	for _, mod := range mods {
		p := testprog.Stdlib(t, mod)
		for _, hw := range []string{"none", "crypto"} {
			obj, err := llvm.Object(Target, input(p), backend.Options{HW: hw})
			if err != nil {
				t.Fatalf("%s --hw %s: %v", mod, hw, err)
			}
			out, err := exec.Command("llvm-objdump", "-d", "--no-show-raw-insn", "--mattr=+aes,+sha2", obj).Output()
			if err != nil {
				t.Fatalf("llvm-objdump -d %s: %v", obj, err)
			}
			for _, l := range tableLoads(string(out)) {
				t.Errorf("%s --hw %s: table lookup: %s", mod, hw, l)
			}
		}
	}
}
