package lower

import (
	"testing"

	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
)

// load parses and checks a test program.
func load(t *testing.T, src string) *lang.Program {
	return testprog.Source(t, "t.lw", src)
}
