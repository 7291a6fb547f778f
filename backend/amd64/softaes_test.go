package amd64

import (
	"regexp"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/driver"
)

// TestSoftRoundShiftRows: under --hw none the bitsliced AES round
// (lowentc.soft.round, stdlib/aes.lw) does ShiftRows with 16-bit lane
// shifts (psrlw/psllw: a rotation of every row by 4 then by 8, each kept
// where the row needs it) instead of one masked 64-bit shift per distance
// (48 psrlq/psllq, 48 por and ~50 pand a round), and stays at most 420
// instructions (490 before).
func TestSoftRoundShiftRows(t *testing.T) {
	p, ds := driver.Load("../../stdlib/aes.lw")
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	asm, err := Compile(input(p), backend.Options{Emit: "asm", HW: "none"})
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?s)\nlowentc\.soft\.round:(.*?)\.Lfunc_end`).FindStringSubmatch(string(asm))
	if body == nil {
		t.Fatal("no lowentc.soft.round in the assembly")
	}
	n, ops := 0, map[string]int{}
	for _, line := range strings.Split(body[1], "\n") {
		if !strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "\t.") || strings.HasPrefix(line, "\t#") {
			continue
		}
		n++
		ops[strings.Fields(line)[0]]++
	}
	if ops["psrlw"] == 0 || ops["psllw"] == 0 {
		t.Errorf("ShiftRows without 16-bit lane shifts: psrlw %d, psllw %d", ops["psrlw"], ops["psllw"])
	}
	if ops["psrlq"]+ops["psllq"] > 0 {
		t.Errorf("64-bit shifts left in the round: psrlq %d, psllq %d", ops["psrlq"], ops["psllq"])
	}
	if n > 420 {
		t.Errorf("lowentc.soft.round has %d instructions, want at most 420", n)
	}
}
