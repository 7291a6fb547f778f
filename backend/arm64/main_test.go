package arm64

import (
	"os"
	"testing"

	"github.com/lowent/lowentc/backend"
)

// TestMain removes the build cache's directory when the tests end.
func TestMain(m *testing.M) {
	code := m.Run()
	backend.Cleanup()
	os.Exit(code)
}
