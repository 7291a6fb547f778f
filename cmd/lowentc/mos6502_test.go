package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// statValue is the value of key in --stats output.
func statValue(t *testing.T, stats, key string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + key + `=(\S+)$`).FindStringSubmatch(stats)
	require.NotNil(t, m, "no %s= in %q", key, stats)
	return m[1]
}

// TestMos6502Timing: run --stats says which timing model counted the
// cycles; under c64 the badlines add to the ideal count, under c64-blank
// (the screen off, as the --emit prg driver hashes) nothing does.
func TestMos6502Timing(t *testing.T) {
	sha := filepath.Join(stdlibDir, "sha256.lw")
	cycles := map[string]int{}
	for _, timing := range []string{"", "ideal", "c64", "c64-blank"} {
		args := []string{"run", "--target", "mos6502", "--stats", sha, "sha256", "msg=48656c6c6f20433634"}
		if timing != "" {
			args = append(args, "--timing", timing)
		}
		status, out, errs := lowentc(args...)
		require.Equal(t, exitOK, status, errs)
		assert.Contains(t, out, "out=7f1ab1f6")
		want := timing
		if want == "" {
			want = "ideal"
		}
		assert.Equal(t, want, statValue(t, errs, "timing"))
		n, err := strconv.Atoi(statValue(t, errs, "cycles"))
		require.NoError(t, err)
		cycles[timing] = n
		if strings.HasPrefix(timing, "c64") {
			stolen, _ := strconv.Atoi(statValue(t, errs, "stolen"))
			badlines, _ := strconv.Atoi(statValue(t, errs, "badlines"))
			assert.Equal(t, cycles["ideal"]+stolen, n, timing)
			assert.True(t, stolen >= 40*badlines && stolen <= 43*badlines, "%d badlines, %d cycles", badlines, stolen)
			assert.Equal(t, timing == "c64", badlines > 0, "%s: %d badlines", timing, badlines)
		}
	}
	assert.Equal(t, cycles[""], cycles["ideal"])
	assert.Greater(t, cycles["c64"], cycles["ideal"])
}

// TestMos6502MaxCycles: --max-cycles caps a call with an error that says
// so; bad values of it and of --timing are usage errors; given for
// another target they are warned about.
func TestMos6502MaxCycles(t *testing.T) {
	sha := filepath.Join(stdlibDir, "sha256.lw")
	status, _, errs := lowentc("run", "--target", "mos6502", "--max-cycles", "1000", sha, "sha256", "msg=")
	assert.Equal(t, exitFail, status)
	assert.Equal(t, "lowentc: mos6502: the call did not finish within 1000 cycles (--max-cycles)\n", errs)
	for _, bad := range [][]string{{"--max-cycles", "0"}, {"--max-cycles", "-5"}, {"--max-cycles", "many"},
		{"--max-cycles", "99999999999999999999999"}, {"--timing", "pal"}, {"--timing", ""}} {
		for _, cmd := range []string{"run", "bench"} {
			assertUsageError(t, append(append([]string{cmd, "--target", "mos6502"}, bad...), sha, "sha256")...)
		}
	}
	status, _, errs = lowentc("--target", "mos6502", "--timing", "c64", sha)
	assert.Equal(t, exitUsage, status, "compiling takes no --timing: %s", errs)
	status, _, errs = lowentc("run", "--timing", "c64", "--max-cycles", "5", sha, "sha256", "msg=")
	assert.Equal(t, exitOK, status, errs)
	assert.Contains(t, errs, "warning: --timing has no effect on target vm (it applies to mos6502)")
	assert.Contains(t, errs, "warning: --max-cycles has no effect on target vm (it applies to mos6502)")
}

// TestMos6502BenchBlocksFitCap: bench --block times only the block counts
// whose calls finish within the cycle cap, says which, and fits its line
// through them; when not even two counts fit it says the cap stopped it.
func TestMos6502BenchBlocksFitCap(t *testing.T) {
	sha := filepath.Join(stdlibDir, "sha256.lw")
	status, out, errs := lowentc("bench", "--target", "mos6502", "--max-cycles", "500000", sha, "sha256", "--block", "64")
	require.Equal(t, exitOK, status, errs)
	assert.Contains(t, out, "blocks=8 bytes=512 ")
	assert.NotContains(t, out, "blocks=16")
	assert.Contains(t, out, "blocks_used=1,2,4,8 cap=500000 cycles (16 blocks would pass the cap)\n")
	// SHA-256's cost is linear in its blocks, so the fitted slope is the
	// difference of the printed costs of 8 and 1 blocks over 7.
	cost := func(n int) int {
		m := regexp.MustCompile(fmt.Sprintf(`(?m)^blocks=%d bytes=\d+ cost=(\d+) cycles$`, n)).FindStringSubmatch(out)
		require.NotNil(t, m, "no cost of %d blocks in %s", n, out)
		v, err := strconv.Atoi(m[1])
		require.NoError(t, err)
		return v
	}
	slope := (cost(8) - cost(1)) / 7
	assert.Regexp(t, fmt.Sprintf(`(?m)^per_block=%d cycles intercept=\S+ cycles$`, slope), out)
	// A cap between the costs of 1 and 2 blocks: one count is no line.
	capped := strconv.Itoa((cost(1) + cost(2)) / 2)
	status, out, errs = lowentc("bench", "--target", "mos6502", "--max-cycles", capped, sha, "sha256", "--block", "64")
	assert.Equal(t, exitFail, status, out)
	assert.Equal(t, "lowentc: mos6502: the call did not finish within "+capped+" cycles (--max-cycles)\n", errs)
}

// TestMos6502Entry: --entry chooses the export --emit prg calls; a name
// that is no export of the shape NAME(msg: []u8, out: mut [N]u8), an
// empty one, and a module with none or several such exports and no
// --entry are usage errors listing the exports of that shape.
func TestMos6502Entry(t *testing.T) {
	dir := t.TempDir()
	b2 := filepath.Join(stdlibDir, "blake2b.lw")
	out := filepath.Join(dir, "b.prg")
	status, _, errs := lowentc("--target", "mos6502", "--emit", "prg", "--entry", "blake2b", b2, "-o", out)
	require.Equal(t, exitOK, status, errs)
	status, _, errs = lowentc("--target", "mos6502", "--emit", "prg", "--entry", "blake2b_keyed", b2, "-o", out)
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errs, "exports of that shape: blake2b")
	status, _, errs = lowentc("--target", "mos6502", "--emit", "prg", "--entry=", b2, "-o", out)
	assert.Equal(t, exitUsage, status, errs)
	status, _, errs = lowentc("--target", "mos6502", "--emit", "prg", filepath.Join(stdlibDir, "aes.lw"), "-o", out)
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errs, "has none")
	two := filepath.Join(dir, "two.lw")
	require.NoError(t, os.WriteFile(two, []byte("module two\n\nexport fn a(msg: []u8, out: mut [2]u8) effects none {\n\tout[0] = 1\n}\n\nexport fn b(msg: []u8, out: mut [3]u8) effects none {\n\tout[1] = 2\n}\n"), 0o644))
	status, _, errs = lowentc("--target", "mos6502", "--emit", "prg", two, "-o", out)
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errs, "--entry NAME (exports of that shape: a, b)")
	status, _, errs = lowentc("--target", "mos6502", "--emit", "prg", "--entry", "b", two, "-o", out)
	assert.Equal(t, exitOK, status, errs)
	status, _, errs = lowentc("--help")
	assert.Equal(t, exitOK, status, errs)
}
