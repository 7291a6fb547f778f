package llvm

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// The external tools: LLVM 14's opt and llc turn the emitted IR into an
// object, ar makes the static library, gcc links the runner's driver.
// A missing tool is an error that names it.

// tool runs name with args in dir and returns its standard output.
func tool(t Target, dir, name string, args ...string) ([]byte, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %s not found on PATH (%s; ./setup.sh installs it): %v", t.Name(), name, toolPackages[name], err)
	}
	cmd := exec.Command(path, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %s %s: %v\n%s", t.Name(), name, strings.Join(args, " "), err, errb.String())
	}
	return out.Bytes(), nil
}

// toolPackages says where each tool comes from.
var toolPackages = map[string]string{
	"opt": "LLVM 14, Debian package llvm-14",
	"llc": "LLVM 14, Debian package llvm-14",
	"ar":  "Debian package binutils",
	"gcc": "Debian package gcc",
}

// llcArgs are the code generation options of every artifact.
var llcArgs = []string{"-O3", "-relocation-model=pic"}

// codegen writes ll to dir/base.ll, optimizes it with opt -O3 and compiles
// it with llc into dir/base.o (kind "obj") or dir/base.s ("asm"); it
// returns the output's path. With CodegenCache set, an output made before
// from the same input is copied from there instead.
func codegen(t Target, dir, base, ll, kind string) (string, error) {
	out := filepath.Join(dir, base+".o")
	ft := "-filetype=obj"
	if kind == "asm" {
		out, ft = filepath.Join(dir, base+".s"), "-filetype=asm"
	}
	flags := llcArgs
	if c, ok := t.(Codegen); ok {
		flags = c.LLCArgs()
	}
	var cached, cachedBC string
	if CodegenCache != "" {
		key, err := codegenKey(t, ll, append(append([]string{"llc"}, flags...), ft))
		if err != nil {
			return "", err
		}
		cached = filepath.Join(CodegenCache, key+filepath.Ext(out))
		if data, err := os.ReadFile(cached); err == nil {
			return out, os.WriteFile(out, data, 0o644)
		}
		key, err = codegenKey(t, ll, []string{"opt", "-O3"})
		if err != nil {
			return "", err
		}
		cachedBC = filepath.Join(CodegenCache, key+".bc")
	}
	src := filepath.Join(dir, base+".ll")
	if err := os.WriteFile(src, []byte(ll), 0o644); err != nil {
		return "", err
	}
	bc := filepath.Join(dir, base+".bc")
	if data, err := os.ReadFile(cachedBC); cachedBC != "" && err == nil {
		if err := os.WriteFile(bc, data, 0o644); err != nil {
			return "", err
		}
	} else {
		if _, err := tool(t, dir, "opt", "-O3", src, "-o", bc); err != nil {
			return "", err
		}
		if cachedBC != "" {
			storeCached(bc, cachedBC)
		}
	}
	args := append(append([]string{}, flags...), ft, bc, "-o", out)
	if _, err := tool(t, dir, "llc", args...); err != nil {
		return "", err
	}
	if cached != "" {
		storeCached(out, cached)
	}
	return out, nil
}

// CodegenCache, when not empty, is a directory, which several processes
// may share, where codegen keeps every output of opt and of llc under a
// hash of all it depends on: the LLVM IR, the tool's arguments and the
// tools themselves (their paths and versions); an object and an assembly
// of one IR share opt's output. The tests of the LLVM targets set
// it (internal/llvmtest), so that the test binaries of one `go test ./...`
// run opt and llc once per program and options; the command line leaves
// it empty and runs the tools every time.
var CodegenCache string

// toolID identifies opt and llc (paths and versions) once found; a
// failure to find them is not kept, so a later call looks again.
var (
	toolIDMu sync.Mutex
	toolID   string
)

// codegenKey names the output of the step (opt, or opt then llc) that
// args describe on ll.
func codegenKey(t Target, ll string, args []string) (string, error) {
	toolIDMu.Lock()
	id := toolID
	if id == "" {
		var b strings.Builder
		for _, name := range []string{"opt", "llc"} {
			path, err := exec.LookPath(name)
			if err != nil {
				toolIDMu.Unlock()
				return "", fmt.Errorf("%s: %s not found on PATH (%s; ./setup.sh installs it): %v", t.Name(), name, toolPackages[name], err)
			}
			v, err := tool(t, "", name, "--version")
			if err != nil {
				toolIDMu.Unlock()
				return "", err
			}
			fmt.Fprintf(&b, "%s\x00%s\x00", path, v)
		}
		id = b.String()
		toolID = id
	}
	toolIDMu.Unlock()
	h := sha256.New()
	fmt.Fprintf(h, "lowentc codegen 1\x00%s\x00%s\x00", id, strings.Join(args, " "))
	h.Write([]byte(ll))
	return hex.EncodeToString(h.Sum(nil)), nil
}

// storeCached copies the file out to path, through a file of its own in
// path's directory renamed into place, so that a reader never sees part
// of an output. The cache is an aid: a failure to store is no error.
func storeCached(out, path string) {
	data, err := os.ReadFile(out)
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr != nil || cerr != nil {
		os.Remove(f.Name())
		return
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
	}
}

// archive packs obj into the static library dir/lib<base>.a.
func archive(t Target, dir, base, obj string) (string, error) {
	lib := filepath.Join(dir, "lib"+base+".a")
	_ = os.Remove(lib)
	if _, err := tool(t, dir, "ar", "rcs", lib, obj); err != nil {
		return "", err
	}
	return lib, nil
}
