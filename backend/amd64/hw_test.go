package amd64

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// disassemble compiles stdlib module mod with --hw hw into an object and
// returns llvm-objdump's listing of it (-d, and any further flags). The
// object is the one the runners of TestGolden link (the build cache's, the
// same opt and llc run as --emit obj), so the module is not compiled again.
func disassemble(t *testing.T, mod, hw string, flags ...string) string {
	t.Helper()
	p := testprog.Stdlib(t, mod)
	path, err := llvm.Object(Target, input(p), backend.Options{HW: hw})
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-d", "--no-show-raw-insn"}, flags...)
	out, err := exec.Command("llvm-objdump", append(args, path)...).CombinedOutput()
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
	if m := specialInsn.FindString(sha); m != "" {
		t.Errorf("sha256 --hw aes (AES-NI and PCLMULQDQ only) contains %s", m)
	}
	// SHA-256 under auto: the SHA-NI variant (32 SHA256RNDS2 per block,
	// schedule by SHA256MSG1/MSG2) next to the computed ones.
	auto = disassemble(t, "sha256", "auto")
	for _, insn := range []string{"sha256rnds2", "sha256msg1", "sha256msg2", "cpuid"} {
		if count(auto, insn) == 0 {
			t.Errorf("sha256 --hw auto has no %s", insn)
		}
	}
	if n := count(auto, "sha256rnds2"); n%32 != 0 {
		t.Errorf("sha256 --hw auto: %d SHA256RNDS2, not whole blocks of 32", n)
	}
}

// TestWideStores: under AVX-512 the CTR loop xors and stores the keystream
// 64 bytes at a time (runs of four 16-byte store pairs), under AVX2 32.
func TestWideStores(t *testing.T) {
	for _, c := range []struct{ hw, reg string }{{"avx512,vaes,aes", "zmm"}, {"avx2,vaes,aes", "ymm"}} {
		asm := disassemble(t, "aes", c.hw)
		re := regexp.MustCompile(`(?m)^\s+[0-9a-f]+:\s+vmovdqu(64)?\s+%` + c.reg + `\d+, `)
		if n := len(re.FindAllString(asm, -1)); n < 2 {
			t.Errorf("aes --hw %s: %d stores of a whole %s register, want the CTR loop's 2 or more", c.hw, n, c.reg)
		}
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
		// The SHA variants are SSE code: no AVX next to SHA256RNDS2.
		{"sha256", "auto", []string{"+sha", "+sse4.1"}, []string{"+aes", "+pclmul"}},
		{"sha256", "aes,vaes,vpclmul,sha", []string{"+sha"}, []string{"+avx", "+vaes"}},
	} {
		p := testprog.Stdlib(t, c.mod)
		ll, err := Compile(input(p), backend.Options{HW: c.hw, Emit: "ll"})
		if err != nil {
			t.Fatal(err)
		}
		var feats string
		for _, line := range strings.Split(string(ll), "\n") {
			if strings.HasPrefix(line, "define i32 @lowentc_") || strings.HasPrefix(line, "define internal i32 @lowentc_") ||
				strings.HasPrefix(line, "define hidden i32 @lowentc_") {
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

// TestAutoLevels runs GCM and SHA-256 cases on each path of one --hw auto
// object by forcing the CPU level down: the computed, AES-NI, AVX2,
// AVX-512 and SHA-NI variants all agree with Go, GCM also past the
// sixteen-block GHASH threshold in its ciphertext and in its AAD.
func TestAutoLevels(t *testing.T) {
	levels := []int{levelBase, levelAES, levelAVX2, levelAVX512}
	autoLevels(t, "gcm", levels)
	autoLevels(t, "sha256", append(levels, levelAES|levelSHA, levelAVX512|levelSHA))
}

// autoLevels runs a spread of module mod's golden cases with each level
// in levels forced.
func autoLevels(t *testing.T, mod string, levels []int) {
	p := testprog.Stdlib(t, mod)
	var cases []golden.Case
	for _, c := range golden.Cases(golden.Seed(t)) {
		if c.Module == mod && (strings.Contains(c.Name, "len=1000") || strings.Contains(c.Name, "len=17/") ||
			strings.Contains(c.Name, "len=56/") || strings.Contains(c.Name, "FIPS") ||
			strings.Contains(c.Name, "len=2335") || strings.Contains(c.Name, "aad=2100")) {
			cases = append(cases, c)
		}
	}
	if len(cases) == 0 {
		t.Fatalf("no %s cases", mod)
	}
	for _, lvl := range levels {
		r, err := Prepare(input(p), backend.Options{HW: "auto"})
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.ForceLevel(lvl)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: level %#x forced, %#x in effect", mod, lvl, got)
		if got&levelMask > lvl&levelMask || got&^lvl&levelSHA != 0 {
			t.Errorf("forced level %#x, got %#x", lvl, got)
		}
		if lvl&levelSHA != 0 && got&levelSHA == 0 {
			t.Logf("%s: this CPU has no SHA extensions: the SHA-NI variant was not run here (the VM and IR tests run its source on every host)", mod)
		}
		var ps golden.Programs
		for _, c := range cases {
			err := golden.RunCase(&ps, func(_ *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
				res, _, err := r.Run(fn.Name, args)
				return res, err
			}, c)
			if err != nil {
				t.Errorf("level %#x: %s: %v", lvl, c.Name, err)
			}
		}
		r.Close()
	}
}
