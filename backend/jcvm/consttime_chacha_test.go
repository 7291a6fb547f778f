package jcvm

import (
	"math/rand"
	"testing"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// TestChaChaPolyOpcodeCountsFixed: ChaCha20, Poly1305 and ChaCha20-Poly1305
// seal and open execute the same opcodes, count for count, for every key
// and data of the same lengths, at both widths; Poly1305 also on inputs
// whose final reduction subtracts p and on inputs where it does not, and
// open on tags forged in different bytes.
func TestChaChaPolyOpcodeCountsFixed(t *testing.T) {
	r := rand.New(rand.NewSource(golden.Seed(t)))
	fill := func(n int, b byte) []byte {
		s := make([]byte, n)
		for i := range s {
			s[i] = b
		}
		return s
	}
	for _, noInt := range []bool{false, true} {
		for _, c := range []struct {
			mod, export string
			args        func(i int) []lang.Value
		}{
			{"chacha20", "chacha20_xor", func(int) []lang.Value {
				return []lang.Value{golden.Bytes(randBytes(r, 32)), golden.Bytes(randBytes(r, 12)), {Word: uint64(r.Uint32())},
					golden.Bytes(randBytes(r, 37)), golden.Bytes(make([]byte, 37))}
			}},
			{"poly1305", "poly1305", func(i int) []lang.Value {
				// RFC 8439 A.3 #5 (r = 2, 16 bytes ff: the final
				// subtraction of p is taken) and #9 (first byte fd:
				// not taken), between random keys and messages.
				key, msg := randBytes(r, 32), randBytes(r, 16)
				switch i {
				case 1, 2:
					key, msg = make([]byte, 32), fill(16, 0xff)
					key[0] = 2
					if i == 2 {
						msg[0] = 0xfd
					}
				}
				return []lang.Value{golden.Bytes(key), golden.Bytes(msg), golden.Bytes(make([]byte, 16))}
			}},
			{"chacha20poly1305", "chacha20_poly1305_seal", func(int) []lang.Value {
				return []lang.Value{golden.Bytes(randBytes(r, 32)), golden.Bytes(randBytes(r, 12)), golden.Bytes(randBytes(r, 5)),
					golden.Bytes(randBytes(r, 21)), golden.Bytes(make([]byte, 21)), golden.Bytes(make([]byte, 16))}
			}},
			{"chacha20poly1305", "chacha20_poly1305_open", func(i int) []lang.Value {
				// One message; its tag forged in byte 5*i: every one fails.
				key, nonce, aad, pt := fill(32, 1), fill(12, 2), fill(5, 3), fill(21, 4)
				ct, tag := golden.ChaChaPolySealRef(key, nonce, aad, pt)
				tag[5*i] ^= 0x10
				return []lang.Value{golden.Bytes(key), golden.Bytes(nonce), golden.Bytes(aad),
					golden.Bytes(ct), golden.Bytes(tag), golden.Bytes(make([]byte, 21))}
			}},
		} {
			checkCountsFixed(t, c.mod, c.export, noInt, c.args)
		}
	}
}
