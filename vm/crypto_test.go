package vm_test

import (
	"bytes"
	"crypto/aes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// gfMul multiplies in GF(2^8) modulo x^8+x^4+x^3+x+1, bit by bit.
func gfMul(a, b byte) byte {
	var p byte
	for i := 0; i < 8; i++ {
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

// testSbox is the AES S-box from its definition: the multiplicative inverse
// (found by search) followed by the affine map.
func testSbox(x byte) byte {
	var inv byte
	for y := 1; y < 256 && x != 0; y++ {
		if gfMul(x, byte(y)) == 1 {
			inv = byte(y)
			break
		}
	}
	var out byte
	for i := 0; i < 8; i++ {
		bit := (inv>>i ^ inv>>((i+4)%8) ^ inv>>((i+5)%8) ^ inv>>((i+6)%8) ^ inv>>((i+7)%8) ^ 0x63>>i) & 1
		out |= bit << i
	}
	return out
}

// expandKey128 is the AES-128 key schedule (FIPS-197 5.2), returning the 11
// round keys as 22 words in the VM's layout: bytes 0-7 little-endian, then 8-15.
func expandKey128(key []byte) []uint64 {
	var wds [44][4]byte
	for i := 0; i < 4; i++ {
		copy(wds[i][:], key[4*i:])
	}
	rcon := byte(1)
	for i := 4; i < 44; i++ {
		t := wds[i-1]
		if i%4 == 0 {
			t = [4]byte{testSbox(t[1]) ^ rcon, testSbox(t[2]), testSbox(t[3]), testSbox(t[0])}
			rcon = gfMul(rcon, 2)
		}
		for j := range t {
			wds[i][j] = wds[i-4][j] ^ t[j]
		}
	}
	rk := make([]uint64, 22)
	for r := 0; r < 11; r++ {
		var blk [16]byte
		for c := 0; c < 4; c++ {
			copy(blk[4*c:], wds[4*r+c][:])
		}
		rk[2*r] = binary.LittleEndian.Uint64(blk[:8])
		rk[2*r+1] = binary.LittleEndian.Uint64(blk[8:])
	}
	return rk
}

const aesSrc = `module aes128

export fn encrypt(rk: [22]u64, block: mut [16]u8) effects none {
    var s0 = load_le64(block, 0) ^ rk[0]
    var s1 = load_le64(block, 8) ^ rk[1]
    for r in 1..10 {
        s0, s1 = aes_enc(s0, s1, rk[2 * r], rk[2 * r + 1])
    }
    let (t0, t1) = aes_enclast(s0, s1, rk[20], rk[21])
    store_le64(block, 0, t0)
    store_le64(block, 8, t1)
}
`

func TestAES128FromRounds(t *testing.T) {
	p := load(t, aesSrc)
	rng := rand.New(rand.NewPCG(1, 2))
	// FIPS-197 appendix C.1 key and plaintext first, then random ones.
	key := []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	pt := []byte{0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff}
	for n := 0; n < 40; n++ {
		if n > 0 {
			for i := range key {
				key[i], pt[i] = byte(rng.Uint32()), byte(rng.Uint32())
			}
		}
		c, err := aes.NewCipher(key)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]byte, 16)
		c.Encrypt(want, pt)
		blk := byteArr(pt)
		call(t, p, "encrypt", arr(expandKey128(key)...), blk)
		if got := toBytes(blk.Elems); !bytes.Equal(got, want) {
			t.Fatalf("AES-128(key % x, pt % x) = % x, want % x", key, pt, got, want)
		}
	}
}

// slowClmul computes the 128-bit carry-less product one output bit at a
// time: bit k is the parity of a_i & b_j over i+j = k.
func slowClmul(a, b uint64) (lo, hi uint64) {
	for k := 0; k < 127; k++ {
		var bit uint64
		for i := 0; i <= k; i++ {
			j := k - i
			if i < 64 && j < 64 {
				bit ^= (a >> i) & (b >> j) & 1
			}
		}
		if k < 64 {
			lo |= bit << k
		} else {
			hi |= bit << (k - 64)
		}
	}
	return lo, hi
}

func TestClmul(t *testing.T) {
	p := load(t, `module cl

export fn mul(a: u64, b: u64) -> (u64, u64) effects none {
    return clmul_lo(a, b), clmul_hi(a, b)
}
`)
	rng := rand.New(rand.NewPCG(3, 4))
	cases := [][2]uint64{{0, 0}, {1, 1}, {^uint64(0), ^uint64(0)}, {1 << 63, 1 << 63}, {3, 1 << 63}, {0x87, 0xe1 << 56}}
	for range 200 {
		cases = append(cases, [2]uint64{rng.Uint64(), rng.Uint64()})
	}
	for _, c := range cases {
		lo, hi := slowClmul(c[0], c[1])
		got := words(call(t, p, "mul", w(c[0]), w(c[1])))
		if got[0] != lo || got[1] != hi {
			t.Errorf("clmul(%#x, %#x) = %#x:%#x, want %#x:%#x", c[0], c[1], got[1], got[0], hi, lo)
		}
	}
}
