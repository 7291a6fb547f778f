package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lowent/lowentc/internal/llvmtest"
)

// TestMain shares opt's and llc's outputs with the other test binaries
// (llvmtest) and removes the backends' build caches when the tests end.
func TestMain(m *testing.M) { llvmtest.Main(m) }

// lowentc runs the command line in-process and returns status, stdout, stderr.
func lowentc(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	status := run(args, &out, &errb)
	return status, out.String(), errb.String()
}

const stdlibDir = "../../stdlib"

// assertUsageError checks that lowentc answers args with a usage error:
// exit status 2, nothing on standard output, one line on standard error,
// which it returns.
func assertUsageError(t *testing.T, args ...string) string {
	t.Helper()
	status, out, errs := lowentc(args...)
	assert.Equal(t, exitUsage, status, "%q: %s", args, errs)
	assert.Empty(t, out, "%q", args)
	assert.Equal(t, 1, strings.Count(errs, "\n"), "%q: %q", args, errs)
	return errs
}

// dirNames are the names of the entries of dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestRunPrintsMutParamsAndResults(t *testing.T) {
	for _, target := range [][]string{{"--target", "vm"}, {"--target", "ir", "--width", "8"}, {"--target=ir", "--width=32"}} {
		args := append([]string{"run"}, target...)
		args = append(args, filepath.Join(stdlibDir, "sha256.lw"), "sha256", "msg=616263")
		status, out, errs := lowentc(args...)
		require.Equal(t, exitOK, status, errs)
		sum := sha256.Sum256([]byte("abc"))
		assert.Equal(t, "out="+hex.EncodeToString(sum[:])+"\n", out, target)
	}
}

// TestHWForVMAndIR: --hw on the vm and ir targets says what `have`
// answers; SHA-256's instruction-shaped branch gives the same digest, and
// takes a different number of VM steps.
func TestHWForVMAndIR(t *testing.T) {
	msg := []byte("the have sha branch of sha256.lw")
	sum := sha256.Sum256(msg)
	steps := map[string]string{}
	for _, hw := range []string{"none", "sha", "all"} {
		for _, target := range [][]string{{"--target", "vm"}, {"--target", "ir", "--width", "16"}} {
			args := append([]string{"run", "--stats", "--hw", hw}, target...)
			args = append(args, filepath.Join(stdlibDir, "sha256.lw"), "sha256", "msg="+hex.EncodeToString(msg))
			status, out, errs := lowentc(args...)
			require.Equal(t, exitOK, status, errs)
			assert.Equal(t, "out="+hex.EncodeToString(sum[:])+"\n", out, "%v --hw %s", target, hw)
			if target[1] == "vm" {
				steps[hw] = regexp.MustCompile(`(?m)^steps=\d+$`).FindString(errs)
			}
		}
	}
	assert.NotEqual(t, steps["none"], steps["sha"], "the VM took the same path with and without sha")
	assert.Equal(t, steps["sha"], steps["all"])
	status, _, errs := lowentc("run", "--hw", "avx9", filepath.Join(stdlibDir, "sha256.lw"), "sha256", "msg=")
	assert.NotEqual(t, exitOK, status)
	assert.Contains(t, errs, `unknown feature "avx9"`)
}

// TestFlagForAnotherTargetWarns: a target flag given for a target it does
// not act on is named in a warning; the command still runs.
func TestFlagForAnotherTargetWarns(t *testing.T) {
	status, out, errs := lowentc("run", "--target", "vm", "--no-int", "--opt", "size",
		filepath.Join(stdlibDir, "sha256.lw"), "sha256", "msg=")
	require.Equal(t, exitOK, status, errs)
	assert.Contains(t, out, "out=e3b0c442")
	assert.Contains(t, errs, "warning: --no-int has no effect on target vm (it applies to jcvm)")
	assert.Contains(t, errs, "warning: --opt has no effect on target vm (it applies to mos6502)")
	_, _, errs = lowentc("run", "--target", "ir", "--width", "16", "--hw", "sha",
		filepath.Join(stdlibDir, "sha256.lw"), "sha256", "msg=")
	assert.NotContains(t, errs, "warning")
}

func TestRunReturnValueAndStats(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "ret.lw")
	require.NoError(t, os.WriteFile(src, []byte(`module ret
export fn add(a: u32, b: u32, acc: mut [2]u16) -> u32 effects none {
    acc[1] = 7
    return a + b
}
export fn two(x: u64) -> (u64, bool) effects none { return x >>> 1, x == 0 }
`), 0o644))
	status, out, errs := lowentc("run", "--stats", src, "add", "a=4294967295", "b=0x2")
	require.Equal(t, exitOK, status, errs)
	assert.Equal(t, "acc=0x0000,0x0007\nret=1\n", out)
	assert.Contains(t, errs, "ns=")
	status, out, _ = lowentc("run", src, "two", "x=0")
	require.Equal(t, exitOK, status)
	assert.Equal(t, "ret0=0\nret1=true\n", out)
}

func TestUsageErrorsAreOneLineExit2(t *testing.T) {
	sha := filepath.Join(stdlibDir, "sha256.lw")
	cases := [][]string{
		{"--bogus", sha},
		{"run", sha},
		{"run", sha, "sha256", "msg=zz"},
		{"run", sha, "sha256", "nope=00"},
		{"run", sha, "sha256"},
		{"--target", "z80", sha},
		{"--width", "12", "--target", "ir", sha},
		{"bench", sha, "sha256", "--size", "64", "--block", "64"},
		{"check"},
		{"--opt", "fast", sha},
	}
	for _, c := range cases {
		assertUsageError(t, c...)
	}
}

func TestCheckReportsEveryErrorWithPosition(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "bad.lw")
	require.NoError(t, os.WriteFile(src, []byte("module bad\nfn f() -> u32 { return true }\nfn g(x: u8) { let y: u8 = x + 1000 }\n"), 0o644))
	status, _, errs := lowentc("check", src)
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errs, src+":2:")
	assert.Contains(t, errs, src+":3:")
	assert.Contains(t, errs, "^")
}

func TestEffectPathIsNamed(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "eff.lw")
	body := `module eff
fn raw(t: [4]u8, i: u8) -> u8 { return unchecked_get(t, i) }
export fn e(t: [4]u8) -> u8 effects none { return raw(t, 9) }
`
	require.NoError(t, os.WriteFile(src, []byte(body), 0o644))
	status, _, errs := lowentc("check", src)
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errs, "unsafe")
	assert.Contains(t, errs, "note:")
	assert.Contains(t, errs, "unchecked_get")

	absorbed := strings.Replace(body, "return unchecked_get(t, i)", `absorb unsafe because "i < 4 by the caller's contract" { return unchecked_get(t, i & 3) }
    return 0`, 1)
	require.NoError(t, os.WriteFile(src, []byte(absorbed), 0o644))
	status, _, errs = lowentc("check", src)
	assert.Equal(t, exitOK, status, errs)
}

func TestTrapExitsWithPosition(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "trap.lw")
	require.NoError(t, os.WriteFile(src, []byte("module trap\nexport fn d(a: u32, b: u32) -> u32 effects trap { return a / b }\n"), 0o644))
	status, out, errs := lowentc("run", src, "d", "a=1", "b=0")
	assert.Equal(t, exitFail, status)
	assert.Empty(t, out)
	assert.Contains(t, errs, src+":2:")
	assert.Contains(t, errs, "trap")
}

func TestOutputWrittenWholeOrNotAtAll(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "sha.ir")
	status, _, errs := lowentc("--target", "ir", "--width", "16", "--emit", "ir", "-o", out, filepath.Join(stdlibDir, "sha256.lw"))
	require.Equal(t, exitOK, status, errs)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Contains(t, string(data), "w=16")

	bad := filepath.Join(dir, "bad.lw")
	require.NoError(t, os.WriteFile(bad, []byte("module bad\nfn f( {"), 0o644))
	out2 := filepath.Join(dir, "never.ir")
	status, _, _ = lowentc("--target", "ir", "--emit", "ir", "-o", out2, bad)
	assert.Equal(t, exitFail, status)
	_, err = os.Stat(out2)
	assert.True(t, os.IsNotExist(err), "no partial output file")
	assert.Equal(t, []string{"bad.lw", "sha.ir"}, dirNames(t, dir), "no temporary file left")
}

func TestBenchPrintsContractLines(t *testing.T) {
	status, out, errs := lowentc("bench", filepath.Join(stdlibDir, "ghash.lw"), "ghash", "--size", "256")
	require.Equal(t, exitOK, status, errs)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	assert.True(t, strings.HasPrefix(lines[len(lines)-1], "mb_per_s="), out)

	status, out, errs = lowentc("bench", filepath.Join(stdlibDir, "blake2b.lw"), "blake2b_keyed", "--block", "128")
	require.Equal(t, exitOK, status, errs)
	lines = strings.Split(strings.TrimSpace(out), "\n")
	assert.Regexp(t, `^per_block=\S+ ns intercept=\S+ ns$`, lines[len(lines)-1])
}

func TestHelpAndDumpHelp(t *testing.T) {
	status, out, _ := lowentc("--help")
	assert.Equal(t, exitOK, status)
	for _, s := range []string{"run", "bench", "check", "--target", "--hw", "--emit", "-o", "dump=PASS"} {
		assert.Contains(t, out, s)
	}
	status, out, _ = lowentc("-d", "help")
	assert.Equal(t, exitOK, status)
	assert.Contains(t, out, "legalize")
}

func TestMissingBackendSaysSoInOneLine(t *testing.T) {
	// A target not registered yet answers in one line; a registered one compiles.
	for _, name := range []string{"amd64", "arm64", "jcvm", "mos6502"} {
		if _, ok := lookupTarget(name); ok {
			continue
		}
		status, _, errs := lowentc("--target", name, filepath.Join(stdlibDir, "sha256.lw"))
		assert.Equal(t, exitFail, status)
		assert.Equal(t, 1, strings.Count(errs, "\n"))
		assert.Contains(t, errs, "not implemented yet")
	}
}

// TestFaultAndTrapSameOnEveryTarget: a broken requires is one line,
// FILE:LINE:COL: fault: ENTRY: requires COND does not hold, with the
// condition as written (several lines and a comment become one line), and
// a trap is FILE:LINE:COL: trap: MESSAGE, the same on every target.
func TestFaultAndTrapSameOnEveryTarget(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "f.lw")
	require.NoError(t, os.WriteFile(src, []byte(`module f
export fn cp(dst: mut []u8, src: []u8, n: u32) -> u32
    requires len(dst) == len(src),
             (n <   // a bound
              10)
    effects trap
{
    for i in 0..len(dst) {
        dst[i] = src[i]
    }
    return 100 / n
}
`), 0o644))
	gcm := filepath.Join(stdlibDir, "gcm.lw")
	// The line of aes128_gcm_seal's requires clause in the stdlib source.
	gcmSrc, err := os.ReadFile(gcm)
	require.NoError(t, err)
	sealAt := strings.Index(string(gcmSrc), "export fn aes128_gcm_seal(")
	require.GreaterOrEqual(t, sealAt, 0)
	reqAt := sealAt + strings.Index(string(gcmSrc[sealAt:]), "requires len(ct) == len(pt)")
	reqLine := strings.Count(string(gcmSrc[:reqAt]), "\n") + 1
	cases := []struct {
		args []string
		want string
	}{
		{[]string{gcm, "aes128_gcm_seal", "key=" + strings.Repeat("00", 16), "nonce=" + strings.Repeat("00", 12), "aad=", "pt=010203", "ct=zero:2"},
			fmt.Sprintf("%s:%d:14: fault: aes128_gcm_seal: requires len(ct) == len(pt) does not hold", gcm, reqLine)},
		{[]string{src, "cp", "dst=0102", "src=03", "n=1"}, src + ":3:14: fault: cp: requires len(dst) == len(src) does not hold"},
		{[]string{src, "cp", "dst=01", "src=03", "n=10"}, src + ":4:14: fault: cp: requires (n < 10) does not hold"},
		{[]string{src, "cp", "dst=01", "src=03", "n=0"}, src + ":11:16: trap: division by zero"},
	}
	for _, target := range []string{"vm", "ir", "amd64", "arm64", "jcvm", "mos6502"} {
		for _, c := range cases {
			status, out, errs := lowentc(append([]string{"run", "--target", target}, c.args...)...)
			assert.Equal(t, exitFail, status, target)
			assert.Empty(t, out, target)
			assert.Equal(t, c.want+"\n", errs, "%s %v", target, c.args[1:])
		}
	}
}
