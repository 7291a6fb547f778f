package arm64

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/lowent/lowentc/backend/llvm"
)

// The runner's driver: the generated C driver is linked with the module's
// object by the cross compiler, statically (so that qemu needs no aarch64
// sysroot at run time), and runs under qemu-aarch64's user-mode emulation
// of the "max" CPU, which has every extension --hw crypto uses.

// qemuCPU is the CPU qemu-aarch64 emulates for the runner.
const qemuCPU = "max"

// crossTools are the tools the runner needs, with their Debian packages.
var crossTools = []struct{ name, pkg string }{
	{"aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu and libc6-dev-arm64-cross"},
	{"qemu-aarch64", "qemu-user"},
}

// lookTool finds a cross tool on PATH or says which package brings it.
func lookTool(name string) (string, error) {
	for _, t := range crossTools {
		if t.name != name {
			continue
		}
		path, err := exec.LookPath(name)
		if err != nil {
			return "", fmt.Errorf("arm64: %s not found on PATH (the arm64 runner needs it; Debian packages: %s)", name, t.pkg)
		}
		return path, nil
	}
	panic("BUG: arm64: unknown tool " + name)
}

// BuildDriver links the C driver for aarch64 and returns the qemu-aarch64
// command line that runs it.
func (aarch64) BuildDriver(d llvm.DriverBuild) ([]string, error) {
	cc, err := lookTool("aarch64-linux-gnu-gcc")
	if err != nil {
		return nil, err
	}
	qemu, err := lookTool("qemu-aarch64")
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(d.Dir, "driver")
	args := []string{"-O2", "-static", "-o", bin, d.CSource, d.Object}
	cmd := exec.Command(cc, args...)
	cmd.Dir = d.Dir
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("arm64: aarch64-linux-gnu-gcc %s: %v\n%s(a static link needs libc6-dev-arm64-cross)",
			strings.Join(args, " "), err, errb.String())
	}
	return []string{qemu, "-cpu", qemuCPU, bin}, nil
}
