package golden

import (
	"crypto/sha3"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"math/rand"
	"strings"

	"github.com/lowent/lowentc/lang"
)

// The cases of sha512.lw (FIPS 180-4) and sha3.lw (FIPS 202): builders,
// Go references, official vectors and random inputs, kept apart from
// cases.go so that modules added beside them do not touch the same lines.

// SHAVectors are the published examples of FIPS 180-4 (SHA-512) and FIPS
// 202 (SHA3-256, SHAKE128, Keccak-f[1600]) the suite checks, as NIST's
// example files print them.
var SHAVectors = []Vector{
	{Name: "sha512/abc", Source: "FIPS 180-4 example SHA512.pdf, one block",
		In: map[string]string{"msg": hex.EncodeToString([]byte("abc"))},
		Out: map[string]string{"out": "ddaf35a193617aba cc417349ae204131 12e6fa4e89a97ea2 0a9eeee64b55d39a" +
			"2192992a274fc1a8 36ba3c23a3feebbd 454d4423643ce80e 2a9ac94fa54ca49f"}},
	{Name: "sha512/empty", Source: "NIST SHA-512 examples, empty message",
		In: map[string]string{"msg": ""},
		Out: map[string]string{"out": "cf83e1357eefb8bd f1542850d66d8007 d620e4050b5715dc 83f4a921d36ce9ce" +
			"47d0d13c5d85f2b0 ff8318d2877eec2f 63b931bd47417a81 a538327af927da3e"}},
	{Name: "sha512/448bit", Source: "NIST SHA-512 examples, 448-bit message",
		In: map[string]string{"msg": hex.EncodeToString([]byte(msg448))},
		Out: map[string]string{"out": "204a8fc6dda82f0a 0ced7beb8e08a416 57c16ef468b228a8 279be331a703c335" +
			"96fd15c13b1b07f9 aa1d3bea57789ca0 31ad85c7a71dd703 54ec631238ca3445"}},
	{Name: "sha512/896bit", Source: "FIPS 180-4 example SHA512.pdf, two blocks",
		In: map[string]string{"msg": hex.EncodeToString([]byte(msg896))},
		Out: map[string]string{"out": "8e959b75dae313da 8cf4f72814fc143f 8f7779c6eb9f7fa1 7299aeadb6889018" +
			"501d289e4900f7e4 331b99dec4b5433a c7d329eeb6dd2654 5e96e55b874be909"}},
	{Name: "sha3_256/abc", Source: "NIST SHA3-256 examples (FIPS 202), abc",
		In:  map[string]string{"msg": hex.EncodeToString([]byte("abc"))},
		Out: map[string]string{"out": "3a985da74fe225b2 045c172d6bd390bd 855f086e3e9d525b 46bfe24511431532"}},
	{Name: "sha3_256/empty", Source: "NIST SHA3-256 examples (FIPS 202), empty message",
		In:  map[string]string{"msg": ""},
		Out: map[string]string{"out": "a7ffc6f8bf1ed766 51c14756a061d662 f580ff4de43b49fa 82d80a4b80f8434a"}},
	{Name: "sha3_256/448bit", Source: "NIST SHA3-256 examples (FIPS 202), 448-bit message",
		In:  map[string]string{"msg": hex.EncodeToString([]byte(msg448))},
		Out: map[string]string{"out": "41c0dba2a9d62408 49100376a8235e2c 82e1b9998a999e21 db32dd97496d3376"}},
	{Name: "sha3_256/896bit", Source: "NIST SHA3-256 examples (FIPS 202), 896-bit message",
		In:  map[string]string{"msg": hex.EncodeToString([]byte(msg896))},
		Out: map[string]string{"out": "916f6061fe879741 ca6469b43971dfdb 28b1a32dc36cb325 4e812be27aad1d18"}},
	{Name: "sha3_256/1600bit", Source: "NIST SHA3-256 examples (FIPS 202), 1600 bits of a3",
		In:  map[string]string{"msg": strings.Repeat("a3", 200)},
		Out: map[string]string{"out": "79f38adec5c20307 a98ef76e8324afbf d46cfd81b22e3973 c65fa1bd9de31787"}},
	{Name: "shake128/empty", Source: "NIST SHAKE128 examples (FIPS 202), empty message, first 256 bits",
		In:  map[string]string{"msg": ""},
		Out: map[string]string{"out": "7f9c2ba4e88f827d 616045507605853e d73b8093f6efbc88 eb1a6eacfa66ef26"}},
	{Name: "keccak_f1600/zero", Source: "Keccak team, KeccakF-1600 intermediate values: the permutation of the all-zero state",
		In: map[string]string{"st": strings.Repeat("0000000000000000", 25)},
		Out: map[string]string{"st": "F1258F7940E1DDE7 84D5CCF933C0478A D598261EA65AA9EE BD1547306F80494D 8B284E056253D057" +
			"FF97A42D7F8E6FD4 90FEE5A0A44647C4 8C5BDA0CD6192E76 AD30A6F71B19059C 30935AB7D08FFC64" +
			"EB5AA93F2317D635 A9A6E6260D712103 81A57C16DBCF555F 43B831CD0347C826 01F22F1A11A5569F" +
			"05E5635A21D9AE61 64BEFEF28CC970F2 613670957BC46611 B87C5A554FD00ECB 8C3EE88A1CCF32C8" +
			"940C7922AE3A2614 1841F924A2C509E4 16F53526E70465C2 75F644E97F30A13B EAF1FF7B5CECA249"}},
}

const (
	msg448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
	msg896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn" +
		"hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
)

// lanes reads a vector's state: 25 lanes, each as 16 hex digits of the
// lane's value (most significant first), as the Keccak team prints them.
func lanes(s string) []uint64 {
	b := fromHex(s)
	if len(b) != 200 {
		panic("BUG: golden: a Keccak state is not 25 lanes")
	}
	w := make([]uint64, 25)
	for i := range w {
		for _, x := range b[8*i : 8*i+8] {
			w[i] = w[i]<<8 | uint64(x)
		}
	}
	return w
}

// SHA512Case checks sha512.sha512(msg).
func SHA512Case(name string, msg []byte) Case {
	return digestCase(name, "sha512", "sha512", msg, 64, SHA512Ref)
}

// SHA3_256Case checks sha3.sha3_256(msg).
func SHA3_256Case(name string, msg []byte) Case {
	return digestCase(name, "sha3", "sha3_256", msg, 32, SHA3_256Ref)
}

// SHAKE128Case checks sha3.shake128(msg, out) with an outLen-byte out.
func SHAKE128Case(name string, msg []byte, outLen int) Case {
	return Case{
		Name: name, Module: "sha3", Export: "shake128", Bytes: len(msg) + outLen,
		Args: func() []lang.Value { return []lang.Value{Bytes(msg), Bytes(make([]byte, outLen))} },
		Want: func() Expect { return Expect{Args: map[int][]byte{1: SHAKE128Ref(msg, outLen)}} },
	}
}

// KeccakCase checks sha3.keccak_f1600(st) on a copy of st.
func KeccakCase(name string, st []uint64) Case {
	st = append([]uint64(nil), st...)
	return Case{
		Name: name, Module: "sha3", Export: "keccak_f1600", Bytes: 200,
		Args: func() []lang.Value { return []lang.Value{Words(st)} },
		Want: func() Expect { return Expect{Words: map[int][]uint64{0: KeccakRef(st)}} },
	}
}

// SHA512Ref is crypto/sha512.
func SHA512Ref(msg []byte) []byte {
	s := sha512.Sum512(msg)
	return s[:]
}

// SHA3_256Ref is crypto/sha3's SHA3-256.
func SHA3_256Ref(msg []byte) []byte {
	s := sha3.Sum256(msg)
	return s[:]
}

// SHAKE128Ref is crypto/sha3's SHAKE128 with an n-byte output.
func SHAKE128Ref(msg []byte, n int) []byte {
	return sha3.SumSHAKE128(msg, n)
}

// KeccakRef is Keccak-f[1600] written here from FIPS 202 (Go does not
// export the permutation): the step mappings of section 3.2 on a state
// indexed [x][y], rho's offsets walked as in Algorithm 2 and iota's
// constants from the LFSR of Algorithm 5, nothing tabulated. The suite's
// own tests check it against crypto/sha3 through a sponge built on it.
func KeccakRef(st []uint64) []uint64 {
	var a [5][5]uint64
	for x := 0; x < 5; x++ {
		for y := 0; y < 5; y++ {
			a[x][y] = st[x+5*y]
		}
	}
	rot := func(v uint64, n int) uint64 { n %= 64; return v<<n | v>>((64-n)%64) }
	for ir := 0; ir < 24; ir++ {
		// theta
		var c, d [5]uint64
		for x := 0; x < 5; x++ {
			c[x] = a[x][0] ^ a[x][1] ^ a[x][2] ^ a[x][3] ^ a[x][4]
		}
		for x := 0; x < 5; x++ {
			d[x] = c[(x+4)%5] ^ rot(c[(x+1)%5], 1)
			for y := 0; y < 5; y++ {
				a[x][y] ^= d[x]
			}
		}
		// rho (Algorithm 2)
		x, y := 1, 0
		for t := 0; t < 24; t++ {
			a[x][y] = rot(a[x][y], (t+1)*(t+2)/2)
			x, y = y, (2*x+3*y)%5
		}
		// pi (Algorithm 3): A'[x][y] = A[(x + 3y) mod 5][x]
		var b [5][5]uint64
		for x := 0; x < 5; x++ {
			for y := 0; y < 5; y++ {
				b[x][y] = a[(x+3*y)%5][x]
			}
		}
		// chi (Algorithm 4)
		for x := 0; x < 5; x++ {
			for y := 0; y < 5; y++ {
				a[x][y] = b[x][y] ^ (^b[(x+1)%5][y] & b[(x+2)%5][y])
			}
		}
		// iota (Algorithm 6)
		for j := 0; j <= 6; j++ {
			a[0][0] ^= lfsrRC(j+7*ir) << (1<<j - 1)
		}
	}
	out := make([]uint64, 25)
	for x := 0; x < 5; x++ {
		for y := 0; y < 5; y++ {
			out[x+5*y] = a[x][y]
		}
	}
	return out
}

// lfsrRC is rc(t) of FIPS 202, Algorithm 5, with bit k of r holding R[k].
func lfsrRC(t int) uint64 {
	if t%255 == 0 {
		return 1
	}
	r := 1 // R = 10000000
	for i := 1; i <= t%255; i++ {
		r <<= 1 // R = 0 || R
		r8 := r >> 8 & 1
		r ^= r8 | r8<<4 | r8<<5 | r8<<6 // R[0], R[4], R[5], R[6] ^= R[8]
		r &= 0xff                       // Trunc8
	}
	return uint64(r & 1)
}

// SHAOfficial returns a case for each of SHAVectors, expecting the
// published outputs.
func SHAOfficial() []Case { return officialCases(SHAVectors) }

// SHAKE128OutLengths are the output lengths SHAKE128 is squeezed to: both
// sides of one and two 168-byte blocks of the rate, and several blocks.
var SHAKE128OutLengths = []int{1, 16, 32, 167, 168, 169, 200, 335, 336, 337, 512}

// SHARandom returns random-input cases for sha512.lw and sha3.lw: every
// edge length (and SHA-512's 111/112-byte and SHA3's rate edges), SHAKE128
// of the empty message and of random ones at every output length, and
// random Keccak states. Its inputs come from their own stream of seed, so
// adding them leaves the other cases' inputs as they were.
func SHARandom(seed int64) []Case {
	rng := rand.New(rand.NewSource(seed ^ 0x5a5a_3ee5))
	rnd := randBytes(rng)
	lengths := func(extra ...int) []int {
		seen := map[int]bool{}
		var ls []int
		for _, n := range append(append([]int(nil), EdgeLengths...), extra...) {
			if !seen[n] {
				seen[n] = true
				ls = append(ls, n)
			}
		}
		return ls
	}
	var cs []Case
	for _, n := range lengths(239, 240, 367, 368) {
		cs = append(cs, SHA512Case(fmt.Sprintf("sha512/len=%d", n), rnd(n)))
	}
	for _, n := range lengths(135, 136, 137, 271, 272, 273) {
		cs = append(cs, SHA3_256Case(fmt.Sprintf("sha3_256/len=%d", n), rnd(n)))
	}
	for _, ol := range SHAKE128OutLengths {
		cs = append(cs, SHAKE128Case(fmt.Sprintf("shake128/len=0/out=%d", ol), nil, ol))
	}
	for i, n := range lengths(167, 168, 169, 335, 336, 337)[1:] { // 0 is above
		ol := SHAKE128OutLengths[i%len(SHAKE128OutLengths)]
		cs = append(cs, SHAKE128Case(fmt.Sprintf("shake128/len=%d/out=%d", n, ol), rnd(n), ol))
	}
	for i := 0; i < 4; i++ {
		st := make([]uint64, 25)
		for j := range st {
			st[j] = rng.Uint64()
		}
		cs = append(cs, KeccakCase(fmt.Sprintf("keccak_f1600/random%d", i), st))
	}
	return cs
}
