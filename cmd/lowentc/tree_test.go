package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// treeFiles lists the files under dir, relative and slash-separated.
func treeFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	require.NoError(t, err)
	return files
}

// TestEmitJavaCardTree: --emit javacard -o DIR writes the tree (library
// and applet sources, build.xml, the marker); --aid sets both AIDs; a
// second run replaces a tree lowentc wrote, whole; a directory that is
// not empty and not such a tree is refused and left alone; a failure
// (a module over the card's limits) leaves no directory nor temporary
// file; without -o it is a usage error.
func TestEmitJavaCardTree(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "m.lw")
	require.NoError(t, os.WriteFile(src, []byte("module m\nexport fn f(x: []u8, out: mut [4]u8) effects none { out[0] = 7 }\n"), 0o644))
	out := filepath.Join(dir, "tree")

	status, stdout, errs := lowentc("--target", "jcvm", "--emit", "javacard", "-o", out, src)
	require.Equal(t, exitOK, status, errs)
	assert.Empty(t, stdout)
	assert.Empty(t, errs)
	assert.ElementsMatch(t, []string{".lowentc-tree", "build.xml", "src/lowent/M.java", "src/lowent/MApplet.java"}, treeFiles(t, out))
	lib, err := os.ReadFile(filepath.Join(out, "src", "lowent", "M.java"))
	require.NoError(t, err)
	assert.Contains(t, string(lib), "\npublic final class M {")
	app, err := os.ReadFile(filepath.Join(out, "src", "lowent", "MApplet.java"))
	require.NoError(t, err)
	assert.Contains(t, string(app), "\npublic final class MApplet extends Applet {")
	xml, err := os.ReadFile(filepath.Join(out, "build.xml"))
	require.NoError(t, err)
	assert.Contains(t, string(xml), `aid="F04C574E544D"`) // F0 "LWNT" "M"
	assert.Contains(t, string(xml), `<applet class="lowent.MApplet" aid="F04C574E544D01"/>`)

	// Again, with --aid: the old tree (and a file added to it) is replaced.
	require.NoError(t, os.WriteFile(filepath.Join(out, "stale.txt"), []byte("x"), 0o644))
	status, _, errs = lowentc("--target", "jcvm", "--emit", "javacard", "--aid", "A000000062FF,A000000062FF01", "-o", out, src)
	require.Equal(t, exitOK, status, errs)
	assert.NotContains(t, treeFiles(t, out), "stale.txt")
	xml, err = os.ReadFile(filepath.Join(out, "build.xml"))
	require.NoError(t, err)
	assert.Contains(t, string(xml), `aid="A000000062FF"`)
	assert.Contains(t, string(xml), `aid="A000000062FF01"`)
	status, stdout, errs = lowentc("--target", "jcvm", "--emit", "jca", "--aid", "A000000062FF", src)
	require.Equal(t, exitOK, status, errs)
	assert.Contains(t, stdout, "\t.aid 0xA0:0x00:0x00:0x00:0x62:0xFF;\n")

	// A directory of other files is refused and left alone.
	other := filepath.Join(dir, "other")
	require.NoError(t, os.MkdirAll(other, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(other, "keep.txt"), []byte("mine"), 0o644))
	status, _, errs = lowentc("--target", "jcvm", "--emit", "javacard", "-o", other, src)
	assert.Equal(t, exitFail, status)
	assert.Equal(t, "lowentc: "+other+": the directory is not empty and is not a tree lowentc wrote (no .lowentc-tree): empty it or choose another\n", errs)
	assert.Equal(t, []string{"keep.txt"}, treeFiles(t, other))

	// An empty directory takes the tree.
	empty := filepath.Join(dir, "empty")
	require.NoError(t, os.MkdirAll(empty, 0o755))
	status, _, errs = lowentc("--target", "jcvm", "--emit", "javacard", "-o", empty, src)
	require.Equal(t, exitOK, status, errs)
	assert.Len(t, treeFiles(t, empty), 4)

	// A module over the card's limits: nothing is written.
	big := bigJcvmModule(t, t.TempDir())
	refused := filepath.Join(dir, "refused")
	status, _, errs = lowentc("--target", "jcvm", "--no-int", "--emit", "javacard", "-o", refused, big)
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errs, "lowentc: jcvm: the module does not fit card jcop4")
	_, err = os.Stat(refused)
	assert.True(t, os.IsNotExist(err), "%v", err)
	for _, name := range dirNames(t, dir) {
		assert.False(t, strings.HasPrefix(name, "."), "left behind: %s", name)
	}

	// Usage errors: no -o, a bad --aid, a kind the target lacks.
	for _, args := range [][]string{
		{"--target", "jcvm", "--emit", "javacard", src},
		{"--target", "jcvm", "--emit", "javacard", "--aid", "A0", "-o", out, src},
		{"--target", "jcvm", "--emit", "nosuch", src},
	} {
		assertUsageError(t, args...)
	}
	_, _, errs = lowentc("--target", "jcvm", "--emit", "nosuch", src)
	assert.Contains(t, errs, "target jcvm emits java, jca, cap, ir, javacard")
	_, _, errs = lowentc("--target", "jcvm", "--emit", "javacard", src)
	assert.Contains(t, errs, "--emit javacard writes a directory: give it with -o DIR")
	status, _, errs = lowentc("--target", "mos6502", "--aid", "A000000062", src)
	assert.Equal(t, exitOK, status, errs)
	assert.Contains(t, errs, "warning: --aid has no effect on target mos6502")
}

// TestEmitJavaCardTreeDot: -o . in a tree lowentc wrote replaces it (the
// new tree is built beside the directory, not inside it).
func TestEmitJavaCardTreeDot(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "m.lw")
	require.NoError(t, os.WriteFile(src, []byte("module m\nexport fn f(x: u16) -> u16 effects none { return x ^ 7 }\n"), 0o644))
	out := filepath.Join(dir, "tree")
	status, _, errs := lowentc("--target", "jcvm", "--emit", "javacard", "-o", out, src)
	require.Equal(t, exitOK, status, errs)
	t.Chdir(out)
	status, _, errs = lowentc("--target", "jcvm", "--emit", "javacard", "-o", ".", src)
	require.Equal(t, exitOK, status, errs)
	assert.ElementsMatch(t, []string{".lowentc-tree", "build.xml", "src/lowent/M.java", "src/lowent/MApplet.java"}, treeFiles(t, out))
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, ents, 2, "%v", ents)
}
