package wasm32

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/ir"
)

// The tools past llc: wasm-ld links the object into a module, Node runs
// it. A missing tool is an error naming it and its Debian package.

// wasmLdNames are where wasm-ld is looked for: Debian's lld-14 installs
// it as wasm-ld-14 on PATH and as wasm-ld in LLVM 14's directory.
var wasmLdNames = []string{"wasm-ld-14", "wasm-ld", "/usr/lib/llvm-14/bin/wasm-ld"}

// findTool returns the first of names that exists, or an error naming
// what and its package.
func findTool(what, pkg string, names ...string) (string, error) {
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("wasm32: %s not found (looked for %s; Debian package %s, which ./setup.sh installs)", what, strings.Join(names, ", "), pkg)
}

// StackSize is the linked module's stack: room for the 1 MiB of local
// arrays backend/llvm allows a call (checkStack) and for the frames'
// spills beside them.
const StackSize = 2 << 20

// link links obj into the module out: no entry point, the C entry and the
// kernel of every export exported by name, with the memory and
// __heap_base (where the JavaScript places the arguments); the stack
// comes first in memory, so that running off its end traps rather than
// overwrites the data.
func link(dir string, m *ir.Module, obj, out string) error {
	ld, err := findTool("wasm-ld", "lld-14", wasmLdNames...)
	if err != nil {
		return err
	}
	args := []string{"--no-entry", "--stack-first", "-z", fmt.Sprintf("stack-size=%d", StackSize),
		"--export=__heap_base", "-O2", "--strip-debug"}
	for _, f := range m.Funcs {
		if f.Export {
			args = append(args, "--export="+llvm.SymbolName(m.Name, f.Name), "--export="+llvm.KernelName(m.Name, f.Name))
		}
	}
	args = append(args, obj, "-o", out)
	cmd := exec.Command(ld, args...)
	cmd.Dir = dir
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("wasm32: wasm-ld %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return nil
}

// nodePath finds Node, which runs the runner's driver.
func nodePath() (string, error) { return findTool("node", "nodejs", "node") }

// writeFile writes data to path.
func writeFile(path string, data string) error { return os.WriteFile(path, []byte(data), 0o644) }
