package llvm

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/lowent/lowentc/backend"
)

// TestCodegenCache: with CodegenCache set, an object or assembly made
// once is read back from the cache for the same LLVM IR and options (the
// entry's content is what Compile returns), is the output the tools make
// without the cache, and is stored apart for other IR or another kind.
func TestCodegenCache(t *testing.T) {
	_, in := load(t, "k.lw", `module k
export fn f(x: u32, y: u32) -> u32 effects none { return (x + y) <<< 7 }
`)
	_, in2 := load(t, "k.lw", `module k
export fn f(x: u32, y: u32) -> u32 effects none { return (x ^ y) <<< 9 }
`)
	plainObj, err := Compile(plain{}, in, backend.Options{Emit: "obj"})
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	old := CodegenCache
	CodegenCache = dir
	defer func() { CodegenCache = old }()
	entries := func() []string {
		t.Helper()
		es, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range es {
			names = append(names, e.Name())
		}
		return names
	}

	obj, err := Compile(plain{}, in, backend.Options{Emit: "obj"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(obj, plainObj) {
		t.Fatalf("the object made with the cache on (%d bytes) is not the one made without it (%d bytes)", len(obj), len(plainObj))
	}
	names := entries()
	if len(names) != 1 {
		t.Fatalf("cache holds %q after one object, want one entry", names)
	}
	// Mark the entry: the next compilation of the same IR must return it.
	marked := append([]byte("cached\n"), obj...)
	if err := os.WriteFile(filepath.Join(dir, names[0]), marked, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := Compile(plain{}, in, backend.Options{Emit: "obj"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, marked) {
		t.Errorf("the same IR compiled again did not come from the cache")
	}
	lib, err := Compile(plain{}, in, backend.Options{Emit: "lib"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(lib, marked) {
		t.Errorf("--emit lib did not archive the cached object")
	}
	if n := len(entries()); n != 1 {
		t.Errorf("%d entries after the same object three times, want 1", n)
	}

	asm, err := Compile(plain{}, in, backend.Options{Emit: "asm"})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(asm, []byte("cached\n")) || !bytes.Contains(asm, []byte(".text")) {
		t.Errorf("--emit asm gave the object's entry or no assembly:\n%.200s", asm)
	}
	other, err := Compile(plain{}, in2, backend.Options{Emit: "obj"})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(other, []byte("cached\n")) {
		t.Errorf("another program's IR got the cached object")
	}
	if n := len(entries()); n != 3 {
		t.Errorf("%d entries after one program's object and assembly and another's object, want 3", n)
	}
}
