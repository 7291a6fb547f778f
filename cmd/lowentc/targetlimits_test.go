package main

import (
	"path/filepath"
	"strconv"
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

// TestTargetLimitErrorsArePositioned: a target's limit found at a
// declaration is reported like any compile error, FILE:LINE:COL first
// (docs/language.md, docs/jcvm.md), with the source line and a caret, not
// behind the program's name.
func TestTargetLimitErrorsArePositioned(t *testing.T) {
	dir := t.TempDir()
	ram := writeSrc(t, dir, "ram.lw", "module ram\nexport fn f(i: u32) -> u8 effects trap {\n    var a: [4097]u8\n    return a[i]\n}\n")
	deep := writeSrc(t, dir, "deep.lw", `module deep
fn g(x: u64) -> u64 {
    var b: [256][65536]u64
    b[1] = b[2]
    return b[1][2] + x
}
export fn f(x: u64) -> u64 effects none {
    var a: [256][65536]u64
    var c: [1]u64
    a[1][2] = g(x) + c[0]
    return a[1][2]
}
`)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--target", "jcvm", ram}, ram + ":3:5: jcvm: local array a takes 4,097 bytes of transient RAM"},
		{[]string{"--target", "jcvm", "--no-int", "-o", filepath.Join(dir, "out.java"), ram}, ram + ":3:5: jcvm: local array a takes 4,097 bytes"},
		{[]string{"run", "--target", "jcvm", ram, "f", "i=1"}, ram + ":3:5: jcvm: local array a takes 4,097 bytes"},
		{[]string{"run", deep, "f", "x=1"}, deep + ":3:5: vm: a call of f needs 33,554,433 words of local arrays"},
		{[]string{"bench", "--target", "mos6502", deep, "f", "--size", "1"}, deep + ":3:5: mos6502: a call of f needs"},
	} {
		status, out, errs := lowentc(c.args...)
		assert.Equal(t, exitFail, status, "%v", c.args)
		assert.Empty(t, out, "%v", c.args)
		assert.True(t, strings.HasPrefix(errs, c.want), "%v:\n%s", c.args, errs)
		assert.Contains(t, errs, "\n        var ", "%v: the source line", c.args)
		assert.NoFileExists(t, filepath.Join(dir, "out.java"))
	}
}

// TestEmitIREveryTarget: `--emit ir` is available for every target, as
// --help and docs/cli.md say: the IR after the pipeline, legalized to the
// width the target's code is generated from.
func TestEmitIREveryTarget(t *testing.T) {
	src := writeSrc(t, t.TempDir(), "mix.lw", "module mix\nexport fn f(x: u32, v: mut [4]u32) effects none {\n    v[1] = x <<< 7\n}\n")
	for _, c := range []struct {
		args []string
		w    string
	}{
		{[]string{"--target", "ir"}, "64"},
		{[]string{"--target", "ir", "--width", "16"}, "16"},
		{[]string{"--target", "amd64"}, "64"},
		{[]string{"--target", "arm64"}, "64"},
		{[]string{"--target", "jcvm"}, "32"},
		{[]string{"--target", "jcvm", "--no-int"}, "16"},
		{[]string{"--target", "mos6502"}, "8"},
	} {
		status, out, errs := lowentc(append(c.args, "--emit", "ir", src)...)
		assert.Equal(t, exitOK, status, "%v: %s", c.args, errs)
		assert.True(t, strings.HasPrefix(out, "module mix w="+c.w+"\n"), "%v: %.80q", c.args, out)
		assert.Contains(t, out, "func f(", c.args)
	}
}

// TestMos6502ArgumentsTooLarge: an argument past the 6502's memory is
// refused by name, with the room there is.
func TestMos6502ArgumentsTooLarge(t *testing.T) {
	status, out, errs := lowentc("run", "--target", "mos6502", filepath.Join(stdlibDir, "sha256.lw"), "sha256", "msg=zero:40000")
	assert.Equal(t, exitFail, status)
	assert.Empty(t, out)
	assert.Regexp(t, `^lowentc: mos6502: arguments do not fit in memory: msg needs 40,000 bytes at \$[0-9A-F]{4}, and the arguments end at \$FEFF \([0-9,]+ bytes left after the program\)\n$`, errs)
}

// TestMos6502TooManyChecks: more run-time checks than a one-byte trap
// number counts is reported at the first check past the limit.
func TestMos6502TooManyChecks(t *testing.T) {
	var conds []string
	for i := 0; i < 300; i++ {
		conds = append(conds, "x != "+strconv.Itoa(i))
	}
	src := writeSrc(t, t.TempDir(), "many.lw", "module many\nexport fn f(x: u32) -> u32\n    requires "+strings.Join(conds, ",\n        ")+"\n    effects none\n{\n    return x\n}\n")
	status, out, errs := lowentc("run", "--target", "mos6502", src, "f", "x=1000")
	assert.Equal(t, exitFail, status)
	assert.Empty(t, out)
	assert.True(t, strings.HasPrefix(errs, src+":258:11: mos6502: 300 run-time checks, more than 255 (a trap number is one byte); this is the 256th\n"), errs)
}
