package driver

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lowent/lowentc/stdlib"
)

func write(t *testing.T, dir, name, src string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
	return p
}

func TestLoadImports(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "helper.lw", "module helper\nfn twice(x: u32) -> u32 { return x + x }\n")
	root := write(t, dir, "main.lw", "module main\nimport helper\nimport crypto_hw\nexport fn f(x: u32) -> u32 effects none { return helper.twice(x) }\n")
	p, ds := Load(root)
	require.Empty(t, ds, ds.Render(nil))
	var mods []string
	for _, f := range p.Files {
		mods = append(mods, f.Module)
	}
	assert.Equal(t, []string{"helper", "crypto_hw", "main"}, mods)
	assert.Equal(t, "main", p.Root.Module)
	assert.NotNil(t, p.Export("f"))
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.lw", "module a\nimport b\n")
	write(t, dir, "b.lw", "module b\nimport a\n")
	write(t, dir, "wrong.lw", "module right\n")
	write(t, dir, "broken.lw", "module broken\nfn f( {\n")
	cases := map[string]string{
		"module m\nimport nowhere\n": "t.lw:2:1: module nowhere not found",
		"module m\nimport a\n":       "b.lw:2:1: import cycle: module b imports a, which imports it back",
		"module m\nimport wrong\n":   "wrong.lw:1:1: file " + filepath.Join(dir, "wrong.lw") + " declares module right, but it was imported as wrong",
		"module m\nimport broken\n":  "broken.lw:2:7: syntax error",
		"module m\nimport m\n":       "t.lw:2:1: import cycle",
	}
	for src, want := range cases {
		_, ds := LoadSource(filepath.Join(dir, "t.lw"), []byte(src))
		require.NotEmpty(t, ds, src)
		assert.Contains(t, ds.Error()+ds.Render(nil), want, src)
	}
	_, ds := Load(filepath.Join(dir, "missing.lw"))
	require.Len(t, ds, 1)
	assert.Contains(t, ds[0].Error(), "no such file")
	_, ds = Load(dir)
	assert.Contains(t, ds[0].Error(), "is a directory")
}

// stdlibSeeds returns every stdlib source, the fuzz corpus's seeds.
func stdlibSeeds(t testing.TB) map[string][]byte {
	seeds := map[string][]byte{}
	err := fs.WalkDir(stdlib.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".lw") {
			seeds[p], err = fs.ReadFile(stdlib.FS, p)
		}
		return err
	})
	require.NoError(t, err)
	require.NotEmpty(t, seeds)
	return seeds
}

func TestStdlibChecks(t *testing.T) {
	for name, src := range stdlibSeeds(t) {
		_, ds := LoadSource(filepath.Join(t.TempDir(), filepath.Base(name)), src)
		assert.Empty(t, ds, "%s:\n%s", name, ds.Render(nil))
	}
}

// FuzzLoad runs the whole front end (parse, imports, check) on arbitrary
// text: it must never panic, and every diagnostic must carry file:line:col.
func FuzzLoad(f *testing.F) {
	for _, src := range stdlibSeeds(f) {
		f.Add(src)
	}
	f.Add([]byte("module m\nexport fn f(x: []u8) effects none { absorb unsafe because \"r\" { let y = unchecked_get(x, 0) } }"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, src []byte) {
		p, ds := LoadSource(filepath.Join(dir, "fuzz.lw"), src)
		if (p == nil) == (len(ds) == 0) {
			t.Fatalf("program %v with %d diagnostics", p != nil, len(ds))
		}
		for _, d := range ds {
			if d.Pos.File == "" || d.Pos.Line < 1 || d.Pos.Col < 1 {
				t.Fatalf("diagnostic without file:line:col: %q", d.Error())
			}
		}
	})
}
