package arm64

import (
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/internal/randprog/backendcheck"
)

// TestMissingCrossTools: without the cross compiler or qemu on PATH, the
// runner's build fails with a message naming the tool and its package.
func TestMissingCrossTools(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := aarch64{}.BuildDriver(llvm.DriverBuild{Dir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "aarch64-linux-gnu-gcc not found") ||
		!strings.Contains(err.Error(), "gcc-aarch64-linux-gnu") {
		t.Errorf("BuildDriver without the cross compiler: %v", err)
	}
	if _, err := lookTool("qemu-aarch64"); err == nil || !strings.Contains(err.Error(), "qemu-user") {
		t.Errorf("lookTool(qemu-aarch64) without qemu: %v", err)
	}
}

// TestHWValues: --hw takes none, crypto and auto; anything else is refused
// with the values it takes.
func TestHWValues(t *testing.T) {
	tg, _ := backend.Lookup("arm64")
	for _, ok := range []string{"", "none", "crypto", "auto"} {
		if err := tg.Validate(backend.Options{HW: ok}); err != nil {
			t.Errorf("--hw %q: %v", ok, err)
		}
	}
	for _, bad := range []string{"aes", "sha", "all", "crypto,auto"} {
		err := tg.Validate(backend.Options{HW: bad})
		if err == nil || !strings.Contains(err.Error(), "none, crypto or auto") {
			t.Errorf("--hw %q: %v", bad, err)
		}
	}
}

// TestPrimitives runs backend/testdata/prims.lw (mulw, parallel
// assignment) under qemu and compares every export with the VM.
func TestPrimitives(t *testing.T) {
	backendcheck.TestFile(t, "arm64", "../testdata/prims.lw", 1, 12)
}
