package aessbox

import (
	"testing"
	"time"

	"github.com/lowent/lowentc/lang"
)

// TestSbox checks the circuit on all 256 inputs against lang's S-box table
// (FIPS 197, figure 7).
func TestSbox(t *testing.T) {
	start := time.Now()
	c := Sbox()
	x, a, n := c.Count()
	t.Logf("S-box circuit: %d gates (%d xor, %d and, %d not), built in %v", len(c.Gates), x, a, n, time.Since(start))
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

// TestGateBound pins the circuit's size: the GF((2^4)^2) circuit before the
// three-level tower had 167 gates (105 xor, 58 and, 4 not).
func TestGateBound(t *testing.T) {
	x, a, n := Sbox().Count()
	if x > 92 || a > 36 || n > 4 {
		t.Fatalf("S-box circuit has %d xor, %d and, %d not; want at most 92, 36, 4", x, a, n)
	}
}

// TestTowerChoice checks that the pinned tower is the one the search picks,
// and that every tower gives a correct circuit.
func TestTowerChoice(t *testing.T) {
	if got := chooseTower(); got != chosen {
		t.Fatalf("chooseTower() = %v, pinned %v", got, chosen)
	}
	for _, tw := range towers() {
		c := build(tw[0], tw[1], tw[2], 1)
		for x := 0; x < 256; x++ {
			if got, want := c.Eval(byte(x)), lang.AESSbox[x]; got != want {
				t.Fatalf("tower %v: S(%#x) = %#x, want %#x", tw, x, got, want)
			}
		}
	}
}

// TestDeterministic checks that building again gives the same gates.
func TestDeterministic(t *testing.T) {
	a, b := Sbox(), build(chosen[0], chosen[1], chosen[2], Restarts)
	if len(a.Gates) != len(b.Gates) || a.Outs != b.Outs {
		t.Fatalf("rebuilt circuit differs: %d vs %d gates", len(a.Gates), len(b.Gates))
	}
	for i := range a.Gates {
		if a.Gates[i] != b.Gates[i] {
			t.Fatalf("gate %d differs: %+v vs %+v", i, a.Gates[i], b.Gates[i])
		}
	}
}
