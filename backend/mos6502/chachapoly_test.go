package mos6502

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// TestChaChaPolyModule: a module holding ChaCha20 and Poly1305
// (testdata/chachapoly.lw) costs, per 64-byte block of chacha20_xor, at
// most 10 % more than stdlib/chacha20.lw alone (issue 12): unroll and
// inline are decided per function, so the Poly1305 beside it does not
// push ChaCha20's quarter round out of line. The cost per block is the
// slope between 2 and 6 blocks, as `bench --block` measures it; both
// modules' outputs are checked, and the Poly1305 tag too.
func TestChaChaPolyModule(t *testing.T) {
	p := testprog.Load(t, "testdata/chachapoly.lw")
	both, err := build(input(p), backend.Options{}, layout{org: runOrg, linear: true})
	if err != nil {
		t.Fatal(err)
	}
	alone, err := stdlibProgram("chacha20", nil)
	if err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i)
	}
	nonce, _ := hex.DecodeString("000000090000004a00000000")
	perBlock := func(prog *program) uint64 {
		t.Helper()
		var c [2]uint64
		for i, n := range []int{2 * 64, 6 * 64} {
			src := make([]byte, n)
			for j := range src {
				src[j] = byte(5*j + 1)
			}
			args := []lang.Value{bytesValue(key), bytesValue(nonce), {Word: 1}, bytesValue(src), bytesValue(make([]byte, n))}
			_, _, cycles, err := prog.callOn("chacha20_xor", args)
			if err != nil {
				t.Fatalf("%d bytes: %v", n, err)
			}
			got := make([]byte, n)
			for j, x := range args[4].Elems {
				got[j] = byte(x)
			}
			if ref := golden.ChaCha20Ref(key, nonce, 1, src); !bytes.Equal(got, ref) {
				t.Errorf("chacha20_xor, %d bytes (%v): %x, want %x", n, prog.cfg, got, ref)
			}
			c[i] = cycles
		}
		return (c[1] - c[0]) / 4
	}
	a, b := perBlock(alone), perBlock(both)
	if b*10 > a*11 {
		t.Errorf("chacha20_xor beside poly1305: %d cycles a block, alone %d: more than 10 %% over (%v)", b, a, both.cfg)
	} else {
		t.Logf("chacha20_xor: %d cycles a block beside poly1305 (%v), %d alone (%v)", b, both.cfg, a, alone.cfg)
	}

	for _, n := range []int{0, 9, 16, 34, 100} {
		msg := make([]byte, n)
		for j := range msg {
			msg[j] = byte(3*j + 2)
		}
		args := []lang.Value{bytesValue(key), bytesValue(msg), bytesValue(make([]byte, 16))}
		if _, _, _, err := both.callOn("poly1305", args); err != nil {
			t.Fatalf("poly1305, %d bytes: %v", n, err)
		}
		got := make([]byte, 16)
		for j, x := range args[2].Elems {
			got[j] = byte(x)
		}
		if ref := golden.Poly1305Ref(key, msg); !bytes.Equal(got, ref) {
			t.Errorf("poly1305, %d bytes: %x, want %x", n, got, ref)
		}
	}
}
