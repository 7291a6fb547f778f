package arm64

import (
	"testing"

	"github.com/lowent/lowentc/internal/llvmtest"
)

// TestMain shares opt's and llc's outputs with the other test binaries
// (llvmtest) and removes the build cache's directory when the tests end.
func TestMain(m *testing.M) { llvmtest.Main(m) }
