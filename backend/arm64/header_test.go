package arm64

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/backendtest"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
)

// levelC links testdata/builtins.lw's static library (--hw auto) into a C
// program that reads the level queries, forces the levels (bad ones are
// -1 and change nothing) and calls an export at each level.
const levelC = `#include <stdio.h>
#include "builtins.h"

/* Through a volatile pointer, so that gcc neither warns about the NULL
   nor assumes anything from the [static N] declarations. */
static void *volatile nothing = NULL;

int main(void) {
	uint32_t r = 0;
	int level = lowentc_builtins_cpu_level(), flags = lowentc_builtins_cpu_flags();
	printf("level %d flags %#x\n", level, flags);
	int st = lowentc_builtins_haves(1000, &r);
	printf("haves %d %u\n", st, r);
	int bad[] = {-1, 2, 0x100, 0x101};
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int got = lowentc_builtins_force_level(bad[i]);
		printf("force %d: %d %s\n", bad[i], got, lowentc_builtins_cpu_flags() == flags ? "unchanged" : "changed");
	}
	printf("force 0: %d level %d flags %#x\n", lowentc_builtins_force_level(0), lowentc_builtins_cpu_level(), lowentc_builtins_cpu_flags());
	st = lowentc_builtins_haves(1000, &r);
	printf("haves %d %u\n", st, r);
	printf("force 1: %d level %d flags %#x\n", lowentc_builtins_force_level(1), lowentc_builtins_cpu_level(), lowentc_builtins_cpu_flags());
	st = lowentc_builtins_haves(1000, &r);
	printf("haves %d %u\n", st, r);
	uint64_t s[2] = {1, 2}, k[2] = {3, 4}, lo, hi;
	printf("enc %d\n", lowentc_builtins_enc(s, k, &lo, &hi));
	printf("null %d\n", lowentc_builtins_enc(nothing, k, &lo, &hi));
	return 0;
}
`

// TestLibraryAndLevelsC: the header declares the exports and the level
// queries; a C program cross-linked with the static library runs under
// qemu-aarch64 -cpu max (every extension: flags 0x58) and the dispatcher
// follows the forced level.
func TestLibraryAndLevelsC(t *testing.T) {
	p := testprog.Load(t, "testdata/builtins.lw")
	dir := t.TempDir()
	backendtest.WriteLib(t, "arm64", p, backend.Options{HW: "auto"}, dir)
	h := string(mustRead(t, filepath.Join(dir, "builtins.h")))
	for _, want := range []string{
		"int lowentc_builtins_enc(const uint64_t s[LOWENTC_STATIC 2], const uint64_t k[LOWENTC_STATIC 2], uint64_t *ret0, uint64_t *ret1);",
		"int lowentc_builtins_cpu_level(void);",
		"int lowentc_builtins_cpu_flags(void);",
		"int lowentc_builtins_force_level(int level);",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("builtins.h lacks %q:\n%s", want, h)
		}
	}
	bin := buildC(t, dir, levelC, filepath.Join(dir, "libbuiltins.a"))
	want := `level 1 flags 0x58
haves 0 1111
force -1: -1 unchanged
force 2: -1 unchanged
force 256: -1 unchanged
force 257: -1 unchanged
force 0: 0 level 0 flags 0
haves 0 1000
force 1: 1 level 1 flags 0x58
haves 0 1111
enc 0
null 1
`
	// The detection reads AT_HWCAP as the CPU gives it: qemu's max CPU
	// (0xecfffffb here) and a Cortex-A53 (0x8fb) both have the three bits.
	for _, cpu := range []string{qemuCPU, "cortex-a53"} {
		if out := runC(t, bin, cpu); out != want {
			t.Errorf("-cpu %s: got\n%s\nwant\n%s", cpu, out, want)
		}
	}
}

// buildC compiles src with the cross compiler (-Wall -Werror, statically
// with the libraries) and returns the executable.
func buildC(t *testing.T, dir, src string, libs ...string) string {
	t.Helper()
	cc, err := lookTool("aarch64-linux-gnu-gcc")
	if err != nil {
		t.Fatal(err)
	}
	csrc, bin := filepath.Join(dir, "main.c"), filepath.Join(dir, "main")
	if err := os.WriteFile(csrc, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-O2", "-Wall", "-Werror", "-static", "-I", dir, "-o", bin, csrc}, libs...)
	if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		t.Fatalf("aarch64-linux-gnu-gcc: %v\n%s", err, out)
	}
	return bin
}

// runC runs bin under qemu-aarch64 -cpu cpu and returns what it prints.
func runC(t *testing.T, bin, cpu string) string {
	t.Helper()
	qemu, err := lookTool("qemu-aarch64")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(qemu, "-cpu", cpu, bin).CombinedOutput()
	if err != nil {
		t.Fatalf("qemu-aarch64 -cpu %s: %v\n%s", cpu, err, out)
	}
	return string(out)
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHaveLevels: under --hw auto each forced level answers `have` as the
// VM does with that level's features.
func TestHaveLevels(t *testing.T) {
	p := testprog.Load(t, "../testdata/haves.lw")
	fn := p.Exports()[0]
	for _, lvl := range []int{levelBase, levelCrypto} {
		r, err := Prepare(input(p), backend.Options{HW: "auto"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.ForceLevel(lvl); err != nil {
			t.Fatal(err)
		}
		res, _, err := r.Run(fn.Name, []lang.Value{{Word: 100}})
		if err != nil {
			t.Fatal(err)
		}
		want := map[int]uint64{levelBase: 103, levelCrypto: 101}[lvl]
		if res[0].Word != want {
			t.Errorf("level %d: got %d, want %d", lvl, res[0].Word, want)
		}
		r.Close()
	}
}

// TestHeaderArraySizesCross: gcm's header (the C ABI of amd64, the same
// text) declares the key as an array of 16, so the cross compiler's
// -Wall warns about a call that passes 8 bytes and says nothing about 16.
func TestHeaderArraySizesCross(t *testing.T) {
	p := testprog.Load(t, "../../stdlib/gcm.lw")
	h, err := Compile(input(p), backend.Options{HW: "auto", Emit: "h"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gcm.h"), h, 0o644); err != nil {
		t.Fatal(err)
	}
	cc, err := lookTool("aarch64-linux-gnu-gcc")
	if err != nil {
		t.Fatal(err)
	}
	compile := func(keyLen string) string {
		src := filepath.Join(dir, "k"+keyLen+".c")
		code := `#include "gcm.h"
int seal(const uint8_t *msg, uint8_t *ct, size_t n) {
	uint8_t key[` + keyLen + `] = {1}, nonce[12] = {2}, tag[16];
	return lowentc_gcm_aes128_gcm_seal(key, nonce, NULL, 0, msg, n, ct, n, tag);
}
`
		if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(cc, "-O2", "-Wall", "-Wextra", "-I", dir, "-c", src, "-o", src+".o").CombinedOutput()
		if err != nil {
			t.Fatalf("aarch64-linux-gnu-gcc: %v\n%s", err, out)
		}
		return string(out)
	}
	if short := compile("8"); !strings.Contains(short, "region of size 8") {
		t.Errorf("no warning about an 8-byte key:\n%s", short)
	}
	if ok := compile("16"); ok != "" {
		t.Errorf("a warning about a 16-byte key:\n%s", ok)
	}
}
