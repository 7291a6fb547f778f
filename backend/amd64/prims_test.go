package amd64

import (
	"regexp"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/randprog/backendcheck"
	"github.com/lowent/lowentc/internal/testprog"
)

// TestPrimitives runs backend/testdata/prims.lw (mulw, parallel
// assignment) natively and compares every export with the VM.
func TestPrimitives(t *testing.T) {
	backendcheck.TestFile(t, "amd64", "../testdata/prims.lw", 1, 12)
}

// TestMulWInstruction: mulw of u64 is one widening multiply (mul or
// mulx), with no branch in the function.
func TestMulWInstruction(t *testing.T) {
	p := testprog.Load(t, "../testdata/prims.lw")
	asm, err := Compile(input(p), backend.Options{Emit: "asm"})
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?s)\nlowentc_prims_mulw64\.kernel:(.*?)\.Lfunc_end`).FindStringSubmatch(string(asm))
	if body == nil {
		t.Fatalf("no kernel of mulw64 in the assembly:\n%s", asm)
	}
	if !regexp.MustCompile(`\b(mulq|mulxq)\b`).MatchString(body[1]) {
		t.Errorf("mulw64 has no widening multiply:%s", body[1])
	}
	for _, line := range strings.Split(body[1], "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.HasPrefix(f[0], "j") {
			t.Errorf("mulw64 branches: %s", line)
		}
	}
}
