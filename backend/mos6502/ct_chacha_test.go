package mos6502

import (
	"math/rand"

	"github.com/lowent/lowentc/stdlib/golden"
)

func init() {
	ctModule["chacha20_xor"] = "chacha20"
	ctModule["poly1305"] = "poly1305"
	ctModule["chacha20_poly1305_seal"] = "chacha20poly1305"
	ctModule["chacha20_poly1305_open"] = "chacha20poly1305"
}

// chachaCTGroups adds TestConstantTime's groups for ChaCha20, Poly1305
// and ChaCha20-Poly1305: random keys and data of fixed lengths, Poly1305
// inputs whose final reduction subtracts p and inputs where it does not
// (and all ones, the largest accumulator) beside random ones, and forged
// AEAD tags differing in each byte.
func chachaCTGroups(rng *rand.Rand, n int, add func(string, golden.Case)) {
	bytes := func(n int) []byte {
		b := make([]byte, n)
		rng.Read(b)
		return b
	}
	ones := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = 0xff
		}
		return b
	}
	// RFC 8439 A.3 #5 (the final subtraction of p taken) and #9 (not).
	r2 := make([]byte, 32)
	r2[0] = 2
	add("poly1305/len=16", golden.Poly1305Case("", r2, ones(16)))
	add("poly1305/len=16", golden.Poly1305Case("", r2, append([]byte{0xfd}, ones(15)...)))
	add("poly1305/len=37", golden.Poly1305Case("", ones(32), ones(37)))
	for range n {
		add("chacha20_xor/len=37", golden.ChaCha20XORCase("", bytes(32), bytes(12), rng.Uint32(), bytes(37)))
		add("poly1305/len=37", golden.Poly1305Case("", bytes(32), bytes(37)))
		add("poly1305/len=16", golden.Poly1305Case("", bytes(32), bytes(16)))
	}
	aeadCTGroups(add, "chacha20_poly1305", 32, n, bytes, golden.ChaChaPolySealCase, golden.ChaChaPolyOpenCase, golden.ChaChaPolySealRef)
}
