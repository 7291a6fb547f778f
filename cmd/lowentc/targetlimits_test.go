package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestBenchBlockRefusedUpFront: bench --block times up to 32 blocks; when
// the largest run does not fit the target (a Java Card array argument, the
// 6502's memory), the whole bench is refused before anything is timed or
// printed, and the error says which --block asked for it.
func TestBenchBlockRefusedUpFront(t *testing.T) {
	src := writeSrc(t, t.TempDir(), "sink.lw", "module sink\nexport fn f(a: []u8) -> u8 effects none { return 1 }\n")
	for _, c := range []struct{ target, block, want string }{
		{"jcvm", "1024", "a has 32,768 bytes"},
		{"mos6502", "2048", "arguments do not fit in memory"},
	} {
		status, out, errs := lowentc("bench", "--target", c.target, src, "f", "--block", c.block)
		assert.Equal(t, exitFail, status, c.target)
		assert.Empty(t, out, "%s: lines printed before the refusal", c.target)
		assert.Equal(t, 1, strings.Count(errs, "\n"), "%s: %q", c.target, errs)
		assert.Contains(t, errs, "lowentc: bench --block "+c.block+" times up to 32 blocks", c.target)
		assert.Contains(t, errs, c.want, c.target)
	}
}
