// Package llvmtest is the TestMain of the tests that compile through the
// LLVM path (amd64, arm64, wasm32 and the command line): it points
// llvm.CodegenCache at a directory that the test binaries of one
// `go test ./...` share, so that opt and llc run once for each program and
// options however many tests and packages compile it. Only tests import it.
package llvmtest

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/internal/backendtest"
)

// maxAge is how old an entry gets before a test binary removes it: a
// day's runs share their builds, and the directory does not grow without
// end over weeks of changes to the code generator.
const maxAge = 24 * time.Hour

// Main runs the package's tests with the shared cache (Dir) and removes
// the build cache's directory at the end, as backendtest.Main does.
func Main(m *testing.M) {
	if dir, err := Dir(); err == nil {
		llvm.CodegenCache = dir
	} else {
		fmt.Fprintf(os.Stderr, "llvmtest: no shared cache of llc's output: %v\n", err)
	}
	backendtest.Main(m)
}

// Dir makes (or checks) the cache's directory, lowentc-test-cache-UID/llc
// in the temporary directory, and removes its entries older than maxAge.
// It refuses a directory that is not the user's own or that others can
// write: whatever is in it ends up linked into the tests' programs.
func Dir() (string, error) {
	root := filepath.Join(os.TempDir(), fmt.Sprintf("lowentc-test-cache-%d", os.Getuid()))
	dir := filepath.Join(root, "llc")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	for _, d := range []string{root, dir} {
		fi, err := os.Lstat(d)
		if err != nil {
			return "", err
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !fi.IsDir() || !ok || int(st.Uid) != os.Getuid() || fi.Mode().Perm()&0o022 != 0 {
			return "", fmt.Errorf("%s is not a directory of this user's that only they can write", d)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > maxAge {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	return dir, nil
}
