package amd64

import (
	"os"
	"testing"

	"github.com/lowent/lowentc/backend"
)

// TestMain removes the build cache's directory when the tests end: the
// random programs leave a driver and an object each (about 1 MB).
func TestMain(m *testing.M) {
	code := m.Run()
	backend.Cleanup()
	os.Exit(code)
}
