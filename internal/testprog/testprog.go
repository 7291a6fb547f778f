// Package testprog loads the Lowent programs of tests: a file with its
// imports, or a source held in a string, checked, with any diagnostic
// failing the test. Only tests import it.
package testprog

import (
	"testing"

	"github.com/lowent/lowentc/driver"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// Load loads and checks the program of the file path (its imports found
// beside it, then in the stdlib); a diagnostic fails t.
func Load(t testing.TB, path string) *lang.Program {
	t.Helper()
	p, ds := driver.Load(path)
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	return p
}

// Source loads and checks the program src under the file name file; a
// diagnostic fails t, rendered against the source and followed by it.
func Source(t testing.TB, file, src string) *lang.Program {
	t.Helper()
	p, ds := driver.LoadSource(file, []byte(src))
	if len(ds) > 0 {
		t.Fatalf("load failed:\n%s\nsource:\n%s", ds.Render(lang.Sources{file: []byte(src)}), src)
	}
	return p
}

// Stdlib loads and checks the stdlib module named module as a root
// program (golden.Load); an error fails t.
func Stdlib(t testing.TB, module string) *lang.Program {
	t.Helper()
	p, err := golden.Load(module)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
