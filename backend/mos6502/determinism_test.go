package mos6502

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/stdlib"
)

// stdlibModules lists the top-level stdlib modules (stdlib/NAME.lw).
func stdlibModules(t *testing.T) []string {
	t.Helper()
	ents, err := fs.ReadDir(stdlib.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	var mods []string
	for _, e := range ents {
		if name, ok := strings.CutSuffix(e.Name(), ".lw"); ok && !e.IsDir() {
			mods = append(mods, name)
		}
	}
	if len(mods) < 5 {
		t.Fatalf("found only %d stdlib modules: %v", len(mods), mods)
	}
	return mods
}

// TestDeterministic compiles every stdlib module again from a fresh load
// with the configuration the search chose the first time: the two sources
// must be byte for byte the same. (The search itself only compares sizes
// of such outputs.)
func TestDeterministic(t *testing.T) {
	for _, mod := range stdlibModules(t) {
		first, err := stdlibProgram(mod, nil)
		if err != nil {
			t.Fatalf("%s: %v", mod, err)
		}
		p := testprog.Stdlib(t, mod)
		again, err := buildWith(input(p), backend.Options{}, layout{org: runOrg, linear: true}, first.cfg, codeLimit-runOrg)
		if err != nil {
			t.Fatalf("%s: %v", mod, err)
		}
		if first.src != again.src {
			a, b := strings.Split(first.src, "\n"), strings.Split(again.src, "\n")
			for i := range min(len(a), len(b)) {
				if a[i] != b[i] {
					t.Errorf("%s: two compilations differ first at line %d: %q vs %q", mod, i+1, a[i], b[i])
					break
				}
			}
			if len(a) != len(b) {
				t.Errorf("%s: %d lines vs %d", mod, len(a), len(b))
			}
		}
	}
}
