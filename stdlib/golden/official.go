package golden

import (
	"encoding/binary"
	"strings"
)

// vectorKind is what the suite does with the published vectors of one
// export: the cases a vector gives (expecting the published outputs), and
// the Go reference's output beside the published one, which the suite's
// own tests compare so that a vector typed wrong is caught independently
// of the Lowent code.
type vectorKind struct {
	cases func(v Vector) []Case
	ref   func(v Vector) (got, want []byte)
}

// vectorKinds holds one entry per export that has published vectors
// (Vectors, ChaChaVectors, SHAVectors).
var vectorKinds = map[string]vectorKind{
	"sha256": {
		cases: func(v Vector) []Case { return expectOut(SHA256Case(v.Name, v.Get("msg")), v, 1, "out") },
		ref:   func(v Vector) ([]byte, []byte) { return SHA256Ref(v.Get("msg")), v.Get("out") },
	},
	"blake2b": {
		cases: func(v Vector) []Case { return expectOut(Blake2bCase(v.Name, v.Get("msg")), v, 1, "out") },
		ref:   func(v Vector) ([]byte, []byte) { return Blake2bRef(nil, v.Get("msg"), 64), v.Get("out") },
	},
	"aes128_encrypt_block": {
		cases: func(v Vector) []Case { return expectOut(AESBlockCase(v.Name, v.Get("key"), v.Get("src")), v, 2, "dst") },
		ref:   func(v Vector) ([]byte, []byte) { return AESBlockRef(v.Get("key"), v.Get("src")), v.Get("dst") },
	},
	"ghash": {
		cases: func(v Vector) []Case { return expectOut(GHASHCase(v.Name, v.Get("h"), v.Get("data")), v, 2, "out") },
		ref:   func(v Vector) ([]byte, []byte) { return GHASHRef(v.Get("h"), v.Get("data")), v.Get("out") },
	},
	"aes128_gcm_seal": {
		cases: func(v Vector) []Case { return aeadVectorCases(v, GCMSealCase, GCMOpenCase) },
		ref:   func(v Vector) ([]byte, []byte) { return aeadVectorRef(v, GCMSealRef) },
	},
	"chacha20_block": {
		cases: func(v Vector) []Case {
			return expectOut(ChaCha20BlockCase(v.Name, v.Get("key"), v.Get("nonce"), vectorCounter(v)), v, 3, "out")
		},
		ref: func(v Vector) ([]byte, []byte) {
			return ChaCha20Ref(v.Get("key"), v.Get("nonce"), vectorCounter(v), make([]byte, 64)), v.Get("out")
		},
	},
	"chacha20_xor": {
		cases: func(v Vector) []Case {
			return expectOut(ChaCha20XORCase(v.Name, v.Get("key"), v.Get("nonce"), vectorCounter(v), v.Get("src")), v, 4, "dst")
		},
		ref: func(v Vector) ([]byte, []byte) {
			return ChaCha20Ref(v.Get("key"), v.Get("nonce"), vectorCounter(v), v.Get("src")), v.Get("dst")
		},
	},
	"poly1305": {
		cases: func(v Vector) []Case { return expectOut(Poly1305Case(v.Name, v.Get("key"), v.Get("msg")), v, 2, "tag") },
		ref:   func(v Vector) ([]byte, []byte) { return Poly1305Ref(v.Get("key"), v.Get("msg")), v.Get("tag") },
	},
	"chacha20_poly1305_seal": {
		cases: func(v Vector) []Case { return aeadVectorCases(v, ChaChaPolySealCase, ChaChaPolyOpenCase) },
		ref:   func(v Vector) ([]byte, []byte) { return aeadVectorRef(v, ChaChaPolySealRef) },
	},
	"sha512": {
		cases: func(v Vector) []Case { return expectOut(SHA512Case(v.Name, v.Get("msg")), v, 1, "out") },
		ref:   func(v Vector) ([]byte, []byte) { return SHA512Ref(v.Get("msg")), v.Get("out") },
	},
	"sha3_256": {
		cases: func(v Vector) []Case { return expectOut(SHA3_256Case(v.Name, v.Get("msg")), v, 1, "out") },
		ref:   func(v Vector) ([]byte, []byte) { return SHA3_256Ref(v.Get("msg")), v.Get("out") },
	},
	"shake128": {
		cases: func(v Vector) []Case {
			return expectOut(SHAKE128Case(v.Name, v.Get("msg"), len(v.Get("out"))), v, 1, "out")
		},
		ref: func(v Vector) ([]byte, []byte) { return SHAKE128Ref(v.Get("msg"), len(v.Get("out"))), v.Get("out") },
	},
	"keccak_f1600": {
		cases: func(v Vector) []Case {
			c := KeccakCase(v.Name, lanes(v.In["st"]))
			c.Want = func() Expect { return Expect{Words: map[int][]uint64{0: lanes(v.Out["st"])}} }
			return []Case{c}
		},
		ref: func(v Vector) ([]byte, []byte) {
			return wordBytes(KeccakRef(lanes(v.In["st"]))), wordBytes(lanes(v.Out["st"]))
		},
	},
}

// export is the exported function a vector is for: its name up to the
// first '/'.
func (v Vector) export() string { return v.Name[:strings.IndexByte(v.Name, '/')] }

// kind is the entry of vectorKinds for v; a vector without one is a bug in
// this package.
func (v Vector) kind() vectorKind {
	k, ok := vectorKinds[v.export()]
	if !ok {
		panic("BUG: golden: no case builder for vector " + v.Name)
	}
	return k
}

// officialCases returns the cases of each vector of vs, in order.
func officialCases(vs []Vector) []Case {
	var cs []Case
	for _, v := range vs {
		cs = append(cs, v.kind().cases(v)...)
	}
	return cs
}

// expectOut makes c expect argument arg to hold the vector's output field
// after the call.
func expectOut(c Case, v Vector, arg int, field string) []Case {
	c.Want = func() Expect { return Expect{Args: map[int][]byte{arg: v.Get(field)}} }
	return []Case{c}
}

// aeadVectorCases returns the seal case of an AEAD vector, expecting the
// published ciphertext and tag, and the open case that takes them back:
// they must verify and give back the published plaintext.
func aeadVectorCases(v Vector, seal func(name string, key, nonce, aad, pt []byte) Case,
	open func(name string, key, nonce, aad, ct, tag []byte) Case) []Case {
	s := seal(v.Name, v.Get("key"), v.Get("nonce"), v.Get("aad"), v.Get("pt"))
	s.Want = func() Expect { return Expect{Args: map[int][]byte{4: v.Get("ct"), 5: v.Get("tag")}} }
	o := open(strings.Replace(v.Name, "seal", "open", 1), v.Get("key"), v.Get("nonce"), v.Get("aad"), v.Get("ct"), v.Get("tag"))
	o.Want = func() Expect { return Expect{Args: map[int][]byte{5: v.Get("pt")}, Results: []uint64{1}} }
	return []Case{s, o}
}

// aeadVectorRef is an AEAD reference's ciphertext and tag for a vector,
// beside the published ones.
func aeadVectorRef(v Vector, seal func(key, nonce, aad, pt []byte) (ct, tag []byte)) (got, want []byte) {
	ct, tag := seal(v.Get("key"), v.Get("nonce"), v.Get("aad"), v.Get("pt"))
	return append(ct, tag...), append(v.Get("ct"), v.Get("tag")...)
}

// wordBytes is ws as bytes, each word little-endian, for comparing states
// of words.
func wordBytes(ws []uint64) []byte {
	b := make([]byte, 8*len(ws))
	for i, w := range ws {
		binary.LittleEndian.PutUint64(b[8*i:], w)
	}
	return b
}
