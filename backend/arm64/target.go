// Package arm64 is lowentc's AArch64 backend: the arm64 target of the
// LLVM path (backend/llvm) for aarch64 Linux, with the same C ABI, header
// and static library as amd64. This package holds what is Arm's: the
// triple and data layout, --hw and its levels (hw.go), the getauxval
// dispatcher (dispatch.go), the selection of `have F` and of the clmul,
// AES and SHA-256 builtins with the Armv8 Cryptography Extensions
// (builtins.go; llvm.aarch64.* intrinsics, backend/llvm's computed forms
// without them), and the runner's cross-linked driver under qemu-aarch64
// (host.go). docs/arm64.md is the user's guide.
package arm64

import (
	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/backend/llvm"
)

// Emits are the artifact kinds, the default first (the driver adds ir).
var Emits = llvm.Emits

// Target is the AArch64 LLVM target.
var Target llvm.Target = aarch64{}

func init() { llvm.Register(Target, Emits, Compile) }

// Compile produces the artifact opts.Emit of the program in.
func Compile(in *backend.Input, opts backend.Options) ([]byte, error) {
	return llvm.Compile(Target, in, opts)
}

// Runner runs the exports of one program under qemu-aarch64
// (llvm.Runner), and under --hw auto can lower the level the dispatcher
// sees.
type Runner struct{ *llvm.Runner }

// Prepare compiles the program in (or reuses the cached build) and
// returns its runner.
func Prepare(in *backend.Input, opts backend.Options) (*Runner, error) {
	r, err := llvm.Prepare(Target, in, opts)
	if err != nil {
		return nil, err
	}
	return &Runner{r}, nil
}

// ForceLevel limits a --hw auto program to level n (0 computed, 1 the
// Cryptography Extensions the CPU has) and returns the level in effect.
func (r *Runner) ForceLevel(n int) (int, error) { return r.Runner.ForceLevel(n, "a level 0-1") }

// SymbolName is the C name of export fn of module mod.
func SymbolName(mod, fn string) string { return llvm.SymbolName(mod, fn) }

// aarch64 is the llvm.Target of AArch64 Linux (glibc).
type aarch64 struct{}

func (aarch64) Name() string   { return "arm64" }
func (aarch64) Triple() string { return "aarch64-linux-gnu" }
func (aarch64) DataLayout() string {
	return "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128"
}

// Configure reads --hw.
func (aarch64) Configure(opts backend.Options) (llvm.Config, error) {
	return parseHW(opts.HW)
}
