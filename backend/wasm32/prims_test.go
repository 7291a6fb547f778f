package wasm32

import (
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/randprog/backendcheck"
	"github.com/lowent/lowentc/lang"
)

// TestPrimitives runs backend/testdata/prims.lw (mulw, parallel
// assignment) under Node and compares every export with the VM. mulw of
// u64 is four 32x32->64 products here (backend/llvm's mulw64Split): an
// i128 multiply would need compiler-rt's __multi3, which wasm-ld cannot
// find.
func TestPrimitives(t *testing.T) {
	msg, refused := backendcheck.CheckFile("../testdata/prims.lw", 1, 12, func(p *lang.Program) (backend.Runner, error) {
		return Prepare(input(p), backend.Options{})
	})
	if refused != nil {
		t.Fatal(refused)
	}
	if msg != "" {
		t.Error(msg)
	}
}
