package sem

import (
	"encoding/binary"
	"math/bits"
)

// BuiltinID names a builtin function.
type BuiltinID int

const (
	BLen          BuiltinID = iota // len(s) -> u32
	BRest                          // rest(s, N) -> []T: the elements after the whole N-chunks
	BLoad                          // load_{le,be}{16,32,64}(a, off) -> uN
	BStore                         // store_{le,be}{16,32,64}(a, off, v)
	BClmulLo                       // clmul_lo(a: u64, b: u64) -> u64
	BClmulHi                       // clmul_hi(a: u64, b: u64) -> u64
	BAESEnc                        // aes_enc(s0, s1, k0, k1: u64) -> (u64, u64)
	BAESEncLast                    // aes_enclast(s0, s1, k0, k1: u64) -> (u64, u64)
	BSelect                        // select(c: bool, a: T, b: T) -> T, branch-free
	BUncheckedGet                  // unchecked_get(a, i) -> T      (unsafe)
	BUncheckedSet                  // unchecked_set(a, i, v)        (unsafe)
	BTrace                         // trace(x, ...)                 (io)
	BSHA256Rnds2                   // sha256_rnds2(cdgh: 4 u32, abef: 4 u32, wk0, wk1: u32) -> 4 u32
	BSHA256Msg1                    // sha256_msg1(x: 4 u32, y: 4 u32) -> 4 u32
	BSHA256Msg2                    // sha256_msg2(x: 4 u32, y: 4 u32) -> 4 u32
	BMulW                          // mulw(a, b: uN) -> (lo, hi: uN), N 32 or 64: the double-width product
	BView                          // a[i..j]: the elements i..j-1 of a, in place (written a[i..j], never by name)
)

// ---------------------------------------------------------------- shared semantics
//
// The reference meaning of the arithmetic builtins, used by the VM, the IR
// interpreter and the backends' constant folders alike.

// MulW returns the low and high n-bit halves of the 2n-bit product of a
// and b (n is 32 or 64; a and b hold values of that width).
func MulW(n int, a, b uint64) (lo, hi uint64) {
	if n == 64 {
		hi, lo = bits.Mul64(a, b)
		return lo, hi
	}
	p := a * b
	return p & (1<<uint(n) - 1), p >> uint(n)
}

// ClmulLo returns the low 64 bits of the carry-less product of a and b.
func ClmulLo(a, b uint64) uint64 {
	lo, _ := clmul(a, b)
	return lo
}

// ClmulHi returns the high 64 bits of the carry-less product of a and b.
func ClmulHi(a, b uint64) uint64 {
	_, hi := clmul(a, b)
	return hi
}

func clmul(a, b uint64) (lo, hi uint64) {
	for i := uint(0); i < 64; i++ {
		if b>>i&1 != 0 {
			lo ^= a << i
			if i > 0 {
				hi ^= a >> (64 - i)
			}
		}
	}
	return lo, hi
}

// An AES state or round key is 16 bytes held in two u64 words: bytes 0..7
// little-endian in the first word, bytes 8..15 in the second. That is the
// layout of an x86 XMM register loaded from the 16 bytes in memory order.

// AESEnc is one AES encryption round (SubBytes, ShiftRows, MixColumns,
// AddRoundKey), the x86 AESENC instruction.
func AESEnc(s0, s1, k0, k1 uint64) (uint64, uint64) {
	s := toBytes(s0, s1)
	s = mixColumns(shiftRows(subBytes(s)))
	return xorKey(s, k0, k1)
}

// AESEncLast is the final AES round (no MixColumns), the x86 AESENCLAST instruction.
func AESEncLast(s0, s1, k0, k1 uint64) (uint64, uint64) {
	s := toBytes(s0, s1)
	s = shiftRows(subBytes(s))
	return xorKey(s, k0, k1)
}

func toBytes(a, b uint64) [16]byte {
	var s [16]byte
	binary.LittleEndian.PutUint64(s[:8], a)
	binary.LittleEndian.PutUint64(s[8:], b)
	return s
}

func xorKey(s [16]byte, k0, k1 uint64) (uint64, uint64) {
	return binary.LittleEndian.Uint64(s[:8]) ^ k0, binary.LittleEndian.Uint64(s[8:]) ^ k1
}

func subBytes(s [16]byte) [16]byte {
	for i := range s {
		s[i] = AESSbox[s[i]]
	}
	return s
}

// shiftRows: byte i is row i%4, column i/4; row r rotates left by r columns.
func shiftRows(s [16]byte) [16]byte {
	var o [16]byte
	for c := 0; c < 4; c++ {
		for r := 0; r < 4; r++ {
			o[4*c+r] = s[4*((c+r)%4)+r]
		}
	}
	return o
}

func xtime(b byte) byte {
	if b&0x80 != 0 {
		return b<<1 ^ 0x1b
	}
	return b << 1
}

func mixColumns(s [16]byte) [16]byte {
	var o [16]byte
	for c := 0; c < 4; c++ {
		a0, a1, a2, a3 := s[4*c], s[4*c+1], s[4*c+2], s[4*c+3]
		t := a0 ^ a1 ^ a2 ^ a3
		o[4*c] = a0 ^ t ^ xtime(a0^a1)
		o[4*c+1] = a1 ^ t ^ xtime(a1^a2)
		o[4*c+2] = a2 ^ t ^ xtime(a2^a3)
		o[4*c+3] = a3 ^ t ^ xtime(a3^a0)
	}
	return o
}

// AESSbox is the AES S-box, computed from its definition (inverse in GF(2^8)
// followed by the affine map).
var AESSbox = func() [256]byte {
	var box [256]byte
	p, q := byte(1), byte(1)
	for {
		// p runs over the multiplicative group by powers of 3, q over its inverses.
		p = p ^ p<<1 ^ func() byte {
			if p&0x80 != 0 {
				return 0x1b
			}
			return 0
		}()
		q ^= q << 1
		q ^= q << 2
		q ^= q << 4
		if q&0x80 != 0 {
			q ^= 0x09
		}
		x := q ^ rotl8(q, 1) ^ rotl8(q, 2) ^ rotl8(q, 3) ^ rotl8(q, 4)
		box[p] = x ^ 0x63
		if p == 1 {
			break
		}
	}
	box[0] = 0x63
	return box
}()

func rotl8(x byte, n uint) byte { return x<<n | x>>(8-n) }
