package lower

import (
	"testing"

	"github.com/lowent/lowentc/driver"
	"github.com/lowent/lowentc/lang"
)

// load parses and checks a test program.
func load(t *testing.T, src string) *lang.Program {
	t.Helper()
	p, ds := driver.LoadSource("t.lw", []byte(src))
	if len(ds) > 0 {
		t.Fatalf("load:\n%s", ds.Render(lang.Sources{"t.lw": []byte(src)}))
	}
	return p
}
