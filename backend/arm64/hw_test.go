package arm64

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/internal/testprog"
)

// cryptoInstr matches the Cryptography Extensions' instructions in
// llvm-objdump's output.
var cryptoInstr = regexp.MustCompile(`^(aese|aesd|aesmc|aesimc|pmull2?|sha1\w*|sha256h2?|sha256su[01]|sha512\w*)$`)

// mnemonics disassembles obj (decoding the crypto instructions: without
// --mattr llvm-objdump prints them as <unknown>) and counts each mnemonic.
func mnemonics(t *testing.T, obj string) map[string]int {
	t.Helper()
	out, err := exec.Command("llvm-objdump", "-d", "--no-show-raw-insn", "--mattr=+aes,+sha2", obj).Output()
	if err != nil {
		t.Fatalf("llvm-objdump -d %s: %v", obj, err)
	}
	n := map[string]int{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Split(line, "\t"); len(f) >= 2 && strings.HasSuffix(strings.TrimSpace(f[0]), ":") && strings.TrimSpace(f[1]) != "" {
			n[strings.Fields(f[1])[0]]++
		}
	}
	return n
}

// TestCryptoInstructions: with --hw none no object of the stdlib has a
// crypto instruction (nor anything llvm-objdump cannot decode); with
// crypto and auto, each module has the instructions of its builtins.
// The objects are the runner's builds (the golden test's, when it ran).
func TestCryptoInstructions(t *testing.T) {
	want := map[string][]string{
		"sha256": {"sha256h", "sha256h2", "sha256su0", "sha256su1"},
		"aes":    {"aese", "aesmc"},
		"ghash":  {"pmull"},
		"gcm":    {"aese", "aesmc", "pmull"},
	}
	mods := []string{"sha256", "aes", "ghash", "gcm", "blake2b", "chacha20"}
	prebuild(t, mods, []string{"none", "crypto", "auto"})
	for _, mod := range mods {
		p := testprog.Stdlib(t, mod)
		for _, hw := range []string{"none", "crypto", "auto"} {
			obj, err := llvm.Object(Target, input(p), backend.Options{HW: hw})
			if err != nil {
				t.Fatalf("%s --hw %s: %v", mod, hw, err)
			}
			n := mnemonics(t, obj)
			if n["<unknown>"] > 0 {
				t.Errorf("%s --hw %s: %d instructions llvm-objdump cannot decode", mod, hw, n["<unknown>"])
			}
			var found []string
			for m := range n {
				if cryptoInstr.MatchString(m) {
					found = append(found, m)
				}
			}
			if hw == "none" {
				if len(found) > 0 {
					t.Errorf("%s --hw none has crypto instructions: %v", mod, found)
				}
				continue
			}
			for _, m := range want[mod] {
				if n[m] == 0 {
					t.Errorf("%s --hw %s has no %s", mod, hw, m)
				}
			}
			if len(want[mod]) == 0 && len(found) > 0 {
				t.Errorf("%s --hw %s uses no builtin but has %v", mod, hw, found)
			}
		}
	}
}
