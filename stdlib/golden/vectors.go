package golden

import (
	"encoding/hex"
	"strings"
)

// Vector is a published test vector: the inputs and outputs as printed in
// the standard that defines the algorithm (hex, spaces ignored).
type Vector struct {
	Name   string
	Source string            // where it is published
	In     map[string]string // inputs by parameter name
	Out    map[string]string // outputs by parameter name
}

// Vectors are the official test vectors the suite checks: FIPS 180-4's
// SHA-256 examples, RFC 7693 Appendix A, FIPS 197 Appendix C.1, and test
// cases 1 to 4 of the GCM specification (McGrew and Viega, "The
// Galois/Counter Mode of Operation", the AES-128 cases), including the
// GHASH value it prints for test case 2.
var Vectors = []Vector{
	{Name: "sha256/abc", Source: "FIPS 180-4 example SHA256.pdf, one block",
		In:  map[string]string{"msg": hex.EncodeToString([]byte("abc"))},
		Out: map[string]string{"out": "ba7816bf 8f01cfea 414140de 5dae2223 b00361a3 96177a9c b410ff61 f20015ad"}},
	{Name: "sha256/448bit", Source: "FIPS 180-4 example SHA256.pdf, two blocks",
		In:  map[string]string{"msg": hex.EncodeToString([]byte("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))},
		Out: map[string]string{"out": "248d6a61 d20638b8 e5c02693 0c3e6039 a33ce459 64ff2167 f6ecedd4 19db06c1"}},
	{Name: "blake2b/abc", Source: "RFC 7693, Appendix A",
		In: map[string]string{"msg": hex.EncodeToString([]byte("abc"))},
		Out: map[string]string{"out": "BA 80 A5 3F 98 1C 4D 0D 6A 27 97 B6 9F 12 F6 E9 4C 21 2F 14 68 5A C4 B7 4B 12 BB 6F DB FF A2 D1" +
			"7D 87 C5 39 2A AB 79 2D C2 52 D5 DE 45 33 CC 95 18 D3 8A A8 DB F1 92 5A B9 23 86 ED D4 00 99 23"}},
	{Name: "aes128_encrypt_block/fips197-c1", Source: "FIPS 197, Appendix C.1",
		In:  map[string]string{"key": "000102030405060708090a0b0c0d0e0f", "src": "00112233445566778899aabbccddeeff"},
		Out: map[string]string{"dst": "69c4e0d86a7b0430d8cdb78070b4c55a"}},
	{Name: "ghash/gcm-tc2", Source: "GCM specification, test case 2: GHASH(H, A, C)",
		In: map[string]string{"h": "66e94bd4ef8a2c3b884cfa59ca342b2e",
			"data": "0388dace60b6a392f328c2b971b2fe78 00000000000000000000000000000080"},
		Out: map[string]string{"out": "f38cbb1ad69223dcc3457ae5b6b0f885"}},
	{Name: "aes128_gcm_seal/gcm-tc1", Source: "GCM specification, test case 1",
		In:  map[string]string{"key": zeros16, "nonce": "000000000000000000000000", "aad": "", "pt": ""},
		Out: map[string]string{"ct": "", "tag": "58e2fccefa7e3061367f1d57a4e7455a"}},
	{Name: "aes128_gcm_seal/gcm-tc2", Source: "GCM specification, test case 2",
		In:  map[string]string{"key": zeros16, "nonce": "000000000000000000000000", "aad": "", "pt": zeros16},
		Out: map[string]string{"ct": "0388dace60b6a392f328c2b971b2fe78", "tag": "ab6e47d42cec13bdf53a67b21257bddf"}},
	{Name: "aes128_gcm_seal/gcm-tc3", Source: "GCM specification, test case 3",
		In:  map[string]string{"key": tcKey, "nonce": tcNonce, "aad": "", "pt": tcPT},
		Out: map[string]string{"ct": tcCT, "tag": "4d5c2af327cd64a62cf35abd2ba6fab4"}},
	{Name: "aes128_gcm_seal/gcm-tc4", Source: "GCM specification, test case 4",
		In:  map[string]string{"key": tcKey, "nonce": tcNonce, "aad": tcAAD, "pt": tcPT[:120]},
		Out: map[string]string{"ct": tcCT[:120], "tag": "5bc94fbc3221a5db94fae95ae7121a47"}},
}

const (
	zeros16 = "00000000000000000000000000000000"
	tcKey   = "feffe9928665731c6d6a8f9467308308"
	tcNonce = "cafebabefacedbaddecaf888"
	tcAAD   = "feedfacedeadbeeffeedfacedeadbeefabaddad2"
	tcPT    = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72" +
		"1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
	tcCT = "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e" +
		"21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985"
)

// fromHex decodes hex with spaces ignored; the vectors are constants, so a
// bad one is a bug in this file.
func fromHex(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic("BUG: golden: bad hex in a test vector: " + err.Error())
	}
	return b
}

// Get returns input or output NAME of the vector as bytes.
func (v Vector) Get(name string) []byte {
	if s, ok := v.In[name]; ok {
		return fromHex(s)
	}
	if s, ok := v.Out[name]; ok {
		return fromHex(s)
	}
	panic("BUG: golden: vector " + v.Name + " has no " + name)
}

// Official returns a case for each vector, expecting the published outputs,
// and an open case for each GCM vector (the published ciphertext and tag
// must verify and give back the published plaintext).
func Official() []Case { return officialCases(Vectors) }
