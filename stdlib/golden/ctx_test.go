package golden

import (
	"bytes"
	"encoding/binary"
	"math/rand"
	"testing"
)

// TestExpandKeyRefFIPS197 checks the key schedule reference against FIPS
// 197's example (Appendix A.1): round key 0 is the key, round key 10 is
// w[40..43] as printed there.
func TestExpandKeyRefFIPS197(t *testing.T) {
	rk := ExpandKeyRef(fromHex(fips197Key))
	got := func(r int) []byte {
		b := binary.LittleEndian.AppendUint64(nil, rk[2*r])
		return binary.LittleEndian.AppendUint64(b, rk[2*r+1])
	}
	if !bytes.Equal(got(0), fromHex(fips197Key)) {
		t.Errorf("round key 0 = %x, want the key %s", got(0), fips197Key)
	}
	if !bytes.Equal(got(10), fromHex(fips197LastRoundKey)) {
		t.Errorf("round key 10 = %x, want %s", got(10), fips197LastRoundKey)
	}
	if sbox[0x00] != 0x63 || sbox[0x53] != 0xed || sbox[0xff] != 0x16 {
		t.Errorf("S-box: S(00)=%02x S(53)=%02x S(ff)=%02x, want 63 ed 16", sbox[0x00], sbox[0x53], sbox[0xff])
	}
}

// TestGHASHCtxRefAggregates checks the layout of GHASHCtxRef by using it:
// eight blocks hashed as X_1*H^8 xor ... xor X_8*H with the powers read
// from the context's words equal GHASHRef of the eight blocks.
func TestGHASHCtxRefAggregates(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for i := 0; i < 4; i++ {
		h, data := make([]byte, 16), make([]byte, 128)
		rng.Read(h)
		rng.Read(data)
		ctx := GHASHCtxRef(h)
		var sum [16]byte
		for k := 0; k < 8; k++ {
			var x, p [16]byte
			copy(x[:], data[16*k:])
			binary.BigEndian.PutUint64(p[8:], ctx[2*k])
			binary.BigEndian.PutUint64(p[0:], ctx[2*k+1])
			z := GFMulRef(x, p)
			for j := range sum {
				sum[j] ^= z[j]
			}
		}
		if want := GHASHRef(h, data); !bytes.Equal(sum[:], want) {
			t.Errorf("subkey %x: aggregated %x, GHASHRef %x", h, sum, want)
		}
	}
}
