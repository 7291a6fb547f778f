package amd64

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/backendtest"
	"github.com/lowent/lowentc/internal/testprog"
)

// TestHeaderArraySizes: the header declares gcm's key as an array of 16
// (`[LOWENTC_STATIC 16]`), so gcc -Wall warns about a call that passes 8
// bytes; the same call with 16 bytes compiles without a word, and a C++
// compiler still reads the header.
func TestHeaderArraySizes(t *testing.T) {
	p := testprog.Stdlib(t, "gcm")
	h, err := Compile(input(p), backend.Options{HW: "auto", Emit: "h"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"int lowentc_gcm_aes128_gcm_seal(const uint8_t key[LOWENTC_STATIC 16], const uint8_t nonce[LOWENTC_STATIC 12], " +
			"const uint8_t *aad, size_t aad_len, const uint8_t *pt, size_t pt_len, uint8_t *ct, size_t ct_len, uint8_t tag[LOWENTC_STATIC 16]);",
		"#define LOWENTC_STATIC static",
		"int lowentc_gcm_force_level(int level);",
	} {
		if !strings.Contains(string(h), want) {
			t.Errorf("gcm.h lacks %q:\n%s", want, h)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gcm.h"), h, 0o644); err != nil {
		t.Fatal(err)
	}
	call := func(keyLen int) string {
		return `#include "gcm.h"
int seal(const uint8_t *msg, uint8_t *ct, size_t n) {
	uint8_t key[` + strconv.Itoa(keyLen) + `] = {1}, nonce[12] = {2}, tag[16];
	return lowentc_gcm_aes128_gcm_seal(key, nonce, NULL, 0, msg, n, ct, n, tag);
}
`
	}
	compile := func(name, src string, args ...string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(args[0], append(args[1:], "-Wall", "-Wextra", "-I", dir, "-c", path, "-o", path+".o")...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %s: %v\n%s", args[0], name, err, stderr.String())
		}
		return stderr.String()
	}
	short := compile("short.c", call(8), "gcc")
	if !strings.Contains(short, "region of size 8") || !strings.Contains(short, "lowentc_gcm_aes128_gcm_seal") {
		t.Errorf("gcc -Wall -Wextra says nothing useful about an 8-byte key:\n%s", short)
	}
	if ok := compile("ok.c", call(16), "gcc"); ok != "" {
		t.Errorf("gcc -Wall -Wextra warns about a 16-byte key:\n%s", ok)
	}
	if _, err := exec.LookPath("g++"); err == nil {
		if out := compile("ok.cc", call(16), "g++", "-x", "c++"); out != "" {
			t.Errorf("g++ warns about the header:\n%s", out)
		}
	}
	if out := compile("c89.c", call(16), "gcc", "-std=c89", "-pedantic", "-Wno-long-long"); strings.Contains(out, "gcm.h") {
		t.Errorf("gcc -std=c89 warns about the header:\n%s", out)
	}
}

// nullC calls the exports of nullProgram with NULL pointers: a NULL with
// elements behind it is LOWENTC_FAULT, a NULL slice of length 0 is a
// slice like any other. Then force_level: a bad level is -1 and leaves the
// level in effect alone.
const nullC = `#include <stdio.h>
#include "nul.h"

/* Through a volatile pointer, so that gcc neither warns about the NULL
   constants nor assumes anything from the [static N] declarations. */
static void *volatile nothing = NULL;

int main(void) {
	uint32_t key[4] = {1, 2, 3, 4};
	uint8_t msg[5] = {1, 2, 3, 4, 5}, out[5], r[8];
	uint64_t x[2] = {3, 5}, y = 0;
	uint8_t *np = nothing;
	printf("ok %d\n", lowentc_nul_mask(key, msg, 5, out, 5, r));
	printf("key %d\n", lowentc_nul_mask(nothing, msg, 5, out, 5, r));
	printf("msg %d\n", lowentc_nul_mask(key, np, 5, out, 5, r));
	printf("out %d\n", lowentc_nul_mask(key, msg, 5, np, 5, r));
	printf("ret %d\n", lowentc_nul_mask(key, msg, 5, out, 5, nothing));
	int st = lowentc_nul_mask(key, np, 0, np, 0, r);
	printf("empty %d %u\n", st, r[0]);
	printf("requires %d\n", lowentc_nul_mask(key, np, 0, out, 1, r));
	st = lowentc_nul_fold(x, &y);
	printf("xor %d %llu\n", st, (unsigned long long)y);
	printf("xnull %d\n", lowentc_nul_fold(nothing, &y));
	printf("ynull %d\n", lowentc_nul_fold(x, nothing));
	int level = lowentc_nul_cpu_level() | lowentc_nul_cpu_flags();
	int bad[] = {-1, 4, 0xff, 0x400, 0x104, 0x304, -256};
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int got = lowentc_nul_force_level(bad[i]);
		int now = lowentc_nul_cpu_level() | lowentc_nul_cpu_flags();
		printf("force %d: %d %s\n", bad[i], got, now == level ? "unchanged" : "changed");
	}
	int zero = lowentc_nul_force_level(0);
	printf("force 0: %d; -1 after: %d, level %d\n", zero, lowentc_nul_force_level(-1), lowentc_nul_cpu_level());
	return 0;
}
`

const nullProgram = `module nul

export fn mask(key: [4]u32, msg: []u8, out: mut []u8) -> [8]u8 requires len(out) == len(msg) effects none {
    var r: [8]u8
    for i in 0..len(msg) {
        out[i] = msg[i] ^ (key[i & 3] as u8)
    }
    r[0] = 7 + (len(msg) as u8)
    return r
}

export fn fold(x: [2]u64) -> u64 effects none {
    return x[0] ^ x[1]
}
`

// TestNullPointersAndForceLevelC: NULL pointers and bad CPU levels from C
// get LOWENTC_FAULT and -1, not a crash or the highest level.
func TestNullPointersAndForceLevelC(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "nul.lw")
	if err := os.WriteFile(src, []byte(nullProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	p := testprog.Load(t, src)
	backendtest.WriteLib(t, "amd64", p, backend.Options{HW: "auto"}, dir)
	if h := string(mustRead(t, filepath.Join(dir, "nul.h"))); !strings.Contains(h,
		"int lowentc_nul_mask(const uint32_t key[LOWENTC_STATIC 4], const uint8_t *msg, size_t msg_len, uint8_t *out, size_t out_len, uint8_t ret[LOWENTC_STATIC 8]);") ||
		!strings.Contains(h, "int lowentc_nul_fold(const uint64_t x[LOWENTC_STATIC 2], uint64_t *ret);") {
		t.Errorf("nul.h:\n%s", h)
	}
	csrc, bin := filepath.Join(dir, "nul.c"), filepath.Join(dir, "nul")
	if err := os.WriteFile(csrc, []byte(nullC), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("gcc", "-O2", "-Wall", "-Werror", "-I", dir, "-o", bin, csrc, filepath.Join(dir, "libnul.a")).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := `ok 0
key 1
msg 1
out 1
ret 1
empty 0 7
requires 1
xor 0 6
xnull 1
ynull 1
force -1: -1 unchanged
force 4: -1 unchanged
force 255: -1 unchanged
force 1024: -1 unchanged
force 260: -1 unchanged
force 772: -1 unchanged
force -256: -1 unchanged
force 0: 0; -1 after: -1, level 0
`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}
