package golden

import (
	"fmt"
	"math/rand"

	"github.com/lowent/lowentc/lang"
)

// EdgeLengths are the message lengths every byte-oriented export is tried
// at: both sides of every 16-, 64- and 128-byte block edge, SHA-256's
// 55/56-byte padding edge, several 8-block GHASH/CTR steps, and a long
// message.
var EdgeLengths = []int{0, 1, 15, 16, 17, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 255, 256, 257, 1000}

// SHA256Case checks sha256.sha256(msg).
func SHA256Case(name string, msg []byte) Case {
	return digestCase(name, "sha256", "sha256", msg, 32, SHA256Ref)
}

// Blake2bCase checks blake2b.blake2b(msg).
func Blake2bCase(name string, msg []byte) Case {
	return digestCase(name, "blake2b", "blake2b", msg, 64, func(m []byte) []byte { return Blake2bRef(nil, m, 64) })
}

// digestCase checks a hash export shaped (msg, out: mut [size]u8) against
// ref.
func digestCase(name, module, export string, msg []byte, size int, ref func(msg []byte) []byte) Case {
	return Case{
		Name: name, Module: module, Export: export, Bytes: len(msg),
		Args: func() []lang.Value { return []lang.Value{Bytes(msg), Bytes(make([]byte, size))} },
		Want: func() Expect { return Expect{Args: map[int][]byte{1: ref(msg)}} },
	}
}

// Blake2bKeyedCase checks blake2b.blake2b_keyed(key, msg, out) with an
// outLen-byte out.
func Blake2bKeyedCase(name string, key, msg []byte, outLen int) Case {
	return Case{
		Name: name, Module: "blake2b", Export: "blake2b_keyed", Bytes: len(key) + len(msg),
		Args: func() []lang.Value {
			return []lang.Value{Bytes(key), Bytes(msg), Bytes(make([]byte, outLen))}
		},
		Want: func() Expect { return Expect{Args: map[int][]byte{2: Blake2bRef(key, msg, outLen)}} },
	}
}

// GHASHCase checks ghash.ghash(h, data); len(data) is a multiple of 16.
func GHASHCase(name string, h, data []byte) Case {
	return Case{
		Name: name, Module: "ghash", Export: "ghash", Bytes: len(data),
		Args: func() []lang.Value { return []lang.Value{Bytes(h), Bytes(data), Bytes(make([]byte, 16))} },
		Want: func() Expect { return Expect{Args: map[int][]byte{2: GHASHRef(h, data)}} },
	}
}

// AESBlockCase checks aes.aes128_encrypt_block(key, src).
func AESBlockCase(name string, key, src []byte) Case {
	return Case{
		Name: name, Module: "aes", Export: "aes128_encrypt_block", Bytes: 16,
		Args: func() []lang.Value { return []lang.Value{Bytes(key), Bytes(src), Bytes(make([]byte, 16))} },
		Want: func() Expect { return Expect{Args: map[int][]byte{2: AESBlockRef(key, src)}} },
	}
}

// CTRCase checks aes.aes128_ctr(key, iv, src, dst).
func CTRCase(name string, key, iv, src []byte) Case {
	return Case{
		Name: name, Module: "aes", Export: "aes128_ctr", Bytes: len(src),
		Args: func() []lang.Value {
			return []lang.Value{Bytes(key), Bytes(iv), Bytes(src), Bytes(make([]byte, len(src)))}
		},
		Want: func() Expect { return Expect{Args: map[int][]byte{3: CTRRef(key, iv, src)}} },
	}
}

// GCMSealCase checks gcm.aes128_gcm_seal(key, nonce, aad, pt, ct, tag).
func GCMSealCase(name string, key, nonce, aad, pt []byte) Case {
	return aeadSealCase(name, "gcm", "aes128_gcm_seal", key, nonce, aad, pt, GCMSealRef)
}

// GCMOpenCase checks gcm.aes128_gcm_open(key, nonce, aad, ct, tag, pt). pt
// starts filled with a pattern: when the tag does not verify it must come
// back unchanged.
func GCMOpenCase(name string, key, nonce, aad, ct, tag []byte) Case {
	return aeadOpenCase(name, "gcm", "aes128_gcm_open", key, nonce, aad, ct, tag, 0xa5, GCMOpenRef)
}

// aeadSealCase checks an AEAD's seal export, shaped (key, nonce, aad, pt,
// ct: mut, tag: mut [16]), against ref.
func aeadSealCase(name, module, export string, key, nonce, aad, pt []byte, ref func(key, nonce, aad, pt []byte) (ct, tag []byte)) Case {
	return Case{
		Name: name, Module: module, Export: export, Bytes: len(aad) + len(pt),
		Args: func() []lang.Value {
			return []lang.Value{Bytes(key), Bytes(nonce), Bytes(aad), Bytes(pt),
				Bytes(make([]byte, len(pt))), Bytes(make([]byte, 16))}
		},
		Want: func() Expect {
			ct, tag := ref(key, nonce, aad, pt)
			return Expect{Args: map[int][]byte{4: ct, 5: tag}}
		},
	}
}

// aeadOpenCase checks an AEAD's open export, shaped (key, nonce, aad, ct,
// tag, pt: mut) -> bool, against ref. pt starts filled with a pattern
// (byte i is fill ^ i): when the tag does not verify it must come back
// unchanged.
func aeadOpenCase(name, module, export string, key, nonce, aad, ct, tag []byte, fill byte, ref func(key, nonce, aad, ct, tag []byte) ([]byte, bool)) Case {
	pattern := make([]byte, len(ct))
	for i := range pattern {
		pattern[i] = fill ^ byte(i)
	}
	return Case{
		Name: name, Module: module, Export: export, Bytes: len(aad) + len(ct),
		Args: func() []lang.Value {
			return []lang.Value{Bytes(key), Bytes(nonce), Bytes(aad), Bytes(ct), Bytes(tag), Bytes(pattern)}
		},
		Want: func() Expect {
			pt, ok := ref(key, nonce, aad, ct, tag)
			if !ok {
				return Expect{Results: []uint64{0}} // pt (argument 5) untouched
			}
			return Expect{Args: map[int][]byte{5: pt}, Results: []uint64{1}}
		},
	}
}

// Cases is the whole suite: the official vectors, then random inputs drawn
// from seed at every edge length. Log the seed: it reproduces the run.
func Cases(seed int64) []Case {
	cs := append(Official(), Random(seed)...)
	cs = append(cs, SHAOfficial()...)
	cs = append(cs, CtxCases(seed)...)
	cs = append(cs, SHARandom(seed)...)
	return append(cs, ChaChaCases(seed)...)
}

// Random returns random-input cases for every export at every edge length.
func Random(seed int64) []Case {
	rng := rand.New(rand.NewSource(seed))
	rnd := randBytes(rng)
	var cs []Case
	for _, n := range EdgeLengths {
		cs = append(cs, SHA256Case(fmt.Sprintf("sha256/len=%d", n), rnd(n)))
	}
	for _, n := range EdgeLengths {
		cs = append(cs, Blake2bCase(fmt.Sprintf("blake2b/len=%d", n), rnd(n)))
	}
	// Keyed BLAKE2b: every message length, with key and digest lengths
	// cycling through their edges, then the key-block corner cases.
	keyLens := []int{0, 1, 17, 32, 63, 64}
	outLens := []int{1, 16, 20, 32, 63, 64}
	keyed := map[string]bool{}
	addKeyed := func(kl, n, ol int) {
		name := fmt.Sprintf("blake2b_keyed/key=%d/len=%d/out=%d", kl, n, ol)
		if !keyed[name] {
			keyed[name] = true
			cs = append(cs, Blake2bKeyedCase(name, rnd(kl), rnd(n), ol))
		}
	}
	for i, n := range EdgeLengths {
		addKeyed(keyLens[i%len(keyLens)], n, outLens[(i/2)%len(outLens)])
	}
	for _, kl := range []int{0, 1, 64} {
		for _, n := range []int{0, 128, 129} {
			for _, ol := range []int{1, 64} {
				addKeyed(kl, n, ol)
			}
		}
	}
	// GHASH: 0..17 blocks (both sides of the 8-block step) and the edge
	// lengths rounded down to whole blocks.
	seen := map[int]bool{}
	for k := 0; k <= 17; k++ {
		seen[16*k] = true
		cs = append(cs, GHASHCase(fmt.Sprintf("ghash/len=%d", 16*k), rnd(16), rnd(16*k)))
	}
	for _, n := range EdgeLengths {
		if m := n &^ 15; !seen[m] {
			seen[m] = true
			cs = append(cs, GHASHCase(fmt.Sprintf("ghash/len=%d", m), rnd(16), rnd(m)))
		}
	}
	// Past ghash's UPDATE16_MIN (2048 bytes) the hash takes sixteen blocks
	// per reduction: exactly there, and sixteen-block steps plus one block.
	for _, m := range LongGHASHLengths {
		cs = append(cs, GHASHCase(fmt.Sprintf("ghash/len=%d", m), rnd(16), rnd(m)))
	}
	for i := 0; i < 4; i++ {
		cs = append(cs, AESBlockCase(fmt.Sprintf("aes128_encrypt_block/random%d", i), rnd(16), rnd(16)))
	}
	for _, n := range EdgeLengths {
		cs = append(cs, CTRCase(fmt.Sprintf("aes128_ctr/len=%d", n), rnd(16), rnd(16), rnd(n)))
	}
	// The counter is one 128-bit number: carries out of the low word, and
	// the wrap of the whole counter, inside and after an 8-block step.
	for _, iv := range []string{
		"0123456789abcdeffffffffffffffffa",
		"0123456789abcdeffffffffffffffff2",
		"ffffffffffffffffffffffffffffffff",
	} {
		cs = append(cs, CTRCase("aes128_ctr/iv="+iv, rnd(16), fromHex(iv), rnd(300)))
	}
	gcm := aead{seal: "aes128_gcm_seal", open: "aes128_gcm_open", keyLen: 16,
		sealCase: GCMSealCase, openCase: GCMOpenCase, ref: GCMSealRef, aadBit: true}
	cs = append(cs, gcm.randomCases(rng, EdgeLengths, []int{0, 1, 15, 16, 17, 20, 64, 129}, 3)...)
	// The same threshold for GCM's ciphertext (a partial last block after
	// whole sixteen-block steps) and for its additional data.
	for _, l := range LongGCMLengths {
		key, nonce, aad, pt := rnd(16), rnd(12), rnd(l[0]), rnd(l[1])
		cs = append(cs, GCMSealCase(fmt.Sprintf("aes128_gcm_seal/aad=%d/len=%d", l[0], l[1]), key, nonce, aad, pt))
		ct, tag := GCMSealRef(key, nonce, aad, pt)
		name := fmt.Sprintf("aes128_gcm_open/aad=%d/len=%d", l[0], l[1])
		cs = append(cs, GCMOpenCase(name+"/valid", key, nonce, aad, ct, tag))
		cs = append(cs, GCMOpenCase(name+"/ct-bit", key, nonce, aad, flipBit(ct, rng.Intn(8*len(ct))), tag))
	}
	return cs
}

// LongGHASHLengths are GHASH lengths at and past the stdlib's switch to
// sixteen blocks per reduction (ghash.lw, UPDATE16_MIN = 2048 bytes).
// 2032, the longest whole-block length below it, takes the eight-block
// steps with y's product apart (update_div) and one block after them.
var LongGHASHLengths = []int{2032, 2048, 2320}

// LongGCMLengths are (aad, plaintext) lengths for the same switch in GCM
// (and the seal's stitched loop, gcm.lw's STITCH_MIN): the ciphertext
// exactly at it and past it with a partial block, the additional data
// past it, and a ciphertext of more than sixteen 256-byte steps, whose
// counter's low byte wraps inside a step. Below it, 1 KiB of ciphertext
// and 2,047 bytes with 144 bytes of additional data take ghash's
// eight-block steps with y's product apart (update_div).
var LongGCMLengths = [][2]int{{13, 1024}, {144, 2047}, {13, 2048}, {0, 2335}, {2100, 40}, {13, 4100}}

// flipBit returns a copy of b with bit i flipped.
func flipBit(b []byte, i int) []byte {
	c := append([]byte(nil), b...)
	c[i/8] ^= 1 << (i % 8)
	return c
}

// randBytes returns a function that draws n random bytes from rng.
func randBytes(rng *rand.Rand) func(n int) []byte {
	return func(n int) []byte {
		b := make([]byte, n)
		rng.Read(b)
		return b
	}
}

// aead is what the random cases of one AEAD need: its exports' names,
// key length, case builders and reference seal.
type aead struct {
	seal, open string
	keyLen     int
	sealCase   func(name string, key, nonce, aad, pt []byte) Case
	openCase   func(name string, key, nonce, aad, ct, tag []byte) Case
	ref        func(key, nonce, aad, pt []byte) (ct, tag []byte)
	aadBit     bool // the opens include one with a bit of the additional data flipped
}

// randomCases returns a seal at each of lengths, with additional data of
// the lengths aadLens in turn, then the opens (aeadTamperedOpens) of
// messages of the same lengths sealed by the reference, their additional
// data's lengths shifted by openShift in aadLens; all inputs drawn from
// rng.
func (a aead) randomCases(rng *rand.Rand, lengths, aadLens []int, openShift int) []Case {
	rnd := randBytes(rng)
	var cs []Case
	for i, n := range lengths {
		al := aadLens[i%len(aadLens)]
		cs = append(cs, a.sealCase(fmt.Sprintf("%s/aad=%d/len=%d", a.seal, al, n), rnd(a.keyLen), rnd(12), rnd(al), rnd(n)))
	}
	for i, n := range lengths {
		al := aadLens[(i+openShift)%len(aadLens)]
		key, nonce, aad, pt := rnd(a.keyLen), rnd(12), rnd(al), rnd(n)
		ct, tag := a.ref(key, nonce, aad, pt)
		name := fmt.Sprintf("%s/aad=%d/len=%d", a.open, al, n)
		cs = append(cs, aeadTamperedOpens(name, key, nonce, aad, ct, tag, a.aadBit, rng, a.openCase)...)
	}
	return cs
}

// aeadTamperedOpens returns the open cases of one sealed message: the
// valid one, then the tag, the ciphertext (when there is one) and, with
// aadBit, the additional data (when there is any) with one bit flipped at
// a place drawn from rng; the flipped ones must be refused with the
// output untouched.
func aeadTamperedOpens(name string, key, nonce, aad, ct, tag []byte, aadBit bool, rng *rand.Rand,
	open func(name string, key, nonce, aad, ct, tag []byte) Case) []Case {
	cs := []Case{
		open(name+"/valid", key, nonce, aad, ct, tag),
		open(name+"/tag-bit", key, nonce, aad, ct, flipBit(tag, rng.Intn(128))),
	}
	if len(ct) > 0 {
		cs = append(cs, open(name+"/ct-bit", key, nonce, aad, flipBit(ct, rng.Intn(8*len(ct))), tag))
	}
	if aadBit && len(aad) > 0 {
		cs = append(cs, open(name+"/aad-bit", key, nonce, flipBit(aad, rng.Intn(8*len(aad))), ct, tag))
	}
	return cs
}
