package amd64

import (
	"regexp"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
)

// TestKeccakStraightLine: under --hw auto the AVX2 variant of
// stdlib/sha3.lw's keccak_f1600 runs its 24 rounds as straight-line code
// (no branch), at most 180 instructions a round. sha3.lw's round reads
// each lane of the state once and writes the new state row by row, which
// llc keeps in registers; the earlier theta, rho-pi and chi passes over
// the state in place stayed a loop of 24 trips of about 190 instructions,
// 115 of the function's lines spills and reloads.
func TestKeccakStraightLine(t *testing.T) {
	p := testprog.Load(t, "../../stdlib/sha3.lw")
	asm, err := Compile(input(p), backend.Options{Emit: "asm", HW: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?s)\nlowentc_sha3_keccak_f1600\.avx2:(.*?)\.Lfunc_end`).FindStringSubmatch(string(asm))
	if body == nil {
		t.Fatal("no avx2 variant of keccak_f1600 in the assembly")
	}
	n := 0
	for _, line := range strings.Split(body[1], "\n") {
		if !strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "\t.") || strings.HasPrefix(line, "\t#") {
			continue
		}
		n++
		if strings.HasPrefix(line, "\tj") {
			t.Errorf("keccak_f1600.avx2 branches: %s", line)
		}
	}
	if n > 24*180 {
		t.Errorf("keccak_f1600.avx2 has %d instructions, want at most %d (180 a round)", n, 24*180)
	}
}
