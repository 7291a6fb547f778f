package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/driver/middle"
	"github.com/lowent/lowentc/lang"
)

// treeEmitter compiles a program to a directory tree: file contents by
// slash-separated path relative to the root.
type treeEmitter func(in *backend.Input, bo backend.Options) (map[string][]byte, error)

// treeEmitters are the --emit kinds that write a directory, by
// "target/kind"; each names a marker file that identifies a tree it wrote.
var (
	treeEmitters = map[string]treeEmitter{}
	treeMarkers  = map[string]string{}
)

// treeEmits lists target's --emit kinds that write a directory.
func treeEmits(target string) []string {
	var kinds []string
	for k := range treeEmitters {
		if t, kind, _ := strings.Cut(k, "/"); t == target {
			kinds = append(kinds, kind)
		}
	}
	sort.Strings(kinds)
	return kinds
}

// compileTree compiles p with tree and writes the tree to -o DIR.
func compileTree(tree treeEmitter, s *middle.Session, p *lang.Program, o *options, bo backend.Options, stdout, stderr io.Writer) int {
	if o.out == "" || o.out == "-" {
		return usageError(stderr, "--emit %s writes a directory: give it with -o DIR", bo.Emit)
	}
	var stats backend.Stats
	if o.stats {
		bo.Stats = &stats
	}
	warnDroppedTraces(p, o.target, stderr)
	files, err := tree(s.Input(), bo)
	s.WriteDumps(bo.Dump)
	if o.stats {
		fmt.Fprint(stderr, stats.String())
	}
	if err != nil {
		return failErr(stderr, err)
	}
	if err := writeTree(o.out, files, treeMarkers[o.target+"/"+bo.Emit]); err != nil {
		return failErr(stderr, err)
	}
	return exitOK
}

// writeTree writes files as the directory dir, whole or not at all: the
// tree is built in a new directory beside dir, then renamed into place.
// dir may be missing, an empty directory, or a tree written before (it
// holds marker), which is replaced whole (the new tree keeps the
// directory's mode); anything else is refused. A symbolic link is
// followed. On any failure no new directory or temporary file is left.
func writeTree(dir string, files map[string][]byte, marker string) error {
	target, err := resolveLinks(dir)
	if err == nil {
		// Absolute, so that the new tree goes beside DIR even for -o .
		target, err = filepath.Abs(target)
	}
	if err != nil {
		return outError(dir, err)
	}
	st, err := os.Stat(target)
	exists := err == nil
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return outError(dir, err)
	case exists && !st.IsDir():
		return fmt.Errorf("%s: exists and is not a directory", dir)
	}
	if exists {
		ents, err := os.ReadDir(target)
		if err != nil {
			return outError(dir, err)
		}
		if len(ents) > 0 {
			if _, err := os.Stat(filepath.Join(target, marker)); err != nil {
				return fmt.Errorf("%s: the directory is not empty and is not a tree lowentc wrote (no %s): empty it or choose another", dir, marker)
			}
		}
	}
	parent, base := filepath.Split(target)
	if parent == "" {
		parent = "."
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp")
	if err != nil {
		return outError(dir, err)
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	mode := fs.FileMode(0o755)
	if exists {
		mode = st.Mode().Perm()
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return outError(dir, err)
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		f := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			return outError(dir, err)
		}
		if err := os.WriteFile(f, files[p], 0o644); err != nil {
			return outError(dir, err)
		}
	}
	if !exists {
		if err := os.Rename(tmp, target); err != nil {
			return outError(dir, err)
		}
		done = true
		return nil
	}
	// The directory there (empty, or an earlier tree) moves aside, the new
	// tree takes its name, then the old one is removed.
	old := filepath.Join(parent, fmt.Sprintf(".%s.old%d", base, rand.Uint32()))
	if err := os.Rename(target, old); err != nil {
		return outError(dir, err)
	}
	if err := os.Rename(tmp, target); err != nil {
		os.Rename(old, target)
		return outError(dir, err)
	}
	done = true
	return outError(dir, os.RemoveAll(old))
}
