package mos6502

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// TestChaChaCycles holds the speed-mode cycles of the modules whose word
// rotates go through rotate.go (and whose runs of loads and stores share
// one pointer, addr.go): ChaCha20's block function and one 64-byte block
// of chacha20_xor within issue 14's target of 35,000 cycles and within
// 3 % of their figures when the rotate chains came in (31,349 and 32,593
// as `lowentc bench` measures the slope), BLAKE2b "Hello C64" within 3 %
// of 173,684 (231,194 before), and SHA-256 "Hello C64" at most its figure
// before (56,502; its rotates stay linear maps). The emulator counts
// cycles exactly; the outputs are checked too.
func TestChaChaCycles(t *testing.T) {
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i)
	}
	nonce, _ := hex.DecodeString("000000090000004a00000000")
	prog, err := stdlibProgram("chacha20", nil)
	if err != nil {
		t.Fatal(err)
	}
	call := func(fn string, args []lang.Value, out int) ([]byte, uint64) {
		t.Helper()
		_, _, cycles, err := prog.callOn(fn, args)
		if err != nil {
			t.Fatalf("%s: %v", fn, err)
		}
		got := make([]byte, len(args[out].Elems))
		for i, x := range args[out].Elems {
			got[i] = byte(x)
		}
		return got, cycles
	}
	bound := func(what string, cycles, max uint64) {
		t.Helper()
		if cycles > max {
			t.Errorf("%s: %d cycles, more than %d (%v)", what, cycles, max, prog.cfg)
		} else {
			t.Logf("%s: %d cycles (bound %d; %v)", what, cycles, max, prog.cfg)
		}
	}

	// RFC 8439, section 2.3.2.
	out, cycles := call("chacha20_block", []lang.Value{bytesValue(key), bytesValue(nonce), {Word: 1}, bytesValue(make([]byte, 64))}, 3)
	want := "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e" +
		"d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"
	if hex.EncodeToString(out) != want {
		t.Errorf("chacha20_block: %x, want %s", out, want)
	}
	bound("chacha20_block", cycles, min(35000, 31349*103/100))

	// One block of chacha20_xor: 128 bytes against 64.
	var per [2]uint64
	for i, n := range []int{64, 128} {
		src := make([]byte, n)
		for j := range src {
			src[j] = byte(7 * j)
		}
		got, c := call("chacha20_xor", []lang.Value{bytesValue(key), bytesValue(nonce), {Word: 1}, bytesValue(src), bytesValue(make([]byte, n))}, 4)
		if ref := golden.ChaCha20Ref(key, nonce, 1, src); !bytes.Equal(got, ref) {
			t.Errorf("chacha20_xor, %d bytes: %x, want %x", n, got, ref)
		}
		per[i] = c
	}
	bound("chacha20_xor, one 64-byte block", per[1]-per[0], min(35000, 32593*103/100))

	hello := []byte("Hello C64")
	for _, c := range []struct {
		mod  string
		max  uint64
		want string
	}{
		{"blake2b", 173684 * 103 / 100, hex.EncodeToString(golden.Blake2bRef(nil, hello, 64))},
		{"sha256", 56502, hex.EncodeToString(golden.SHA256Ref(hello))},
	} {
		p, err := stdlibProgram(c.mod, nil)
		if err != nil {
			t.Fatal(err)
		}
		args := []lang.Value{bytesValue(hello), bytesValue(make([]byte, len(c.want)/2))}
		_, _, cycles, err := p.callOn(c.mod, args)
		if err != nil {
			t.Fatalf("%s: %v", c.mod, err)
		}
		got := make([]byte, len(args[1].Elems))
		for i, x := range args[1].Elems {
			got[i] = byte(x)
		}
		if hex.EncodeToString(got) != c.want {
			t.Errorf("%s: %x, want %s", c.mod, got, c.want)
		}
		if cycles > c.max {
			t.Errorf("%s \"Hello C64\": %d cycles, more than %d (%v)", c.mod, cycles, c.max, p.cfg)
		} else {
			t.Logf("%s \"Hello C64\": %d cycles (bound %d; %v)", c.mod, cycles, c.max, p.cfg)
		}
	}
}
