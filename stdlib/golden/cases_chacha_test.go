package golden

import "testing"

// TestChaChaCasesInSuite keeps the RFC 8439 cases in the suite every
// backend runs, each export with official and random cases.
func TestChaChaCasesInSuite(t *testing.T) {
	n := map[string]int{}
	for _, c := range Cases(1) {
		n[c.Export]++
	}
	for _, e := range []string{"chacha20_block", "chacha20_xor", "poly1305", "chacha20_poly1305_seal", "chacha20_poly1305_open"} {
		if n[e] < 10 {
			t.Errorf("%d cases of %s in Cases", n[e], e)
		}
	}
}
