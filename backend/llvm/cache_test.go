package llvm

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
)

// TestCodegenCache: with CodegenCache set, an object or assembly made
// once is read back from the cache for the same LLVM IR and options (the
// entry's content is what Compile returns), is the output the tools make
// without the cache, and is stored apart for other IR or another kind;
// the object and the assembly of one IR share opt's output.
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
	byExt := func() map[string]string {
		t.Helper()
		m := map[string]string{}
		for _, n := range entries() {
			m[filepath.Ext(n)] = filepath.Join(dir, n)
		}
		return m
	}
	if names := entries(); len(names) != 2 {
		t.Fatalf("cache holds %q after one object, want opt's and llc's outputs", names)
	}
	files := byExt()
	// Mark the object: the next compilation of the same IR must return it.
	marked := append([]byte("cached\n"), obj...)
	if err := os.WriteFile(files[".o"], marked, 0o644); err != nil {
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
	if n := len(entries()); n != 2 {
		t.Errorf("%d entries after the same object three times, want 2", n)
	}

	// The assembly of the same IR starts from opt's cached output: spoilt,
	// llc fails on it; restored, the assembly is made and stored.
	bc, err := os.ReadFile(files[".bc"])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files[".bc"], []byte("not bitcode"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Compile(plain{}, in, backend.Options{Emit: "asm"}); err == nil || !strings.Contains(err.Error(), "llc") {
		t.Errorf("the assembly with opt's cached output spoilt: error %v, want llc's", err)
	}
	if err := os.WriteFile(files[".bc"], bc, 0o644); err != nil {
		t.Fatal(err)
	}
	asm, err := Compile(plain{}, in, backend.Options{Emit: "asm"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(asm, []byte(".text")) {
		t.Errorf("--emit asm gave no assembly:\n%.200s", asm)
	}
	other, err := Compile(plain{}, in2, backend.Options{Emit: "obj"})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(other, []byte("cached\n")) {
		t.Errorf("another program's IR got the cached object")
	}
	if n := len(entries()); n != 5 {
		t.Errorf("%d entries after one program's object and assembly and another's object, want 5", n)
	}
}

// TestCodegenCacheFindsToolsLater: with the cache on, opt and llc missing
// is the error that names them, and once they are on PATH again the next
// compilation finds them (the failure is not kept).
func TestCodegenCacheFindsToolsLater(t *testing.T) {
	_, in := load(t, "k.lw", `module k
export fn f(x: u32) -> u32 effects none { return x * 3 }
`)
	old := CodegenCache
	CodegenCache = t.TempDir()
	defer func() { CodegenCache = old }()
	toolIDMu.Lock()
	toolID = ""
	toolIDMu.Unlock()
	path := os.Getenv("PATH")
	os.Setenv("PATH", t.TempDir())
	_, err := Compile(plain{}, in, backend.Options{Emit: "obj"})
	os.Setenv("PATH", path)
	if err == nil || !strings.Contains(err.Error(), "not found on PATH") {
		t.Errorf("without opt and llc: error %v, want the tool named", err)
	}
	if _, err := Compile(plain{}, in, backend.Options{Emit: "obj"}); err != nil {
		t.Errorf("with the tools back on PATH: %v", err)
	}
}
