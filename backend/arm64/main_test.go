package arm64

import (
	"testing"

	"github.com/lowent/lowentc/internal/backendtest"
)

// TestMain removes the build cache's directory when the tests end.
func TestMain(m *testing.M) { backendtest.Main(m) }
