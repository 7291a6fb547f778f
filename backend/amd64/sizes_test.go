package amd64

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
)

// sizesProgram writes array lengths as constants: CTX_WORDS names two
// parameters, N an array of arrays (no macro), H would be the header's
// guard and w/W map to one macro with two values (both keep numbers), and
// crypto_hw's constant is another module's.
const sizesProgram = `module sz

const CTX_WORDS: u32 = 5
const N: u32 = 2
const H: u32 = 3
const w: u32 = 4
const W: u32 = 6

export fn init(seed: u8, ctx: mut [CTX_WORDS]u64) effects none {
    for i in 0..5 {
        ctx[i] = (seed as u64) + (i as u64)
    }
}

export fn use(ctx: [CTX_WORDS]u64, m: [N][N]u8, h: [H]u8, a: [w]u8, b: [W]u8) -> u64 effects none {
    return ctx[4] ^ (m[1][1] as u64) ^ (h[2] as u64) ^ (a[3] as u64) ^ (b[5] as u64)
}
`

// TestHeaderNamedSizes: an export parameter whose length is a constant of
// the module is declared with a macro of that constant, defined once; the
// other lengths stay numbers. The stdlib's key contexts get theirs.
func TestHeaderNamedSizes(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "sz.lw")
	if err := os.WriteFile(src, []byte(sizesProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	p := testprog.Load(t, src)
	hb, err := Compile(input(p), backend.Options{HW: "none", Emit: "h"})
	if err != nil {
		t.Fatal(err)
	}
	h := string(hb)
	for _, want := range []string{
		"#define LOWENTC_SZ_CTX_WORDS 5\n",
		"int lowentc_sz_init(uint8_t seed, uint64_t ctx[LOWENTC_STATIC LOWENTC_SZ_CTX_WORDS]);",
		"int lowentc_sz_use(const uint64_t ctx[LOWENTC_STATIC LOWENTC_SZ_CTX_WORDS], const uint8_t m[LOWENTC_STATIC 4], " +
			"const uint8_t h[LOWENTC_STATIC 3], const uint8_t a[LOWENTC_STATIC 4], const uint8_t b[LOWENTC_STATIC 6], uint64_t *ret);",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("sz.h lacks %q:\n%s", want, h)
		}
	}
	if n := strings.Count(h, "#define LOWENTC_SZ_"); n != 2 { // CTX_WORDS and the guard
		t.Errorf("sz.h has %d LOWENTC_SZ_ macros, want CTX_WORDS and the guard:\n%s", n, h)
	}
	for mod, want := range map[string]string{
		"gcm":   "#define LOWENTC_GCM_AES128_GCM_CTX_WORDS 38\n",
		"aes":   "#define LOWENTC_AES_AES128_CTR_CTX_WORDS 22\n",
		"ghash": "#define LOWENTC_GHASH_GHASH_CTX_WORDS 16\n",
	} {
		p := testprog.Stdlib(t, mod)
		hb, err := Compile(input(p), backend.Options{HW: "auto", Emit: "h"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(hb), want) {
			t.Errorf("%s.h lacks %q:\n%s", mod, want, hb)
		}
	}
}
