package llvm

import (
	"fmt"

	"github.com/lowent/lowentc/backend"
)

// Register registers the LLVM target t with the driver under t.Name():
// its artifacts are emits, compiled by compile (nil: Compile, for a
// target whose every artifact is this package's) and run by Prepare's
// Runner; t.Configure validates the options.
func Register(t Target, emits []string, compile func(*backend.Input, backend.Options) ([]byte, error)) {
	if compile == nil {
		compile = func(in *backend.Input, opts backend.Options) ([]byte, error) { return Compile(t, in, opts) }
	}
	backend.Register(&backend.Target{
		Name:    t.Name(),
		Emits:   emits,
		Compile: compile,
		Prepare: func(in *backend.Input, opts backend.Options) (backend.Runner, error) {
			return Prepare(t, in, opts)
		},
		Validate: func(opts backend.Options) error {
			_, err := t.Configure(opts)
			return err
		},
	})
}

// ForceLevel limits a program built with --hw auto to the dispatcher's
// level n and returns the level in effect: what the runners of the
// dispatching targets offer as their ForceLevel. levels names the valid
// levels, for the error of an n that is none of them.
func (r *Runner) ForceLevel(n int, levels string) (int, error) {
	name := r.c.b.t.Name()
	if !r.Dispatched() {
		return 0, fmt.Errorf("%s: ForceLevel needs --hw auto", name)
	}
	lvl, err := r.ForceDispatch(n)
	if err != nil {
		return 0, err
	}
	if lvl < 0 {
		return 0, fmt.Errorf("%s: ForceLevel(%#x): not %s", name, n, levels)
	}
	return lvl, nil
}
