package mos6502

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lowent/lowentc/stdlib/golden"
)

// TestCC65Peer builds testdata/sha256.c (a plain C SHA-256) with cc65's
// `cl65 -O` for sim65, checks its digest of "Hello C64" against Go's, and
// reports its cycles for the hash (the run with the hash minus the run
// without) next to ours, which must be fewer.
func TestCC65Peer(t *testing.T) {
	for _, tool := range []string{"cl65", "sim65"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s not found (apt-get install cc65): %v", tool, err)
		}
	}
	// cl65 leaves its object file beside the source: build a copy in a
	// temporary directory so the checkout stays clean.
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "sha256.c"))
	if err != nil {
		t.Fatal(err)
	}
	csrc := filepath.Join(dir, "sha256.c")
	if err := os.WriteFile(csrc, src, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "csha")
	if out, err := exec.Command("cl65", "-O", "-t", "sim6502", "-o", bin, csrc).CombinedOutput(); err != nil {
		t.Fatalf("cl65: %v\n%s", err, out)
	}
	run := func(args ...string) (string, uint64) {
		out, err := exec.Command("sim65", append([]string{"-c", bin}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("sim65: %v\n%s", err, out)
		}
		m := cyclesRe.FindStringSubmatch(string(out))
		if m == nil {
			t.Fatalf("sim65 printed no cycle count: %q", out)
		}
		n, _ := strconv.ParseUint(m[1], 10, 64)
		return strings.Fields(string(out))[0], n
	}
	digest, with := run("hash")
	_, without := run()
	want := sha256.Sum256([]byte("Hello C64"))
	if digest != hex.EncodeToString(want[:]) {
		t.Fatalf("cc65 SHA-256 printed %s, want %x", digest, want)
	}
	cc65 := with - without
	prog, err := stdlibProgram("sha256", nil)
	if err != nil {
		t.Fatal(err)
	}
	c := golden.SHA256Case("hello", []byte("Hello C64"))
	_, ours, err := prog.call("sha256", c.Args())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf(`SHA-256 "Hello C64": cc65 -O %d cycles, lowentc %d (%.1fx)`, cc65, ours, float64(cc65)/float64(ours))
	if ours >= cc65 {
		t.Errorf("lowentc takes %d cycles, cc65 -O %d", ours, cc65)
	}
}
