package stdlib_test

import (
	"encoding/binary"
	"math/rand"
	"testing"

	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
	"github.com/lowent/lowentc/vm"
)

// crypto_hw has no exports (it is a library for ghash and gcm), so these
// tests call its functions directly on the VM.

func hwFunc(t *testing.T, p *lang.Program, name string) *lang.FuncDecl {
	t.Helper()
	for _, fn := range p.Root.Funcs {
		if fn.Name == name {
			return fn
		}
	}
	t.Fatalf("crypto_hw has no function %s", name)
	return nil
}

func words(ws ...uint64) lang.Value { return lang.Value{Elems: ws, IsArray: true} }

// clmulBits is the carry-less product computed bit by bit, independently of
// lang's reference.
func clmulBits(a, b uint64) (lo, hi uint64) {
	for i := 0; i < 64; i++ {
		for j := 0; j < 64; j++ {
			if a>>i&1 == 1 && b>>j&1 == 1 {
				if k := i + j; k < 64 {
					lo ^= 1 << k
				} else {
					hi ^= 1 << (k - 64)
				}
			}
		}
	}
	return lo, hi
}

// elem reads a 16-byte block in crypto_hw's word order: word 0 = bytes
// 8..15, word 1 = bytes 0..7, each big-endian.
func elem(b [16]byte) (uint64, uint64) {
	return binary.BigEndian.Uint64(b[8:]), binary.BigEndian.Uint64(b[:8])
}

func TestCLMul128(t *testing.T) {
	p := testprog.Stdlib(t, "crypto_hw")
	fn := hwFunc(t, p, "clmul128")
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 50; i++ {
		a, b := rng.Uint64(), rng.Uint64()
		if i == 0 {
			a, b = ^uint64(0), ^uint64(0)
		}
		out := words(0, 0, 7) // longer than needed: only out[0..1] may change
		if _, _, err := vm.Run(p, fn, []lang.Value{out, {Word: a}, {Word: b}}, vm.Options{}); err != nil {
			t.Fatal(err)
		}
		lo, hi := clmulBits(a, b)
		if out.Elems[0] != lo || out.Elems[1] != hi || out.Elems[2] != 7 {
			t.Errorf("clmul128(%#x, %#x) = %#x, want [%#x %#x 7]", a, b, out.Elems, lo, hi)
		}
	}
}

func TestGF128Mul(t *testing.T) {
	p := testprog.Stdlib(t, "crypto_hw")
	fn := hwFunc(t, p, "gf128_mul")
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 50; i++ {
		var x, h [16]byte
		rng.Read(x[:])
		rng.Read(h[:])
		if i == 0 {
			x = [16]byte{0x80} // the field's 1
		}
		x0, x1 := elem(x)
		h0, h1 := elem(h)
		out := words(0, 0)
		if _, _, err := vm.Run(p, fn, []lang.Value{out, words(x0, x1), words(h0, h1)}, vm.Options{}); err != nil {
			t.Fatal(err)
		}
		w0, w1 := elem(golden.GFMulRef(x, h))
		if out.Elems[0] != w0 || out.Elems[1] != w1 {
			t.Errorf("gf128_mul(%x, %x) = %#x, want [%#x %#x]", x, h, out.Elems, w0, w1)
		}
	}
}

// TestGF128Aggregated sums eight unreduced products with gf128_mul_acc and
// reduces once, as GHASH's 8-block step does.
func TestGF128Aggregated(t *testing.T) {
	p := testprog.Stdlib(t, "crypto_hw")
	acc, reduce := hwFunc(t, p, "gf128_mul_acc"), hwFunc(t, p, "gf128_reduce")
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 10; i++ {
		sum := words(0, 0, 0, 0, 0, 0)
		var want [16]byte
		for k := 0; k < 8; k++ {
			var x, h [16]byte
			rng.Read(x[:])
			rng.Read(h[:])
			x0, x1 := elem(x)
			h0, h1 := elem(h)
			args := []lang.Value{sum, {Word: x0}, {Word: x1}, {Word: h0}, {Word: h1}}
			if _, _, err := vm.Run(p, acc, args, vm.Options{}); err != nil {
				t.Fatal(err)
			}
			prod := golden.GFMulRef(x, h)
			for j := range want {
				want[j] ^= prod[j]
			}
		}
		out := words(0, 0)
		if _, _, err := vm.Run(p, reduce, []lang.Value{out, sum}, vm.Options{}); err != nil {
			t.Fatal(err)
		}
		w0, w1 := elem(want)
		if out.Elems[0] != w0 || out.Elems[1] != w1 {
			t.Errorf("sum of 8 products = %#x, want [%#x %#x]", out.Elems, w0, w1)
		}
	}
}
