package golden

import (
	"encoding/binary"
	"fmt"
	"math/rand"

	"github.com/lowent/lowentc/lang"
)

// The cases of the key-context exports (ghash_init/ghash_ctx,
// aes128_ctr_init/aes128_ctr_ctx, aes128_gcm_init/aes128_gcm_seal_ctx/
// aes128_gcm_open_ctx). The golden runner calls one export at a time, so
// a _ctx export is given a context computed here in Go from the key, in
// the layout the stdlib sources document; the _init cases check that
// layout word by word. Together they give init followed by a _ctx call
// equal to the one-shot export and to Go's crypto/cipher.

// Context sizes in u64 words (the stdlib's GHASH_CTX_WORDS,
// AES128_CTR_CTX_WORDS and AES128_GCM_CTX_WORDS).
const (
	GHASHCtxWords = 16
	CTRCtxWords   = 22
	GCMCtxWords   = CTRCtxWords + GHASHCtxWords
)

// sbox is the AES S-box (FIPS 197, section 5.1.1): the inverse in GF(2^8)
// modulo x^8+x^4+x^3+x+1 (0 to 0), then the affine transformation.
var sbox = func() [256]byte {
	mul := func(a, b byte) byte {
		var p byte
		for b != 0 {
			if b&1 != 0 {
				p ^= a
			}
			hi := a & 0x80
			a <<= 1
			if hi != 0 {
				a ^= 0x1b
			}
			b >>= 1
		}
		return p
	}
	var s [256]byte
	for x := 0; x < 256; x++ {
		var inv byte
		for y := 1; y < 256 && x != 0; y++ {
			if mul(byte(x), byte(y)) == 1 {
				inv = byte(y)
				break
			}
		}
		b := inv
		r := func(v byte, n uint) byte { return v<<n | v>>(8-n) }
		s[x] = b ^ r(b, 1) ^ r(b, 2) ^ r(b, 3) ^ r(b, 4) ^ 0x63
	}
	return s
}()

// ExpandKeyRef is the AES-128 key schedule (FIPS 197, section 5.2) as the
// stdlib lays it out in a context: round key r in words 2r (its bytes
// 0..7, little-endian) and 2r+1 (bytes 8..15).
func ExpandKeyRef(key []byte) []uint64 {
	var w [44][4]byte
	for i := 0; i < 4; i++ {
		copy(w[i][:], key[4*i:4*i+4])
	}
	rcon := byte(1)
	for i := 4; i < 44; i++ {
		t := w[i-1]
		if i%4 == 0 {
			t = [4]byte{sbox[t[1]] ^ rcon, sbox[t[2]], sbox[t[3]], sbox[t[0]]}
			hi := rcon & 0x80
			rcon <<= 1
			if hi != 0 {
				rcon ^= 0x1b
			}
		}
		for k := range t {
			w[i][k] = w[i-4][k] ^ t[k]
		}
	}
	rk := make([]uint64, CTRCtxWords)
	for r := 0; r <= 10; r++ {
		var b [16]byte
		for k := 0; k < 4; k++ {
			copy(b[4*k:], w[4*r+k][:])
		}
		rk[2*r] = binary.LittleEndian.Uint64(b[0:])
		rk[2*r+1] = binary.LittleEndian.Uint64(b[8:])
	}
	return rk
}

// GHASHCtxRef is the GHASH context of hash subkey h: H^(8-k) in words 2k
// (bytes 8..15 of the power, big-endian) and 2k+1 (bytes 0..7), k = 0..7.
func GHASHCtxRef(h []byte) []uint64 {
	var hb [16]byte
	copy(hb[:], h)
	ctx := make([]uint64, GHASHCtxWords)
	p := hb
	for i := 1; i <= 8; i++ { // p = H^i
		k := 8 - i
		ctx[2*k] = binary.BigEndian.Uint64(p[8:])
		ctx[2*k+1] = binary.BigEndian.Uint64(p[0:])
		p = GFMulRef(p, hb)
	}
	return ctx
}

// GCMCtxRef is the AES-128-GCM context of key: the key schedule, then the
// GHASH context of H = E_K(0^128) (computed by crypto/aes).
func GCMCtxRef(key []byte) []uint64 {
	h := make([]byte, 16)
	newAES(key).Encrypt(h, h)
	return append(ExpandKeyRef(key), GHASHCtxRef(h)...)
}

// ctxPattern is a context argument's starting contents before an _init
// call: not zero, so that a word the call forgets to write shows.
func ctxPattern(n int) []uint64 {
	w := make([]uint64, n)
	for i := range w {
		w[i] = 0x5a5a_5a5a_0000_0000 | uint64(i)
	}
	return w
}

// GHASHInitCase checks ghash.ghash_init(h, ctx).
func GHASHInitCase(name string, h []byte) Case {
	return Case{
		Name: name, Module: "ghash", Export: "ghash_init", Bytes: 16,
		Args: func() []lang.Value { return []lang.Value{Bytes(h), Words(ctxPattern(GHASHCtxWords))} },
		Want: func() Expect { return Expect{Words: map[int][]uint64{1: GHASHCtxRef(h)}} },
	}
}

// GHASHCtxCase checks ghash.ghash_ctx(ctx, data, out) with the context of
// h; len(data) is a multiple of 16.
func GHASHCtxCase(name string, h, data []byte) Case {
	return Case{
		Name: name, Module: "ghash", Export: "ghash_ctx", Bytes: len(data),
		Args: func() []lang.Value {
			return []lang.Value{Words(GHASHCtxRef(h)), Bytes(data), Bytes(make([]byte, 16))}
		},
		Want: func() Expect { return Expect{Args: map[int][]byte{2: GHASHRef(h, data)}} },
	}
}

// CTRInitCase checks aes.aes128_ctr_init(key, ctx).
func CTRInitCase(name string, key []byte) Case {
	return Case{
		Name: name, Module: "aes", Export: "aes128_ctr_init", Bytes: 16,
		Args: func() []lang.Value { return []lang.Value{Bytes(key), Words(ctxPattern(CTRCtxWords))} },
		Want: func() Expect { return Expect{Words: map[int][]uint64{1: ExpandKeyRef(key)}} },
	}
}

// CTRCtxCase checks aes.aes128_ctr_ctx(ctx, iv, src, dst) with the
// context of key.
func CTRCtxCase(name string, key, iv, src []byte) Case {
	return Case{
		Name: name, Module: "aes", Export: "aes128_ctr_ctx", Bytes: len(src),
		Args: func() []lang.Value {
			return []lang.Value{Words(ExpandKeyRef(key)), Bytes(iv), Bytes(src), Bytes(make([]byte, len(src)))}
		},
		Want: func() Expect { return Expect{Args: map[int][]byte{3: CTRRef(key, iv, src)}} },
	}
}

// GCMInitCase checks gcm.aes128_gcm_init(key, ctx).
func GCMInitCase(name string, key []byte) Case {
	return Case{
		Name: name, Module: "gcm", Export: "aes128_gcm_init", Bytes: 16,
		Args: func() []lang.Value { return []lang.Value{Bytes(key), Words(ctxPattern(GCMCtxWords))} },
		Want: func() Expect { return Expect{Words: map[int][]uint64{1: GCMCtxRef(key)}} },
	}
}

// GCMSealCtxCase checks gcm.aes128_gcm_seal_ctx(ctx, nonce, aad, pt, ct,
// tag) with the context of key.
func GCMSealCtxCase(name string, key, nonce, aad, pt []byte) Case {
	return Case{
		Name: name, Module: "gcm", Export: "aes128_gcm_seal_ctx", Bytes: len(aad) + len(pt),
		Args: func() []lang.Value {
			return []lang.Value{Words(GCMCtxRef(key)), Bytes(nonce), Bytes(aad), Bytes(pt),
				Bytes(make([]byte, len(pt))), Bytes(make([]byte, 16))}
		},
		Want: func() Expect {
			ct, tag := GCMSealRef(key, nonce, aad, pt)
			return Expect{Args: map[int][]byte{4: ct, 5: tag}}
		},
	}
}

// GCMOpenCtxCase checks gcm.aes128_gcm_open_ctx(ctx, nonce, aad, ct, tag,
// pt) with the context of key. pt starts filled with a pattern: when the
// tag does not verify it must come back unchanged.
func GCMOpenCtxCase(name string, key, nonce, aad, ct, tag []byte) Case {
	pattern := make([]byte, len(ct))
	for i := range pattern {
		pattern[i] = byte(0x3c ^ i)
	}
	return Case{
		Name: name, Module: "gcm", Export: "aes128_gcm_open_ctx", Bytes: len(aad) + len(ct),
		Args: func() []lang.Value {
			return []lang.Value{Words(GCMCtxRef(key)), Bytes(nonce), Bytes(aad), Bytes(ct), Bytes(tag), Bytes(pattern)}
		},
		Want: func() Expect {
			pt, ok := GCMOpenRef(key, nonce, aad, ct, tag)
			if !ok {
				return Expect{Results: []uint64{0}} // pt (argument 5) untouched
			}
			return Expect{Args: map[int][]byte{5: pt}, Results: []uint64{1}}
		},
	}
}

// CtxLengths are the message lengths of the context cases: both sides of
// the 16- and 128-byte edges (one block, one 8-block step), and a long one.
var CtxLengths = []int{0, 1, 15, 16, 17, 64, 127, 128, 129, 255, 256, 1000}

// CtxCases returns the key-context cases from seed: the FIPS 197 key
// schedule example, then random keys, subkeys, nonces and messages.
func CtxCases(seed int64) []Case {
	rng := rand.New(rand.NewSource(seed ^ 0x6b6579637478)) // apart from Random's stream
	rnd := randBytes(rng)
	cs := []Case{
		CTRInitCase("aes128_ctr_init/fips197-a1", fromHex(fips197Key)),
		GCMInitCase("aes128_gcm_init/fips197-a1", fromHex(fips197Key)),
	}
	for i := 0; i < 3; i++ {
		cs = append(cs,
			GHASHInitCase(fmt.Sprintf("ghash_init/random%d", i), rnd(16)),
			CTRInitCase(fmt.Sprintf("aes128_ctr_init/random%d", i), rnd(16)),
			GCMInitCase(fmt.Sprintf("aes128_gcm_init/random%d", i), rnd(16)))
	}
	for _, k := range []int{0, 1, 7, 8, 9, 17} {
		cs = append(cs, GHASHCtxCase(fmt.Sprintf("ghash_ctx/len=%d", 16*k), rnd(16), rnd(16*k)))
	}
	for _, n := range CtxLengths {
		cs = append(cs, CTRCtxCase(fmt.Sprintf("aes128_ctr_ctx/len=%d", n), rnd(16), rnd(16), rnd(n)))
	}
	// The 128-bit counter's carries, as for aes128_ctr.
	cs = append(cs, CTRCtxCase("aes128_ctr_ctx/iv=ff..fa", rnd(16),
		fromHex("0123456789abcdeffffffffffffffffa"), rnd(300)))
	gcmCtx := aead{seal: "aes128_gcm_seal_ctx", open: "aes128_gcm_open_ctx", keyLen: 16,
		sealCase: GCMSealCtxCase, openCase: GCMOpenCtxCase, ref: GCMSealRef}
	cs = append(cs, gcmCtx.randomCases(rng, CtxLengths, []int{0, 1, 16, 17, 20, 129}, 2)...)
	return cs
}

// fips197Key is the cipher key of FIPS 197's key expansion example
// (Appendix A.1); fips197LastRoundKey is w[40..43] there.
const (
	fips197Key          = "2b7e151628aed2a6abf7158809cf4f3c"
	fips197LastRoundKey = "d014f9a8c9ee2589e13f0cc8b6630ca6"
)
