package main

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lowent/lowentc/driver"
)

const okSrc = "module ok\nexport fn f(x: u8) -> u8 effects none { return x }\n"

func writeSrc(t *testing.T, dir, name, src string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
	return p
}

// TestBadFlagValuesAreUsageErrors: every bad flag value, whichever part of
// lowentc reads it, is a usage error (exit 2, one line).
func TestBadFlagValuesAreUsageErrors(t *testing.T) {
	src := writeSrc(t, t.TempDir(), "ok.lw", okSrc)
	cases := [][]string{
		{"run", "--hw", "bogus", src, "f", "x=1"},
		{"run", "--target", "ir", "--hw", "bogus", src, "f", "x=1"},
		{"--target", "amd64", "--hw", "bogus", src},
		{"run", "--target", "amd64", "--hw", "bogus", src, "f", "x=1"},
		{"--target", "arm64", "--hw", "bogus", src},
		{"run", "--target", "arm64", "--hw", "aes", src, "f", "x=1"},
		{"--target", "jcvm", "--card", "nosuch", src},
		{"run", "--target", "jcvm", "--card", "nosuch", src, "f", "x=1"},
		{"--target", "jcvm", "--storage", "nosuch", src},
		{"run", "--card", "nosuch", src, "f", "x=1"},
		{"run", "--storage", "nosuch", src, "f", "x=1"},
		{"--target", "mos6502", "--opt", "fast", src},
		{"--target", "ir", "--width", "7", src},
		{"--target", "nosuch", src},
		{"-d", "dump=nosuch", src},
		{"--target", "ir", "--emit", "nosuch", src},
		{"bench", "--size", "0", src, "f"},
		{"bench", "--size", "-1", src, "f"},
		{"bench", "--size", "many", src, "f"},
		{"bench", "--size", "99999999999", src, "f"},
		{"bench", "--block", "0", src, "f"},
		{"bench", "--block", "-16", src, "f"},
		{"bench", "--block", "x", src, "f"},
		{"bench", "--block", "16", "--size", "16", src, "f"},
	}
	for _, c := range cases {
		assertUsageError(t, c...)
	}
	// A bad choice lists the good ones in words, not as a Go slice.
	assert.Contains(t, assertUsageError(t, "--target", "jcvm", "--card", "nosuch", src), "(cards: jcop3, jcop31, jcop4, jcop41)")
}

// TestFileErrorsNameTheFile: a file that cannot be a source is named in a
// `lowentc: FILE: ...` line; an endless device stops at the size limit.
func TestFileErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.lw")
	big := filepath.Join(dir, "big.lw")
	f, err := os.Create(big)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(driver.MaxSourceSize+1))
	require.NoError(t, f.Close())
	cases := map[string]string{
		missing:     "lowentc: " + missing + ": no such file or directory\n",
		dir:         "lowentc: " + dir + ": is a directory",
		big:         "lowentc: " + big + ": larger than 4194304 bytes",
		"/dev/zero": "lowentc: /dev/zero: larger than 4194304 bytes",
	}
	for path, want := range cases {
		for _, cmd := range [][]string{{"check", path}, {path}, {"run", path, "f"}} {
			status, _, errs := lowentc(cmd...)
			assert.Equal(t, exitFail, status, cmd)
			assert.True(t, strings.HasPrefix(errs, want), "%v: %q", cmd, errs)
		}
	}
}

// TestZeroArgumentBound: zero:N has an upper bound, answered as a usage error.
func TestZeroArgumentBound(t *testing.T) {
	src := writeSrc(t, t.TempDir(), "z.lw", "module z\nexport fn n(x: []u64) -> u64 effects none { return len(x) as u64 }\n")
	status, out, errs := lowentc("run", src, "n", "x=zero:16777216")
	require.Equal(t, exitOK, status, errs)
	assert.Equal(t, "ret=16777216\n", out)
	for _, n := range []string{"16777217", "4294967296", "99999999999999999999999"} {
		status, _, errs = lowentc("run", src, "n", "x=zero:"+n)
		assert.Equal(t, exitUsage, status, errs)
		assert.Contains(t, errs, "zero:"+n)
	}
}

// TestBenchFixedInputs: NAME=VALUE arguments of bench fix inputs. A bench of
// aes128_gcm_open with the right tag runs the accept path: the checking call
// takes as many VM steps as `run` of the same arguments (which answers
// ret=true), and more than with a wrong tag.
func TestBenchFixedInputs(t *testing.T) {
	key, _ := hex.DecodeString("000102030405060708090a0b0c0d0e0f")
	nonce, _ := hex.DecodeString("101112131415161718191a1b")
	pt := []byte(strings.Repeat("the accept path ", 16))
	blk, err := aes.NewCipher(key)
	require.NoError(t, err)
	g, err := cipher.NewGCM(blk)
	require.NoError(t, err)
	sealed := g.Seal(nil, nonce, pt, nil)
	ct, tag := sealed[:len(pt)], sealed[len(pt):]
	gcm := filepath.Join(stdlibDir, "gcm.lw")
	args := []string{"key=" + hex.EncodeToString(key), "nonce=" + hex.EncodeToString(nonce), "aad=", "ct=" + hex.EncodeToString(ct)}
	steps := func(errs string) string { return regexp.MustCompile(`steps=\d+`).FindString(errs) }

	status, out, errs := lowentc(append([]string{"run", "--stats", gcm, "aes128_gcm_open", "tag=" + hex.EncodeToString(tag)}, args...)...)
	require.Equal(t, exitOK, status, errs)
	require.Contains(t, out, "pt="+hex.EncodeToString(pt)+"\nret=true\n")
	runSteps := steps(errs)
	require.NotEmpty(t, runSteps)

	status, out, errs = lowentc(append([]string{"bench", "--stats", gcm, "aes128_gcm_open", "tag=" + hex.EncodeToString(tag)}, args...)...)
	require.Equal(t, exitOK, status, errs)
	assert.Contains(t, out, "bytes=256 ")
	assert.Regexp(t, `mb_per_s=\S+\n$`, out)
	assert.Equal(t, runSteps, steps(errs), "bench ran another path than run")

	wrong := append([]byte{}, tag...)
	wrong[0] ^= 1
	status, _, errs = lowentc(append([]string{"bench", "--stats", gcm, "aes128_gcm_open", "tag=" + hex.EncodeToString(wrong)}, args...)...)
	require.Equal(t, exitOK, status, errs)
	assert.NotEqual(t, runSteps, steps(errs), "the wrong tag took the accept path")

	// The data input given fixes the size; --size with it is a usage error,
	// and so is a name the export does not have.
	status, _, errs = lowentc(append([]string{"bench", "--size", "64", gcm, "aes128_gcm_open"}, args...)...)
	assert.Equal(t, exitUsage, status, errs)
	status, _, errs = lowentc("bench", gcm, "aes128_gcm_open", "nosuch=00")
	assert.Equal(t, exitUsage, status, errs)
	// A fixed input other than the data: the data stays generated.
	status, out, errs = lowentc("bench", "--size", "64", gcm, "aes128_gcm_open", "tag="+hex.EncodeToString(tag))
	require.Equal(t, exitOK, status, errs)
	assert.Contains(t, out, "bytes=64 ")
}

// TestOutputFileKinds: -o replaces a regular file atomically with the
// umask's mode (an existing file keeps its mode), follows a symbolic link to
// replace its target, writes a device directly, and refuses a directory.
func TestOutputFileKinds(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	src := filepath.Join(stdlibDir, "sha256.lw")
	emit := func(out string) (int, string) {
		status, _, errs := lowentc("--target", "ir", "--emit", "ir", "-o", out, src)
		return status, errs
	}
	mode := func(p string) fs.FileMode {
		st, err := os.Lstat(p)
		require.NoError(t, err)
		return st.Mode()
	}

	fresh := filepath.Join(dir, "fresh.ir")
	status, errs := emit(fresh)
	require.Equal(t, exitOK, status, errs)
	assert.Equal(t, fs.FileMode(0o644), mode(fresh))

	existing := writeSrc(t, dir, "existing.ir", "old")
	require.NoError(t, os.Chmod(existing, 0o640))
	status, errs = emit(existing)
	require.Equal(t, exitOK, status, errs)
	assert.Equal(t, fs.FileMode(0o640), mode(existing))
	data, _ := os.ReadFile(existing)
	assert.True(t, strings.HasPrefix(string(data), "module sha256 "), "artifact written")

	target := writeSrc(t, dir, "target.ir", "old")
	link := filepath.Join(dir, "link.ir")
	require.NoError(t, os.Symlink("target.ir", link))
	status, errs = emit(link)
	require.Equal(t, exitOK, status, errs)
	assert.Equal(t, fs.ModeSymlink, mode(link)&fs.ModeSymlink, "the link is still a link")
	data, _ = os.ReadFile(target)
	assert.True(t, strings.HasPrefix(string(data), "module sha256 "), "artifact written")

	dangling := filepath.Join(dir, "dangling.ir")
	require.NoError(t, os.Symlink("created.ir", dangling))
	status, errs = emit(dangling)
	require.Equal(t, exitOK, status, errs)
	assert.Equal(t, fs.ModeSymlink, mode(dangling)&fs.ModeSymlink)
	assert.True(t, mode(filepath.Join(dir, "created.ir")).IsRegular())

	status, errs = emit(dir)
	assert.Equal(t, exitFail, status)
	assert.Equal(t, "lowentc: "+dir+": is a directory\n", errs)

	status, errs = emit("/dev/null")
	require.Equal(t, exitOK, status, errs)
	assert.NotZero(t, mode("/dev/null")&fs.ModeCharDevice, "/dev/null is still a character device")

	status, errs = emit(filepath.Join(dir, "nodir", "x.ir"))
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errs, "nodir/x.ir: no such file or directory")

	assert.ElementsMatch(t, []string{"fresh.ir", "existing.ir", "target.ir", "link.ir", "dangling.ir", "created.ir"}, dirNames(t, dir), "no temporary files left")
}
