package driver

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocExamplesCheck: every Lowent example in the documentation (a fenced
// block starting with `module`) parses and checks, so the docs cannot drift
// from the language.
func TestDocExamplesCheck(t *testing.T) {
	files, err := filepath.Glob("../docs/*.md")
	require.NoError(t, err)
	files = append(files, "../README.md")
	block := regexp.MustCompile("(?s)```\n(module .*?)```")
	n := 0
	for _, f := range files {
		text, err := os.ReadFile(f)
		require.NoError(t, err)
		for i, m := range block.FindAllSubmatch(text, -1) {
			n++
			_, ds := LoadSource(filepath.Join(t.TempDir(), "example.lw"), m[1])
			assert.Empty(t, ds, "%s example %d:\n%s\n%s", f, i+1, m[1], ds.Render(nil))
		}
	}
	assert.GreaterOrEqual(t, n, 3, "examples found")
}
