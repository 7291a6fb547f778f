package amd64

import (
	"crypto/aes"
	"crypto/cipher"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/backendtest"
	"github.com/lowent/lowentc/internal/testprog"
)

// exampleWant is what both examples print for their fixed inputs, from
// Go's own AES-GCM.
func exampleWant(t *testing.T) string {
	key := make([]byte, 16)
	for i := range key {
		key[i] = byte(i)
	}
	nonce := make([]byte, 12)
	for i := range nonce {
		nonce[i] = byte(0xa0 + i)
	}
	blk, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	g, err := cipher.NewGCM(blk)
	if err != nil {
		t.Fatal(err)
	}
	out := g.Seal(nil, nonce, []byte("hello, lowent"), []byte("header"))
	n := len(out) - 16
	return fmt.Sprintf("ct=%x\ntag=%x\n", out[:n], out[n:])
}

// buildLib writes libMOD.a and MOD.h of stdlib module mod (--hw auto)
// into a temporary directory.
func buildLib(t *testing.T, mod string) string {
	dir := t.TempDir()
	p := testprog.Stdlib(t, mod)
	backendtest.WriteLib(t, "amd64", p, backend.Options{HW: "auto"}, dir)
	return dir
}

// TestExamples builds and runs the C and the Go (cgo) examples against
// the static library; the Go one keeps a key context sized by the header.
func TestExamples(t *testing.T) {
	dir := buildLib(t, "gcm")
	want := exampleWant(t)

	bin := filepath.Join(dir, "seal")
	if out, err := exec.Command("gcc", "-O2", "-Wall", "-Werror", "-I", dir, "examples/c/seal.c",
		filepath.Join(dir, "libgcm.a"), "-o", bin).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).CombinedOutput()
	if err != nil {
		t.Fatalf("seal: %v\n%s", err, out)
	}
	if got := string(out); got != want+"mismatch_status=1\n" {
		t.Errorf("C example printed\n%s\nwant\n%smismatch_status=1", got, want)
	}

	goBin := filepath.Join(dir, "cgo-example")
	cmd := exec.Command("go", "build", "-tags", "lowentc_example", "-o", goBin, "./examples/cgo")
	// cgo compiles the preamble from a file in $TMPDIR, so `#include
	// "gcm.h"` looks there before -I: a stray /tmp/gcm.h (an older
	// build's) would shadow the header under test. An empty TMPDIR of the
	// test's own keeps the lookup to dir.
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1", "CGO_CFLAGS=-I"+dir,
		"CGO_LDFLAGS="+filepath.Join(dir, "libgcm.a"), "TMPDIR="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build (cgo): %v\n%s", err, out)
	}
	out, err = exec.Command(goBin).CombinedOutput()
	if err != nil {
		t.Fatalf("cgo example: %v\n%s", err, out)
	}
	// The Go example seals with a key context (checking the one-shot seal
	// agrees), then opens with it.
	if got := string(out); got != want+"opened=hello, lowent\n" {
		t.Errorf("Go example printed\n%s\nwant\n%sopened=hello, lowent", got, want)
	}
	if !strings.Contains(string(mustRead(t, filepath.Join(dir, "gcm.h"))), "int lowentc_gcm_cpu_level(void);") {
		t.Errorf("gcm.h does not declare the --hw auto level query")
	}
}

func mustRead(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
