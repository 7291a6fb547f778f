package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// twoFuncs is a small program of two functions, both kept by every
// target's inlining policy (they are exports).
const twoFuncs = `module two
export fn first(x: u32) -> u32 effects none { return (x <<< 5) ^ 0x1234 }
export fn second(a: mut [4]u8, k: u8) effects none {
    for i in 0..4 { a[i] ^= k }
}
`

// backendConfigs are the targets and modes the middle end serves, with
// the limb width of the IR each consumes.
var backendConfigs = []struct {
	name  string
	flags []string
	width int
}{
	{"amd64", []string{"--target", "amd64"}, 64},
	{"jcvm", []string{"--target", "jcvm"}, 32},
	{"jcvm-noint", []string{"--target", "jcvm", "--no-int"}, 16},
	{"mos6502-speed", []string{"--target", "mos6502", "--opt", "speed"}, 8},
	{"mos6502-size", []string{"--target", "mos6502", "--opt", "size"}, 0},
}

// TestDumpOncePerFunction: -d dump=PASS prints each function exactly once
// for every target, whatever the pass, however many plans the backend
// tried (mos6502 searches configurations, jcvm splits again) and however
// often the pipeline runs the pass.
func TestDumpOncePerFunction(t *testing.T) {
	src := writeSrc(t, t.TempDir(), "two.lw", twoFuncs)
	for _, c := range backendConfigs {
		for _, pass := range []string{"lower", "fold", "dce"} {
			args := append(append([]string{"-o", "/dev/null", "-d", "dump=" + pass}, c.flags...), src)
			status, _, errs := lowentc(args...)
			require.Equal(t, exitOK, status, "%s: %s", c.name, errs)
			assert.Equal(t, 1, strings.Count(errs, "# after "+pass), "%s dump=%s:\n%s", c.name, pass, errs)
			assert.Equal(t, 1, strings.Count(errs, "# after "), "%s dump=%s:\n%s", c.name, pass, errs)
			for _, fn := range []string{"func first(", "func second("} {
				assert.Equal(t, 1, strings.Count(errs, fn), "%s dump=%s: %s", c.name, pass, fn)
			}
		}
	}
}

// TestEmitIRIsTheModuleUsed: --emit ir, on every target, prints the
// module the backend generated its artifact from: the pipeline's last
// dump of the same compile, at the target's limb width.
func TestEmitIRIsTheModuleUsed(t *testing.T) {
	src := writeSrc(t, t.TempDir(), "two.lw", twoFuncs)
	for _, c := range backendConfigs {
		status, out, errs := lowentc(append(append([]string{"--emit", "ir", "-d", "dump=dce"}, c.flags...), src)...)
		require.Equal(t, exitOK, status, "%s: %s", c.name, errs)
		if c.width > 0 {
			assert.True(t, strings.HasPrefix(out, fmt.Sprintf("module two w=%d\n", c.width)), "%s: %.40q", c.name, out)
		}
		assert.Contains(t, out, "func first(", c.name)
		assert.Contains(t, out, "func second(", c.name)
		_, dump, ok := strings.Cut(errs, "\n")
		require.True(t, ok, "%s: no dump:\n%s", c.name, errs)
		assert.Equal(t, dump, out, "%s: --emit ir is not the module the pipeline ended with", c.name)
	}
}
