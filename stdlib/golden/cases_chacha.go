package golden

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"strings"

	"github.com/lowent/lowentc/lang"
	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"
	"golang.org/x/crypto/poly1305" // deprecated as an API, still RFC 8439's Poly1305
)

// The ChaCha20, Poly1305 and ChaCha20-Poly1305 cases (RFC 8439): the
// stdlib modules chacha20, poly1305 and chacha20poly1305, against
// golang.org/x/crypto and the RFC's test vectors.

// ChaCha20BlockCase checks chacha20.chacha20_block(key, nonce, counter).
func ChaCha20BlockCase(name string, key, nonce []byte, counter uint32) Case {
	return Case{
		Name: name, Module: "chacha20", Export: "chacha20_block", Bytes: 64,
		Args: func() []lang.Value {
			return []lang.Value{Bytes(key), Bytes(nonce), {Word: uint64(counter)}, Bytes(make([]byte, 64))}
		},
		Want: func() Expect {
			return Expect{Args: map[int][]byte{3: ChaCha20Ref(key, nonce, counter, make([]byte, 64))}}
		},
	}
}

// ChaCha20XORCase checks chacha20.chacha20_xor(key, nonce, counter, src, dst).
func ChaCha20XORCase(name string, key, nonce []byte, counter uint32, src []byte) Case {
	return Case{
		Name: name, Module: "chacha20", Export: "chacha20_xor", Bytes: len(src),
		Args: func() []lang.Value {
			return []lang.Value{Bytes(key), Bytes(nonce), {Word: uint64(counter)}, Bytes(src), Bytes(make([]byte, len(src)))}
		},
		Want: func() Expect { return Expect{Args: map[int][]byte{4: ChaCha20Ref(key, nonce, counter, src)}} },
	}
}

// Poly1305Case checks poly1305.poly1305(key, msg, tag).
func Poly1305Case(name string, key, msg []byte) Case {
	return Case{
		Name: name, Module: "poly1305", Export: "poly1305", Bytes: len(msg),
		Args: func() []lang.Value { return []lang.Value{Bytes(key), Bytes(msg), Bytes(make([]byte, 16))} },
		Want: func() Expect { return Expect{Args: map[int][]byte{2: Poly1305Ref(key, msg)}} },
	}
}

// ChaChaPolySealCase checks
// chacha20poly1305.chacha20_poly1305_seal(key, nonce, aad, pt, ct, tag).
func ChaChaPolySealCase(name string, key, nonce, aad, pt []byte) Case {
	return aeadSealCase(name, "chacha20poly1305", "chacha20_poly1305_seal", key, nonce, aad, pt, ChaChaPolySealRef)
}

// ChaChaPolyOpenCase checks
// chacha20poly1305.chacha20_poly1305_open(key, nonce, aad, ct, tag, pt). pt
// starts filled with a pattern: when the tag does not verify it must come
// back unchanged.
func ChaChaPolyOpenCase(name string, key, nonce, aad, ct, tag []byte) Case {
	return aeadOpenCase(name, "chacha20poly1305", "chacha20_poly1305_open", key, nonce, aad, ct, tag, 0x5a, ChaChaPolyOpenRef)
}

// ChaCha20Ref is golang.org/x/crypto/chacha20 from block counter on: src
// xor the keystream (the keystream itself for a zero src).
func ChaCha20Ref(key, nonce []byte, counter uint32, src []byte) []byte {
	c, err := chacha20.NewUnauthenticatedCipher(key, nonce)
	if err != nil {
		panic("BUG: golden: chacha20.NewUnauthenticatedCipher: " + err.Error())
	}
	c.SetCounter(counter)
	dst := make([]byte, len(src))
	c.XORKeyStream(dst, src)
	return dst
}

// Poly1305Ref is golang.org/x/crypto/poly1305.Sum.
func Poly1305Ref(key, msg []byte) []byte {
	var k [32]byte
	var tag [16]byte
	copy(k[:], key)
	poly1305.Sum(&tag, msg, &k)
	return tag[:]
}

// ChaChaPolySealRef is golang.org/x/crypto/chacha20poly1305's seal: the
// ciphertext and the tag.
func ChaChaPolySealRef(key, nonce, aad, pt []byte) (ct, tag []byte) {
	out := newChaChaPoly(key).Seal(nil, nonce, pt, aad)
	return out[:len(pt)], out[len(pt):]
}

// ChaChaPolyOpenRef is golang.org/x/crypto/chacha20poly1305's open: the
// plaintext and whether the tag verified.
func ChaChaPolyOpenRef(key, nonce, aad, ct, tag []byte) ([]byte, bool) {
	pt, err := newChaChaPoly(key).Open(nil, nonce, append(append([]byte(nil), ct...), tag...), aad)
	return pt, err == nil
}

func newChaChaPoly(key []byte) interface {
	Seal(dst, nonce, plaintext, additionalData []byte) []byte
	Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error)
} {
	a, err := chacha20poly1305.New(key)
	if err != nil {
		panic("BUG: golden: chacha20poly1305.New: " + err.Error())
	}
	return a
}

// ChaChaVectors are RFC 8439's test vectors: sections 2.3.2, 2.4.2, 2.5.2
// and 2.8.2, the block function's vectors of Appendix A.1, the encryption
// vectors of A.2 (#1), and the Poly1305 vectors of A.3 that exercise the
// carries and the final reduction (#1 and #5 to #11). A.5 is the
// decryption of 2.8.2's construction and is covered by the open case each
// AEAD vector gets.
var ChaChaVectors = []Vector{
	{Name: "chacha20_block/rfc8439-2.3.2", Source: "RFC 8439, section 2.3.2",
		In: map[string]string{"key": rfcKey, "nonce": "000000090000004a00000000", "counter": "00000001"},
		Out: map[string]string{"out": "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e" +
			"d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"}},
	{Name: "chacha20_block/rfc8439-A.1.1", Source: "RFC 8439, Appendix A.1, test vector #1",
		In: map[string]string{"key": zeros32, "nonce": zeros12, "counter": "00000000"},
		Out: map[string]string{"out": "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7" +
			"da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"}},
	{Name: "chacha20_block/rfc8439-A.1.2", Source: "RFC 8439, Appendix A.1, test vector #2",
		In: map[string]string{"key": zeros32, "nonce": zeros12, "counter": "00000001"},
		Out: map[string]string{"out": "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed" +
			"29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f"}},
	{Name: "chacha20_block/rfc8439-A.1.3", Source: "RFC 8439, Appendix A.1, test vector #3",
		In: map[string]string{"key": zeros32[:62] + "01", "nonce": zeros12, "counter": "00000001"},
		Out: map[string]string{"out": "3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a" +
			"8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0"}},
	{Name: "chacha20_block/rfc8439-A.1.4", Source: "RFC 8439, Appendix A.1, test vector #4",
		In: map[string]string{"key": "00ff" + zeros32[4:], "nonce": zeros12, "counter": "00000002"},
		Out: map[string]string{"out": "72d54dfbf12ec44b362692df94137f328fea8da73990265ec1bbbea1ae9af0ca" +
			"13b25aa26cb4a648cb9b9d1be65b2c0924a66c54d545ec1b7374f4872e99f096"}},
	{Name: "chacha20_block/rfc8439-A.1.5", Source: "RFC 8439, Appendix A.1, test vector #5",
		In: map[string]string{"key": zeros32, "nonce": zeros12[:22] + "02", "counter": "00000000"},
		Out: map[string]string{"out": "c2c64d378cd536374ae204b9ef933fcd1a8b2288b3dfa49672ab765b54ee27c7" +
			"8a970e0e955c14f3a88e741b97c286f75f8fc299e8148362fa198a39531bed6d"}},
	{Name: "chacha20_xor/rfc8439-2.4.2", Source: "RFC 8439, section 2.4.2",
		In: map[string]string{"key": rfcKey, "nonce": "000000000000004a00000000", "counter": "00000001", "src": sunscreen},
		Out: map[string]string{"dst": "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b" +
			"f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8" +
			"07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736" +
			"5af90bbf74a35be6b40b8eedf2785e42874d"}},
	{Name: "chacha20_xor/rfc8439-A.2.1", Source: "RFC 8439, Appendix A.2, test vector #1",
		In: map[string]string{"key": zeros32, "nonce": zeros12, "counter": "00000000", "src": zeros32 + zeros32},
		Out: map[string]string{"dst": "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7" +
			"da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"}},
	{Name: "poly1305/rfc8439-2.5.2", Source: "RFC 8439, section 2.5.2",
		In: map[string]string{"key": "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
			"msg": hexOf("Cryptographic Forum Research Group")},
		Out: map[string]string{"tag": "a8061dc1305136c6c22b8baf0c0127a9"}},
	{Name: "poly1305/rfc8439-A.3.1", Source: "RFC 8439, Appendix A.3, test vector #1",
		In:  map[string]string{"key": zeros32, "msg": zeros32 + zeros32 + zeros32 + zeros32},
		Out: map[string]string{"tag": zeros16}},
	{Name: "poly1305/rfc8439-A.3.5", Source: "RFC 8439, Appendix A.3, test vector #5",
		In:  map[string]string{"key": "02" + zeros32[2:], "msg": ffs16},
		Out: map[string]string{"tag": "03" + zeros16[2:]}},
	{Name: "poly1305/rfc8439-A.3.6", Source: "RFC 8439, Appendix A.3, test vector #6",
		In:  map[string]string{"key": "02" + zeros16[2:] + ffs16, "msg": "02" + zeros16[2:]},
		Out: map[string]string{"tag": "03" + zeros16[2:]}},
	{Name: "poly1305/rfc8439-A.3.7", Source: "RFC 8439, Appendix A.3, test vector #7",
		In:  map[string]string{"key": "01" + zeros32[2:], "msg": ffs16 + "f0" + ffs16[2:] + "11" + zeros16[2:]},
		Out: map[string]string{"tag": "05" + zeros16[2:]}},
	{Name: "poly1305/rfc8439-A.3.8", Source: "RFC 8439, Appendix A.3, test vector #8",
		In: map[string]string{"key": "01" + zeros32[2:],
			"msg": ffs16 + "fb" + strings.Repeat("fe", 15) + strings.Repeat("01", 16)},
		Out: map[string]string{"tag": zeros16}},
	{Name: "poly1305/rfc8439-A.3.9", Source: "RFC 8439, Appendix A.3, test vector #9",
		In:  map[string]string{"key": "02" + zeros32[2:], "msg": "fd" + ffs16[2:]},
		Out: map[string]string{"tag": "fa" + ffs16[2:]}},
	{Name: "poly1305/rfc8439-A.3.10", Source: "RFC 8439, Appendix A.3, test vector #10",
		In:  map[string]string{"key": a310Key, "msg": a310Msg},
		Out: map[string]string{"tag": "14000000000000005500000000000000"}},
	{Name: "poly1305/rfc8439-A.3.11", Source: "RFC 8439, Appendix A.3, test vector #11",
		In:  map[string]string{"key": a310Key, "msg": a310Msg[:96]},
		Out: map[string]string{"tag": "13000000000000000000000000000000"}},
	{Name: "chacha20_poly1305_seal/rfc8439-2.8.2", Source: "RFC 8439, section 2.8.2",
		In: map[string]string{"key": "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
			"nonce": "070000004041424344454647", "aad": "50515253c0c1c2c3c4c5c6c7", "pt": hexOf(sunscreenText)},
		Out: map[string]string{"ct": "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6" +
			"3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36" +
			"92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc" +
			"3ff4def08e4b7a9de576d26586cec64b6116",
			"tag": "1ae10b594f09e26a7e902ecbd0600691"}},
}

const (
	rfcKey        = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	zeros32       = zeros16 + zeros16
	zeros12       = "000000000000000000000000"
	ffs16         = "ffffffffffffffffffffffffffffffff"
	sunscreenText = "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."
	a310Key       = "01000000000000000400000000000000" + zeros16
	a310Msg       = "e33594d7505e43b900000000000000003394d7505e4379cd0100000000000000" +
		"0000000000000000000000000000000001000000000000000000000000000000"
)

var sunscreen = hexOf(sunscreenText)

func hexOf(s string) string { return fmt.Sprintf("%x", s) }

// vectorCounter reads a vector's 32-bit counter (hex, big-endian as
// written).
func vectorCounter(v Vector) uint32 { return binary.BigEndian.Uint32(v.Get("counter")) }

// ChaChaOfficial returns a case for each of ChaChaVectors, expecting the
// published outputs, and an open case for each AEAD vector (the published
// ciphertext and tag must verify and give back the published plaintext,
// RFC 8439 Appendix A.5's direction).
func ChaChaOfficial() []Case { return officialCases(ChaChaVectors) }

// ChaChaRandom returns random-input cases for the ChaCha20, Poly1305 and
// ChaCha20-Poly1305 exports, drawn from seed: every edge length, counters
// at the ends of their range, Poly1305 keys whose r and s make the
// carries and the final reduction work, and AEAD opens with a bit flipped
// in the tag, the ciphertext or the additional data.
func ChaChaRandom(seed int64) []Case {
	rng := rand.New(rand.NewSource(seed))
	rnd := randBytes(rng)
	var cs []Case
	for i, ctr := range []uint32{0, 1, rng.Uint32(), 0xffffffff} {
		cs = append(cs, ChaCha20BlockCase(fmt.Sprintf("chacha20_block/random%d/counter=%#x", i, ctr), rnd(32), rnd(12), ctr))
	}
	for _, n := range EdgeLengths {
		cs = append(cs, ChaCha20XORCase(fmt.Sprintf("chacha20_xor/len=%d", n), rnd(32), rnd(12), rng.Uint32()>>8, rnd(n)))
	}
	// The counter's last values: the message ends in block 2^32 - 1 (the
	// last the RFC allows), its whole blocks and its tail.
	for _, n := range []int{64, 127, 191} {
		last := uint32(0xffffffff - (n-1)/64)
		cs = append(cs, ChaCha20XORCase(fmt.Sprintf("chacha20_xor/counter=%#x/len=%d", last, n), rnd(32), rnd(12), last, rnd(n)))
	}
	// Past block 2^32 - 1 the counter wraps to 0 (x/crypto refuses to
	// go there: the reference is built block by block).
	{
		key, nonce, src := rnd(32), rnd(12), rnd(150)
		c := ChaCha20XORCase("chacha20_xor/counter-wrap/len=150", key, nonce, 0xffffffff, src)
		c.Want = func() Expect {
			ks := append(ChaCha20Ref(key, nonce, 0xffffffff, make([]byte, 64)), ChaCha20Ref(key, nonce, 0, make([]byte, 86))...)
			for i := range ks {
				ks[i] ^= src[i]
			}
			return Expect{Args: map[int][]byte{4: ks}}
		}
		cs = append(cs, c)
	}
	for _, n := range EdgeLengths {
		cs = append(cs, Poly1305Case(fmt.Sprintf("poly1305/len=%d", n), rnd(32), rnd(n)))
	}
	// Longer messages: 2048 bytes and more, with and without a tail; from
	// 3072 on the hardware variants' three chains (whole 3072-byte pieces,
	// then a 2048-byte piece in two chains, then single blocks).
	for _, n := range []int{2048, 2063, 3072, 4096 + 16*31 + 5, 2*3072 + 2048 + 16*5 + 7} {
		cs = append(cs, Poly1305Case(fmt.Sprintf("poly1305/long/len=%d", n), rnd(32), rnd(n)))
	}
	// Around and past the eight lanes of `have ifma` (update8: from 512
	// bytes, whole 128-byte steps, then single blocks and the tail).
	for _, n := range []int{511, 512, 513, 639, 1023, 1024, 1025, 16384 + 3} {
		cs = append(cs, Poly1305Case(fmt.Sprintf("poly1305/lanes/len=%d", n), rnd(32), rnd(n)))
	}
	// (The seal's plaintext and ciphertext at 16 KiB do not both fit in
	// the 6502's memory beside the program: backend/amd64's
	// TestPoly1305Lanes seals 16 KiB + 3 there.)
	for _, n := range []int{1025, 4096 + 3} {
		cs = append(cs, ChaChaPolySealCase(fmt.Sprintf("chacha20_poly1305_seal/lanes/aad=13/len=%d", n), rnd(32), rnd(12), rnd(13), rnd(n)))
	}
	for _, n := range []int{2048, 2063, 3072 + 2048 + 16*3 + 9} {
		cs = append(cs, ChaChaPolySealCase(fmt.Sprintf("chacha20_poly1305_seal/long/aad=%d/len=%d", n-2040, n), rnd(32), rnd(12), rnd(n-2040), rnd(n)))
	}
	// Extreme keys and messages: r with every unclamped bit set, s all
	// ones (the final addition's carries), messages of all ones (the
	// largest accumulator, the final subtraction).
	ones := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = 0xff
		}
		return b
	}
	for _, n := range []int{16, 17, 64, 255, 1024, 2048, 2063} {
		cs = append(cs, Poly1305Case(fmt.Sprintf("poly1305/ones/len=%d", n), ones(32), ones(n)))
		cs = append(cs, Poly1305Case(fmt.Sprintf("poly1305/ones-r/len=%d", n), append(ones(16), rnd(16)...), ones(n)))
	}
	chachaPoly := aead{seal: "chacha20_poly1305_seal", open: "chacha20_poly1305_open", keyLen: 32,
		sealCase: ChaChaPolySealCase, openCase: ChaChaPolyOpenCase, ref: ChaChaPolySealRef, aadBit: true}
	cs = append(cs, chachaPoly.randomCases(rng, EdgeLengths, []int{0, 1, 12, 15, 16, 17, 64, 129}, 3)...)
	return cs
}

// ChaChaCases is the RFC 8439 part of the suite: ChaChaOfficial, then
// ChaChaRandom(seed).
func ChaChaCases(seed int64) []Case {
	return append(ChaChaOfficial(), ChaChaRandom(seed)...)
}
