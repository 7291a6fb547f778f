package amd64

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// disassemble compiles stdlib module mod with --hw hw into an object and
// returns llvm-objdump's listing of it.
func disassemble(t *testing.T, mod, hw string) string {
	t.Helper()
	p, err := golden.Load(mod)
	if err != nil {
		t.Fatal(err)
	}
	obj, err := Compile(p, backend.Options{HW: hw, Emit: "obj"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), mod+".o")
	if err := os.WriteFile(path, obj, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("llvm-objdump", "-d", "--no-show-raw-insn", path).CombinedOutput()
	if err != nil {
		t.Fatalf("llvm-objdump (LLVM 14 is required): %v\n%s", err, out)
	}
	return string(out)
}

// specialInsn matches an instruction line of llvm-objdump -d that uses
// PCLMULQDQ, AES-NI or SHA (labels and symbol names do not count).
var specialInsn = regexp.MustCompile(`(?m)^\s+[0-9a-f]+:\s+(v?pclmul\w*|v?aes(enc|dec|keygen|imc)\w*|sha256\w+|sha1\w+)\b`)

// TestNoSpecialInstructions: under --hw none no AES, carry-less multiply or
// SHA instruction appears anywhere in the object.
func TestNoSpecialInstructions(t *testing.T) {
	for _, mod := range []string{"gcm", "aes", "ghash", "sha256"} {
		asm := disassemble(t, mod, "none")
		if m := specialInsn.FindString(asm); m != "" {
			t.Errorf("%s --hw none contains %s", mod, m)
		}
	}
}

// TestHardwareInstructions: --hw aes uses PCLMULQDQ and AESENC/AESENCLAST
// where the builtins are, and --hw auto carries both paths.
func TestHardwareInstructions(t *testing.T) {
	count := func(asm, insn string) int {
		return len(regexp.MustCompile(`(?m)^\s+[0-9a-f]+:\s+`+insn+`\s`).FindAllString(asm, -1))
	}
	asm := disassemble(t, "gcm", "aes")
	for _, insn := range []string{"pclmulqdq", "aesenc", "aesenclast"} {
		if count(asm, insn) == 0 {
			t.Errorf("gcm --hw aes has no %s", insn)
		}
	}
	auto := disassemble(t, "gcm", "auto")
	if count(auto, "cpuid") == 0 || count(auto, "xgetbv") == 0 {
		t.Errorf("gcm --hw auto has no cpuid/xgetbv probe")
	}
	if count(auto, "aesenc")+count(auto, "vaesenc") == 0 || count(auto, "pclmulqdq")+count(auto, "vpclmulqdq") == 0 {
		t.Errorf("gcm --hw auto has no hardware path")
	}
	// The computed path of auto: integer multiplies for clmul, none in the
	// hardware variants' GHASH.
	if count(auto, "imulq") == 0 {
		t.Errorf("gcm --hw auto has no computed path")
	}
	sha := disassemble(t, "sha256", "aes")
	if specialInsn.MatchString(sha) {
		t.Errorf("sha256 uses no builtin but got special instructions")
	}
}

// TestFeatureAttributes: a function gets the target features of the
// builtins it uses and only those.
func TestFeatureAttributes(t *testing.T) {
	for _, c := range []struct {
		mod, hw string
		want    []string
		not     []string
	}{
		{"ghash", "aes", []string{"+pclmul"}, []string{"+aes"}},
		{"aes", "aes", []string{"+aes"}, []string{"+pclmul"}},
		{"gcm", "aes", []string{"+aes", "+pclmul"}, nil},
		{"sha256", "aes", nil, []string{"+aes", "+pclmul"}},
		{"gcm", "none", nil, []string{"+aes", "+pclmul", "target-features"}},
		{"gcm", "aes,vaes,vpclmul,sha", []string{"+vaes", "+vpclmulqdq", "+sha", "+aes", "+pclmul"}, nil},
	} {
		p, err := golden.Load(c.mod)
		if err != nil {
			t.Fatal(err)
		}
		ll, err := Compile(p, backend.Options{HW: c.hw, Emit: "ll"})
		if err != nil {
			t.Fatal(err)
		}
		var feats string
		for _, line := range strings.Split(string(ll), "\n") {
			if strings.HasPrefix(line, "define i32 @lowentc_") {
				feats += line + "\n"
			}
		}
		for _, w := range c.want {
			if !strings.Contains(feats, w) {
				t.Errorf("%s --hw %s: no %s in\n%s", c.mod, c.hw, w, feats)
			}
		}
		for _, n := range c.not {
			if strings.Contains(feats, n) {
				t.Errorf("%s --hw %s: unexpected %s in\n%s", c.mod, c.hw, n, feats)
			}
		}
	}
}

// TestAutoLevels runs GCM cases on each path of one --hw auto object by
// forcing the CPU level down: the computed, AES-NI, AVX2 and AVX-512 variants all
// agree with Go.
func TestAutoLevels(t *testing.T) {
	p, err := golden.Load("gcm")
	if err != nil {
		t.Fatal(err)
	}
	var cases []golden.Case
	for _, c := range golden.Cases(golden.Seed(t)) {
		if c.Module == "gcm" && (strings.Contains(c.Name, "len=1000") || strings.Contains(c.Name, "len=17/")) {
			cases = append(cases, c)
		}
	}
	if len(cases) == 0 {
		t.Fatal("no gcm cases")
	}
	for lvl := 0; lvl <= levelAVX512; lvl++ {
		r, err := Prepare(p, backend.Options{HW: "auto"})
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.ForceLevel(lvl)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("level %d forced, %d in effect", lvl, got)
		if got > lvl {
			t.Errorf("forced level %d, got %d", lvl, got)
		}
		var ps golden.Programs
		for _, c := range cases {
			err := golden.RunCase(&ps, func(_ *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
				res, _, err := r.Run(fn, args)
				return res, err
			}, c)
			if err != nil {
				t.Errorf("level %d: %s: %v", lvl, c.Name, err)
			}
		}
		r.Close()
	}
}
