package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const traceSrc = `module t
fn helper(x: u32) -> u32 {
    trace(x)
    return x + 1
}
fn unused(x: u32) {
    trace(x)
}
export fn f(x: u32) -> u32 effects io {
    trace(x, x + 1)
    let y = helper(x)
    return helper(y)
}
`

// TestTraceDroppedWarns: compiling or running trace for a target other
// than the VM warns once per trace call the compiled code contains (the
// helper called twice, not the function nobody calls), on stderr, and
// the command still succeeds. The VM prints the traces and warns of
// nothing.
func TestTraceDroppedWarns(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "t.lw")
	require.NoError(t, os.WriteFile(file, []byte(traceSrc), 0o644))
	want := func(target string) string {
		return file + ":3:5: warning: trace is dropped on target " + target + "\n" +
			file + ":10:5: warning: trace is dropped on target " + target + "\n"
	}
	for _, target := range []string{"amd64", "arm64", "jcvm", "mos6502"} {
		status, _, errs := lowentc("--target", target, "-o", filepath.Join(dir, "out."+target), file)
		require.Equal(t, exitOK, status, errs)
		assert.Equal(t, want(target), errs, "compile --target %s", target)
	}
	for _, target := range []string{"ir", "jcvm", "mos6502"} {
		status, out, errs := lowentc("run", "--target", target, file, "f", "x=1")
		require.Equal(t, exitOK, status, errs)
		assert.Equal(t, "ret=3\n", out)
		assert.Equal(t, want(target), errs, "run --target %s", target)
	}
	status, _, errs := lowentc("run", file, "f", "x=1")
	require.Equal(t, exitOK, status, errs)
	assert.False(t, strings.Contains(errs, "warning"), errs)
}
