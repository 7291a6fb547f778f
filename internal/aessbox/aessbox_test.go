package aessbox

import (
	"testing"

	"github.com/lowent/lowentc/lang"
)

// TestSbox checks the circuit on all 256 inputs against lang's S-box table
// (FIPS 197, figure 7).
func TestSbox(t *testing.T) {
	c := Sbox()
	t.Logf("S-box circuit: %d gates", len(c.Gates))
	for x := 0; x < 256; x++ {
		if got, want := c.Eval(byte(x)), lang.AESSbox[x]; got != want {
			t.Fatalf("S(%#x) = %#x, want %#x", x, got, want)
		}
	}
}

// TestGates checks that every gate reads only inputs and earlier gates.
func TestGates(t *testing.T) {
	c := Sbox()
	for i, g := range c.Gates {
		if g.A >= 8+i || g.B >= 8+i || g.A < 0 || g.B < 0 || (g.Op != '^' && g.Op != '&' && g.Op != '~') {
			t.Fatalf("gate %d %+v reads a later signal or has an unknown op", i, g)
		}
	}
}
