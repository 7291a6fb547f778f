package golden

import (
	"bytes"
	"strings"
	"testing"
)

// TestChaChaReferencesMatchVectors checks the x/crypto references against
// RFC 8439's vectors, so that a vector typed wrong here is caught
// independently of the Lowent code.
func TestChaChaReferencesMatchVectors(t *testing.T) {
	for _, v := range ChaChaVectors {
		var got, want []byte
		switch v.Name[:strings.IndexByte(v.Name, '/')] {
		case "chacha20_block":
			got, want = ChaCha20Ref(v.Get("key"), v.Get("nonce"), vectorCounter(v), make([]byte, 64)), v.Get("out")
		case "chacha20_xor":
			got, want = ChaCha20Ref(v.Get("key"), v.Get("nonce"), vectorCounter(v), v.Get("src")), v.Get("dst")
		case "poly1305":
			got, want = Poly1305Ref(v.Get("key"), v.Get("msg")), v.Get("tag")
		case "chacha20_poly1305_seal":
			ct, tag := ChaChaPolySealRef(v.Get("key"), v.Get("nonce"), v.Get("aad"), v.Get("pt"))
			got, want = append(ct, tag...), append(v.Get("ct"), v.Get("tag")...)
		default:
			t.Fatalf("no reference for vector %s", v.Name)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s (%s): reference gives %x, published %x", v.Name, v.Source, got, want)
		}
	}
}

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
