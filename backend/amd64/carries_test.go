package amd64

import (
	"regexp"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/randprog/backendcheck"
	"github.com/lowent/lowentc/internal/testprog"
)

// TestCarries runs backend/testdata/carries.lw (carries and small products
// written with bitwise ops, and near misses of both forms) natively under
// none and auto and compares every export with the VM.
func TestCarries(t *testing.T) {
	backendcheck.TestFile(t, "amd64", "../testdata/carries.lw", 7, 40, backend.Options{HW: "none"}, backend.Options{HW: "auto"})
}

// TestCarrySelection: the bitwise carry of carries.lw's add3 becomes the
// carry flag (ADC, or SETB after the add) with no ANDN/OR majority left,
// and the masked additions of masked one multiply each.
func TestCarrySelection(t *testing.T) {
	p := testprog.Load(t, "../testdata/carries.lw")
	asm, err := Compile(input(p), backend.Options{Emit: "asm"})
	if err != nil {
		t.Fatal(err)
	}
	kernel := func(name string) string {
		body := regexp.MustCompile(`(?s)\nlowentc_carries_` + name + `\.kernel:(.*?)\.Lfunc_end`).FindStringSubmatch(string(asm))
		if body == nil {
			t.Fatalf("no kernel of %s in the assembly", name)
		}
		return body[1]
	}
	add3 := kernel("add3")
	if !regexp.MustCompile(`\b(adcq|setb)\b`).MatchString(add3) {
		t.Errorf("add3 uses no carry flag:%s", add3)
	}
	if regexp.MustCompile(`\b(andnq|shrq\s+\$63)\b`).MatchString(add3) {
		t.Errorf("add3 still computes a carry from bits:%s", add3)
	}
	if n := len(regexp.MustCompile(`\bimulq\b`).FindAllString(kernel("masked"), -1)); n < 3 {
		t.Errorf("masked: %d multiplies, want at least 3 (p3, p2, po)", n)
	}
}
