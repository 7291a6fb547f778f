// Package backendtest holds what the tests of every backend package need
// alike: the program as the driver hands it to a target, a TestMain that
// removes the build cache, and a cache of runners per program and mode
// for the golden suite. Only tests import it.
package backendtest

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/driver/middle"
	"github.com/lowent/lowentc/lang"
)

// Input is the program p as the driver hands it to the registered target
// named target.
func Input(target string, p *lang.Program) *backend.Input {
	t, _ := backend.Lookup(target)
	return middle.New(p, t, backend.Options{}).Input()
}

// Main runs a backend package's tests and then removes the build cache's
// directory (the runners of random programs leave a build each).
func Main(m *testing.M) {
	code := m.Run()
	backend.Cleanup()
	os.Exit(code)
}

// Runners keeps one runner per program and mode for a whole test binary,
// so that each stdlib module is compiled once per mode and one runner
// serves all of its cases.
type Runners[R any] struct {
	mu sync.Mutex
	m  map[*lang.Program]map[string]R
}

// Get returns the runner of p in mode, made by prepare the first time;
// a failure to prepare it fails t.
func (c *Runners[R]) Get(t testing.TB, p *lang.Program, mode string, prepare func() (R, error)) R {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[*lang.Program]map[string]R{}
	}
	if c.m[p] == nil {
		c.m[p] = map[string]R{}
	}
	if r, ok := c.m[p][mode]; ok {
		return r
	}
	r, err := prepare()
	if err != nil {
		t.Fatalf("compiling %s (%s): %v", p.Root.Module, mode, err)
	}
	c.m[p][mode] = r
	return r
}

// WriteLib compiles program p for target with opts into the static
// library libMOD.a and the C header MOD.h (MOD its root module) in dir.
func WriteLib(t testing.TB, target string, p *lang.Program, opts backend.Options, dir string) {
	t.Helper()
	tg, _ := backend.Lookup(target)
	mod := p.Root.Module
	for _, a := range []struct{ emit, file string }{{"lib", "lib" + mod + ".a"}, {"h", mod + ".h"}} {
		o := opts
		o.Emit = a.emit
		data, err := tg.Compile(Input(target, p), o)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, a.file), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
