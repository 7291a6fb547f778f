package wasm32

import (
	"testing"

	"github.com/lowent/lowentc/internal/randprog/backendcheck"
)

// TestPrimitives runs backend/testdata/prims.lw (mulw, parallel
// assignment) under Node and compares every export with the VM. mulw of
// u64 is four 32x32->64 products here (backend/llvm's mulw64Split): an
// i128 multiply would need compiler-rt's __multi3, which wasm-ld cannot
// find.
func TestPrimitives(t *testing.T) {
	backendcheck.TestFile(t, "wasm32", "../testdata/prims.lw", 1, 12)
}
