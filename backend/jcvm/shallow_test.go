package jcvm

import (
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/driver"
)

// deepSource is an export whose result is one expression n operations
// deep, in the given shape.
func deepSource(shape string, n int) string {
	var e string
	switch shape {
	case "negations": // -(-(-...x)): lowered as 0 - (0 - (...))
		e = strings.Repeat("-", n) + "x"
	case "left": // ((x - x) - x) - ...
		e = "x" + strings.Repeat(" - x", n)
	case "right": // x - (x - (x - ...))
		e = strings.Repeat("x - (", n) + "x" + strings.Repeat(")", n)
	case "mixed": // array reads and commutative operations, right-nested
		ops := []string{" - (", " + (", " ^ (", " * (", " | ("}
		var b strings.Builder
		for i := 0; i < n; i++ {
			if i%3 == 0 {
				b.WriteString("a[" + itoa(i%4) + "]")
			} else {
				b.WriteString("x")
			}
			b.WriteString(ops[i%len(ops)])
		}
		e = b.String() + "a[3]" + strings.Repeat(")", n)
	case "shifted": // a shift by a variable is a choice: its operand is in a branch
		e = "(" + strings.Repeat("-", n) + "x) << s"
	}
	return "module m\n\nexport fn f(x: u32, a: [4]u32, s: u32) -> u32 effects none {\n    return " + e + "\n}\n"
}

// TestDeepExpressions: an expression too deep for the JCVM's 255 operand-
// stack cells used to be refused ("method f needs 402 stack cells") at 32-
// bit limbs (and at 16-bit ones from some depth); its deep operands are now
// computed into temporaries first, and the simulator agrees with the VM.
// (Brackets nest at most 256 deep, so the bracketed shapes stop at 250.)
func TestDeepExpressions(t *testing.T) {
	for _, c := range []struct {
		shape  string
		n      int
		widths []bool // noInt settings
	}{
		{"negations", 200, []bool{false, true}},
		{"negations", 1000, []bool{false, true}},
		{"left", 200, []bool{false, true}},
		// At 16-bit limbs the 1000-long left chain is refused for its
		// transient spill arrays (4,292 bytes), a limit of its own.
		{"left", 1000, []bool{false}},
		{"right", 200, []bool{false, true}},
		{"right", 250, []bool{false, true}},
		{"mixed", 250, []bool{false, true}},
		{"shifted", 1000, []bool{false, true}},
	} {
		name := c.shape + " " + itoa(c.n)
		p, ds := driver.LoadSource("m.lw", []byte(deepSource(c.shape, c.n)))
		if len(ds) > 0 {
			t.Fatalf("%s: %v", name, ds)
		}
		for _, noInt := range c.widths {
			r, err := prepare(input(p), backend.Options{NoInt: noInt})
			if err != nil {
				t.Errorf("%s, noInt=%v: %v", name, noInt, err)
				continue
			}
			for _, call := range [][]string{
				{"f", "x=0", "a=0,0,0,0", "s=0"},
				{"f", "x=1", "a=1,2,3,4", "s=3"},
				{"f", "x=0x80000001", "a=0xffffffff,7,0x12345678,0x80000000", "s=31"},
				{"f", "x=0xdeadbeef", "a=3,0xfffe,0x10000,0x7fffffff", "s=40"},
			} {
				want, got, err := runBoth(p, r, call)
				if err != nil {
					t.Fatalf("%s, noInt=%v, %s: %v", name, noInt, strings.Join(call, " "), err)
				}
				if got != want {
					t.Errorf("%s, noInt=%v, %s:\n  vm:  %q\n  sim: %q", name, noInt, strings.Join(call, " "), want, got)
				}
			}
			r.Close()
		}
	}
}
