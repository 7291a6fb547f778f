package jcvm

import (
	"bytes"
	"slices"
	"sync"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// classKey names one compilation of a stdlib module.
type classKey struct {
	mod  string
	opts backend.Options
}

type classBuilt struct {
	once sync.Once
	cls  *Class
	err  error
}

var (
	classMu    sync.Mutex
	classCache = map[classKey]*classBuilt{}
)

// stdlibClass returns the stdlib module mod compiled with opts, compiling
// it on first use: the tests of this package that read a module's class
// (its methods, its printed Java or .jca) share one compilation per module
// and options. The class must not be changed by its readers. Options that
// only decide what is done with a class (NoCardLimits, Emit, AID) do not
// change it, so they are not part of the key; opts.Stats and opts.Dump,
// outputs of a compilation, must be nil.
func stdlibClass(t testing.TB, mod string, opts backend.Options) *Class {
	t.Helper()
	cls, err := stdlibClassErr(mod, opts)
	if err != nil {
		t.Fatalf("%s %+v: %v", mod, opts, err)
	}
	return cls
}

// stdlibClassErr is stdlibClass returning the error of the compilation.
func stdlibClassErr(mod string, opts backend.Options) (*Class, error) {
	if opts.Stats != nil || opts.Dump != nil {
		panic("BUG: stdlibClass with an output option")
	}
	opts.NoCardLimits, opts.Emit, opts.AID = false, "", ""
	k := classKey{mod, opts}
	// One compilation per key; different keys compile in parallel.
	classMu.Lock()
	b, ok := classCache[k]
	if !ok {
		b = &classBuilt{}
		classCache[k] = b
	}
	classMu.Unlock()
	b.once.Do(func() {
		p, err := golden.Load(mod)
		if err != nil {
			b.err = err
			return
		}
		b.cls, b.err = compileClass(input(p), opts)
	})
	return b.cls, b.err
}

// classOf compiles p with opts; a stdlib module's class is the shared one
// of stdlibClass.
func classOf(p *lang.Program, opts backend.Options) (*Class, error) {
	if slices.Contains(stdlibModules, p.Root.Module) && opts.Stats == nil && opts.Dump == nil {
		if q, err := golden.Load(p.Root.Module); err == nil && sameSources(p, q) {
			return stdlibClassErr(p.Root.Module, opts)
		}
	}
	return compileClass(input(p), opts)
}

// sameSources reports whether p and q were loaded from the same files.
func sameSources(p, q *lang.Program) bool {
	if len(p.Sources) != len(q.Sources) {
		return false
	}
	for name, src := range p.Sources {
		if other, ok := q.Sources[name]; !ok || !bytes.Equal(src, other) {
			return false
		}
	}
	return true
}

// prepareShared is prepare on the class of classOf: a runner of its own
// (a simulator of its own) on the shared compilation.
func prepareShared(p *lang.Program, opts backend.Options) (backend.Runner, error) {
	card, err := cardOf(opts.Card)
	if err != nil {
		return nil, err
	}
	cls, err := classOf(p, opts)
	if err != nil {
		return nil, err
	}
	return &Runner{cls: cls, sim: newSim(cls), card: card}, nil
}
