package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJCVMPrintsBand checks that a modeled jcvm figure comes with its band:
// bench --block ends with the per-block band, run --stats adds
// modeled_ms_lo and modeled_ms_hi around modeled_ms.
func TestJCVMPrintsBand(t *testing.T) {
	status, out, errs := lowentc("bench", "--target", "jcvm", filepath.Join(stdlibDir, "sha256.lw"), "sha256", "--block", "64")
	require.Equal(t, exitOK, status, errs)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	m := regexp.MustCompile(`^per_block=(\S+) ms intercept=\S+ ms per_block_lo=(\S+) ms per_block_hi=(\S+) ms \(\S+–\S+ ms\)$`).FindStringSubmatch(lines[len(lines)-1])
	require.NotNil(t, m, out)
	x, lo, hi := num(t, m[1]), num(t, m[2]), num(t, m[3])
	assert.True(t, lo < x && x < hi, "band %g–%g does not contain %g", lo, hi, x)

	status, _, errs = lowentc("run", "--target", "jcvm", "--stats", filepath.Join(stdlibDir, "sha256.lw"), "sha256", "msg=616263")
	require.Equal(t, exitOK, status, errs)
	stats := map[string]float64{}
	for _, l := range strings.Split(strings.TrimSpace(errs), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				stats[k] = f
			}
		}
	}
	require.Contains(t, stats, "modeled_ms_lo", errs)
	require.Contains(t, stats, "modeled_ms_hi", errs)
	assert.True(t, stats["modeled_ms_lo"] < stats["modeled_ms"] && stats["modeled_ms"] < stats["modeled_ms_hi"], errs)
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err)
	return f
}
