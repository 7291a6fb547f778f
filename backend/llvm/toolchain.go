package llvm

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
// returns the output's path.
func codegen(t Target, dir, base, ll, kind string) (string, error) {
	src := filepath.Join(dir, base+".ll")
	if err := os.WriteFile(src, []byte(ll), 0o644); err != nil {
		return "", err
	}
	bc := filepath.Join(dir, base+".bc")
	if _, err := tool(t, dir, "opt", "-O3", src, "-o", bc); err != nil {
		return "", err
	}
	out := filepath.Join(dir, base+".o")
	ft := "-filetype=obj"
	if kind == "asm" {
		out, ft = filepath.Join(dir, base+".s"), "-filetype=asm"
	}
	flags := llcArgs
	if c, ok := t.(Codegen); ok {
		flags = c.LLCArgs()
	}
	args := append(append([]string{}, flags...), ft, bc, "-o", out)
	if _, err := tool(t, dir, "llc", args...); err != nil {
		return "", err
	}
	return out, nil
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
