package golden

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"

	"golang.org/x/crypto/blake2b"
)

// The Go references each case is checked against. They use Go's crypto
// packages, except GHASH, which Go does not export: GHASHRef computes it bit
// by bit from its definition, and the suite's own tests check that reference
// against crypto/cipher's GCM.

// SHA256Ref is crypto/sha256.
func SHA256Ref(msg []byte) []byte {
	s := sha256.Sum256(msg)
	return s[:]
}

// Blake2bRef is golang.org/x/crypto/blake2b with a size-byte digest and key.
func Blake2bRef(key, msg []byte, size int) []byte {
	h, err := blake2b.New(size, key)
	if err != nil {
		panic("BUG: golden: blake2b.New: " + err.Error())
	}
	h.Write(msg)
	return h.Sum(nil)
}

// AESBlockRef is crypto/aes on one block.
func AESBlockRef(key, src []byte) []byte {
	dst := make([]byte, 16)
	newAES(key).Encrypt(dst, src)
	return dst
}

// CTRRef is crypto/cipher's CTR mode over AES-128.
func CTRRef(key, iv, src []byte) []byte {
	dst := make([]byte, len(src))
	cipher.NewCTR(newAES(key), iv).XORKeyStream(dst, src)
	return dst
}

// GCMSealRef is crypto/cipher's AES-128-GCM: the ciphertext and the tag.
func GCMSealRef(key, nonce, aad, pt []byte) (ct, tag []byte) {
	g, err := cipher.NewGCM(newAES(key))
	if err != nil {
		panic("BUG: golden: cipher.NewGCM: " + err.Error())
	}
	out := g.Seal(nil, nonce, pt, aad)
	return out[:len(pt)], out[len(pt):]
}

// GCMOpenRef is crypto/cipher's AES-128-GCM open: the plaintext and whether
// the tag verified.
func GCMOpenRef(key, nonce, aad, ct, tag []byte) ([]byte, bool) {
	g, err := cipher.NewGCM(newAES(key))
	if err != nil {
		panic("BUG: golden: cipher.NewGCM: " + err.Error())
	}
	pt, err := g.Open(nil, nonce, append(append([]byte(nil), ct...), tag...), aad)
	return pt, err == nil
}

func newAES(key []byte) cipher.Block {
	b, err := aes.NewCipher(key)
	if err != nil {
		panic("BUG: golden: aes.NewCipher: " + err.Error())
	}
	return b
}

// GFMulRef multiplies two GF(2^128) elements in GCM's bit order, one bit at
// a time (SP 800-38D, section 6.3, Algorithm 1): the first bit of a block
// (the top bit of byte 0) is the coefficient of x^0.
func GFMulRef(x, y [16]byte) [16]byte {
	var z [16]byte
	v := y
	for i := 0; i < 128; i++ {
		if x[i/8]>>(7-i%8)&1 == 1 {
			for k := range z {
				z[k] ^= v[k]
			}
		}
		// V = V * x: a right shift in this bit order, reduced by R = 11100001 || 0^120.
		carry := v[15] & 1
		for k := 15; k > 0; k-- {
			v[k] = v[k]>>1 | v[k-1]<<7
		}
		v[0] >>= 1
		if carry == 1 {
			v[0] ^= 0xe1
		}
	}
	return z
}

// GHASHRef is GHASH_H(data) from a zero start (SP 800-38D, section 6.4,
// Algorithm 2); len(data) must be a multiple of 16.
func GHASHRef(h, data []byte) []byte {
	if len(data)%16 != 0 {
		panic("BUG: golden: GHASHRef on a partial block")
	}
	var hb, y [16]byte
	copy(hb[:], h)
	for off := 0; off < len(data); off += 16 {
		for k := range y {
			y[k] ^= data[off+k]
		}
		y = GFMulRef(y, hb)
	}
	return y[:]
}
