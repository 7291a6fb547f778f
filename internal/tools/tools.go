// Package tools finds the third-party tools the tests run beside the
// project's own: the Java Card 3.0.5u3 kit and jCardSim (javacard/), and
// VICE's x64sc with the C64 ROMs (vice/). They live outside the
// repository, in one directory named by LOWENT_TOOLS (default
// ../shared/tools from the module's root); setup.sh says where a user gets
// each. A test that needs a tool fails, never skips, when it is missing.
package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Env is the variable naming the tools' directory.
const Env = "LOWENT_TOOLS"

// Dir is the tools' directory: $LOWENT_TOOLS, or ../shared/tools beside
// the module's root.
func Dir() string {
	if d := os.Getenv(Env); d != "" {
		abs, err := filepath.Abs(d)
		if err == nil {
			return abs
		}
		return d
	}
	_, file, _, _ := runtime.Caller(0)
	// file is <root>/internal/tools/tools.go.
	root := filepath.Dir(filepath.Dir(filepath.Dir(file)))
	return filepath.Join(filepath.Dir(root), "shared", "tools")
}

// need returns the path rel below Dir, failing t when it does not exist.
func need(t testing.TB, rel, what string) string {
	t.Helper()
	p := filepath.Join(Dir(), rel)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s not found at %s (set %s to the directory holding javacard/ and vice/; setup.sh says where to get them): %v", what, p, Env, err)
	}
	return p
}

// JavaCardKit is the Java Card 3.0.5u3 kit's directory (JC_HOME).
func JavaCardKit(t testing.TB) string {
	t.Helper()
	return need(t, filepath.Join("javacard", "jc305u3_kit"), "the Java Card 3.0.5u3 kit")
}

// JCardSim is jCardSim's jar.
func JCardSim(t testing.TB) string {
	t.Helper()
	return need(t, filepath.Join("javacard", "jcardsim-3.0.5-SNAPSHOT.jar"), "jCardSim")
}

// VICE is the directory holding x64sc and the C64 ROMs.
func VICE(t testing.TB) string {
	t.Helper()
	return need(t, "vice", "VICE x64sc")
}

// Describe is a line naming where the tools are looked for.
func Describe() string { return fmt.Sprintf("%s=%s", Env, Dir()) }
