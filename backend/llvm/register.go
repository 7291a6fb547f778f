package llvm

import "github.com/lowent/lowentc/backend"

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
