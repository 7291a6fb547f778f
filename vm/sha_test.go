package vm_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// fracBits32 returns the first 32 bits of the fractional part of x.
func fracBits32(x *big.Float) uint64 {
	ip, _ := x.Int(nil)
	f := new(big.Float).SetPrec(x.Prec()).Sub(x, new(big.Float).SetInt(ip))
	f.Mul(f, new(big.Float).SetFloat64(1<<32))
	v, _ := f.Uint64()
	return v
}

// cbrt computes p^(1/3) to 128 bits by Newton's method.
func cbrt(p int) *big.Float {
	const prec = 128
	P := new(big.Float).SetPrec(prec).SetInt64(int64(p))
	x := new(big.Float).SetPrec(prec).SetFloat64(math.Cbrt(float64(p)))
	three := new(big.Float).SetPrec(prec).SetInt64(3)
	for range 8 {
		x2 := new(big.Float).SetPrec(prec).Mul(x, x)
		num := new(big.Float).SetPrec(prec).Mul(x2, x)
		num.Sub(num, P)
		den := new(big.Float).SetPrec(prec).Mul(three, x2)
		x.Sub(x, num.Quo(num, den))
	}
	return x
}

func primes(n int) []int {
	var ps []int
	for c := 2; len(ps) < n; c++ {
		isPrime := true
		for _, q := range ps {
			if c%q == 0 {
				isPrime = false
				break
			}
		}
		if isPrime {
			ps = append(ps, c)
		}
	}
	return ps
}

// shaSource is SHA-256 written in Lowent, with its constants derived here
// from their definition (FIPS 180-4 4.2.2 and 5.3.3).
func shaSource() string {
	var k, h []string
	for i, p := range primes(64) {
		k = append(k, fmt.Sprintf("0x%08x", fracBits32(cbrt(p))))
		if i < 8 {
			h = append(h, fmt.Sprintf("0x%08x", fracBits32(new(big.Float).SetPrec(128).Sqrt(new(big.Float).SetPrec(128).SetInt64(int64(p))))))
		}
	}
	return `module sha

const K: [64]u32 = [` + strings.Join(k, ", ") + `]
const H0: [8]u32 = [` + strings.Join(h, ", ") + `]

fn compress(h: mut [8]u32, blk: [64]u8) {
    var w: [64]u32
    for i in 0..16 {
        w[i] = load_be32(blk, i * 4)
    }
    for i in 16..64 {
        let x = w[i - 15]
        let y = w[i - 2]
        let s0 = (x >>> 7) ^ (x >>> 18) ^ (x >> 3)
        let s1 = (y >>> 17) ^ (y >>> 19) ^ (y >> 10)
        w[i] = w[i - 16] + s0 + w[i - 7] + s1
    }
    var a = h[0]
    var b = h[1]
    var c = h[2]
    var d = h[3]
    var e = h[4]
    var f = h[5]
    var g = h[6]
    var hh = h[7]
    for i in 0..64 {
        let t1 = hh + ((e >>> 6) ^ (e >>> 11) ^ (e >>> 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]
        let t2 = ((a >>> 2) ^ (a >>> 13) ^ (a >>> 22)) + ((a & b) ^ (a & c) ^ (b & c))
        hh = g
        g = f
        f = e
        e = d + t1
        d = c
        c = b
        b = a
        a = t1 + t2
    }
    h[0] += a
    h[1] += b
    h[2] += c
    h[3] += d
    h[4] += e
    h[5] += f
    h[6] += g
    h[7] += hh
}

fn finish(h: mut [8]u32, tail: []u8, total: u32) requires len(tail) < 64 {
    var last: [128]u8
    for i in 0..len(tail) {
        last[i] = tail[i]
    }
    last[len(tail)] = 0x80
    var nblk: u32 = 1
    if len(tail) >= 56 {
        nblk = 2
    }
    store_be64(last, nblk * 64 - 8, (total as u64) << 3)
    for k, blk in chunks(last, 64) {
        if k < nblk {
            compress(h, blk)
        }
    }
}

export fn sha256(msg: []u8, out: mut [32]u8) effects trap {
    var h = H0
    for blk in chunks(msg, 64) {
        compress(h, blk)
    }
    finish(h, rest(msg, 64), len(msg))
    for i in 0..8 {
        store_be32(out, i * 4, h[i])
    }
}
`
}

func runSHA(t testing.TB, p *lang.Program, msg []byte) ([]byte, vm.Stats) {
	t.Helper()
	sum, st, err := shaRun(p, msg)
	if err != nil {
		t.Fatalf("sha256(%d bytes): %v", len(msg), err)
	}
	return sum, st
}

func shaRun(p *lang.Program, msg []byte) ([]byte, vm.Stats, error) {
	out := arr(make([]uint64, 32)...)
	_, st, err := vm.Run(p, p.Export("sha256"), []lang.Value{byteArr(msg), out}, vm.Options{})
	return toBytes(out.Elems), st, err
}

func testMessage(n int) []byte {
	msg := make([]byte, n)
	for i := range msg {
		msg[i] = byte(i*131 + i>>8 + 7)
	}
	return msg
}

func TestSHA256(t *testing.T) {
	p := load(t, shaSource())
	for n := 0; n <= 200; n++ {
		msg := testMessage(n)
		want := sha256.Sum256(msg)
		if got, _ := runSHA(t, p, msg); !bytes.Equal(got, want[:]) {
			t.Fatalf("sha256(%d bytes) = %x, want %x", n, got, want)
		}
	}
	// Speed: 64 KiB must hash well under a second.
	msg := testMessage(64 << 10)
	start := time.Now()
	got, st := runSHA(t, p, msg)
	elapsed := time.Since(start)
	want := sha256.Sum256(msg)
	if !bytes.Equal(got, want[:]) {
		t.Fatalf("sha256(64 KiB) = %x, want %x", got, want)
	}
	t.Logf("sha256 of 64 KiB: %v, %d steps", elapsed, st.Steps)
	if elapsed > time.Second {
		t.Errorf("sha256 of 64 KiB took %v", elapsed)
	}
}

// BenchmarkRun hashes 64 KiB with the Lowent SHA-256: a loop-heavy program.
func BenchmarkRun(b *testing.B) {
	p := load(b, shaSource())
	msg := byteArr(testMessage(64 << 10))
	out := arr(make([]uint64, 32)...)
	fn := p.Export("sha256")
	b.SetBytes(64 << 10)
	for b.Loop() {
		if _, _, err := vm.Run(p, fn, []lang.Value{msg, out}, vm.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
