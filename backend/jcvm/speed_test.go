package jcvm

import (
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
)

// TestUnrollWherePays: a function whose loops the default budget left
// rolled gets a larger budget where the workload's modeled time falls
// enough for the bytes it adds (growUnroll), within the size goal. Before
// (per block, jcop4): SHA-256 35.0 ms with int, AES-128-CTR 79.0 ms with
// int and 81.4 without, SHA-512 258.4 ms with int. ChaCha20's larger
// budgets save too little for their bytes (1.2 % for 7.6 KB, 4.5 % for
// 15 KB) and it stays as it was.
func TestUnrollWherePays(t *testing.T) {
	for _, c := range []struct {
		mod, export string
		block       int
		noInt       bool
		ms          float64
		maxBytes    int
	}{
		{"sha256", "sha256", 64, false, 30, 32 << 10},
		{"aes", "aes128_ctr", 16, false, 75, 32 << 10},
		{"aes", "aes128_ctr", 16, true, 79, 32 << 10},
		{"sha512", "sha512", 128, false, 200, 32 << 10},
		{"chacha20", "chacha20_xor", 64, false, 28, 16 << 10},
	} {
		opts := backend.Options{NoInt: c.noInt}
		ms := slopeMs(t, c.mod, c.export, c.block, opts)
		p := testprog.Stdlib(t, c.mod)
		cls, err := compileClass(input(p), opts)
		if err != nil {
			t.Fatal(err)
		}
		st, err := statsOf(cls)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s noInt=%v: %.1f ms per block, method_bytes=%d", c.export, c.noInt, ms, st.methodBytes)
		if ms > c.ms {
			t.Errorf("%s noInt=%v: %.1f ms per block, want at most %.0f", c.export, c.noInt, ms, c.ms)
		}
		if st.methodBytes > c.maxBytes {
			t.Errorf("%s noInt=%v: %d bytes of bytecode, want at most %d", c.export, c.noInt, st.methodBytes, c.maxBytes)
		}
	}
}

// TestRuntimeInlined: where the module has room, the runtime's own callee
// (AES's sub_bytes, called by rt_enc and rt_enclast) is inlined into its
// exports (inlineRuntime): AES-128-CTR per block 72.5 -> 65.1 ms with int
// and 76.2 -> 72.0 ms without. gcm, at the goal already, keeps it a
// method.
func TestRuntimeInlined(t *testing.T) {
	for _, c := range []struct {
		mod     string
		noInt   bool
		ms      float64 // aes128_ctr per block
		subByte bool    // rt_sub_bytes stays a method
	}{{"aes", false, 68, false}, {"aes", true, 74, false}, {"gcm", false, 0, true}} {
		opts := backend.Options{NoInt: c.noInt}
		p := testprog.Stdlib(t, c.mod)
		cls, err := compileClass(input(p), opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := methodsNamed(cls, "rt_sub_bytes") == 1; got != c.subByte {
			t.Errorf("%s noInt=%v: rt_sub_bytes a method: %v, want %v", c.mod, c.noInt, got, c.subByte)
		}
		if c.ms == 0 {
			continue
		}
		ms := slopeMs(t, c.mod, "aes128_ctr", 16, opts)
		t.Logf("%s noInt=%v: aes128_ctr %.1f ms per block", c.mod, c.noInt, ms)
		if ms > c.ms {
			t.Errorf("%s noInt=%v: aes128_ctr %.1f ms per block, want at most %.0f", c.mod, c.noInt, ms, c.ms)
		}
	}
}
