package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/driver/middle"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// targetNames lists every target lowentc knows, implemented or not.
var targetNames = []string{"vm", "ir", "amd64", "arm64", "jcvm", "mos6502", "wasm32"}

// errNoBackend is the one-line answer for a target whose backend does not exist yet.
type errNoBackend string

func (e errNoBackend) Error() string {
	avail := []string{"vm", "ir"}
	for _, t := range targetNames {
		if _, ok := backend.Lookup(t); ok {
			avail = append(avail, t)
		}
	}
	return fmt.Sprintf("target %s: backend not implemented yet (available: %s)", string(e), strings.Join(avail, ", "))
}

func knownTarget(name string) bool {
	for _, t := range targetNames {
		if t == name {
			return true
		}
	}
	return false
}

// prepare compiles p for the chosen target and returns a runner for its exports.
func prepare(o *options, p *lang.Program) (backend.Runner, error) {
	switch o.target {
	case "vm":
		feats, err := hostFeatures(o)
		if err != nil {
			return nil, err
		}
		return &vmRunner{p: p, feats: feats}, nil
	case "ir":
		opts, err := irOptions(o)
		if err != nil {
			return nil, err
		}
		m, err := middle.IR(p, opts)
		if err != nil {
			return nil, err
		}
		return &irRunner{m: m}, nil
	}
	if t, ok := backend.Lookup(o.target); ok {
		return middle.Prepare(t, p, backendOptions(o))
	}
	return nil, errNoBackend(o.target)
}

// backendOptions are the backend options the flags ask for.
func backendOptions(o *options) backend.Options {
	bo := o.be
	bo.Emit, bo.DumpAfter, bo.Dump = o.emit, o.dump, o.dumpWriter()
	return bo
}

// The hosts' flags: --width of the legalized IR, and --hw, which the
// amd64 target registers too, for what `have` answers.
func init() {
	hosts := []string{"vm", "ir"}
	registerFlags(
		flagDef{name: "width", short: "W", arg: "W", rank: 20, cmds: onTarget, targets: []string{"ir"},
			help: []string{"limb width of the legalized IR for --target ir: 64, 32, 16 or 8 (default 64)"},
			set:  func(o *options, v string) error { return setInt(&o.width, v) }},
		flagDef{name: "hw", arg: "H", rank: 31, cmds: onTarget, targets: hosts,
			help: []string{`vm and ir: what "have FEATURE" answers: none (default), all, or e.g. sha`},
			set:  func(o *options, v string) error { o.be.HW = v; return nil }},
	)
}

// vmRunner runs exports on the reference VM.
type vmRunner struct {
	p     *lang.Program
	feats lang.FeatureSet // what `have` answers
}

func (r *vmRunner) Run(name string, args []lang.Value) ([]lang.Value, backend.Stats, error) {
	fn := r.p.Export(name)
	if fn == nil {
		return nil, nil, fmt.Errorf("no export %s", name)
	}
	start := time.Now()
	res, st, err := vm.Run(r.p, fn, args, vm.Options{Trace: traceOut, Features: r.feats})
	ns := time.Since(start).Nanoseconds()
	return res, backend.Stats{{Key: "ns", Value: fmt.Sprint(ns)}, {Key: "steps", Value: fmt.Sprint(st.Steps)}}, err
}

func (r *vmRunner) Measure(name string, args []lang.Value) (backend.Cost, error) {
	fn := r.p.Export(name)
	if fn == nil {
		return backend.Cost{}, fmt.Errorf("no export %s", name)
	}
	return measureWallClock(func() error {
		_, _, err := vm.Run(r.p, fn, args, vm.Options{Features: r.feats})
		return err
	})
}

func (r *vmRunner) Close() error { return nil }

// irRunner runs exports in the IR interpreter (at the legalized width).
type irRunner struct{ m *ir.Module }

func (r *irRunner) Run(name string, args []lang.Value) ([]lang.Value, backend.Stats, error) {
	start := time.Now()
	res, err := ir.Run(r.m, name, args)
	return res, backend.Stats{{Key: "ns", Value: fmt.Sprint(time.Since(start).Nanoseconds())}}, err
}

func (r *irRunner) Measure(name string, args []lang.Value) (backend.Cost, error) {
	return measureWallClock(func() error {
		_, err := ir.Run(r.m, name, args)
		return err
	})
}

func (r *irRunner) Close() error { return nil }

// measureWallClock times call on the host: repeated until at least 200 ms
// have passed, the best of three such rounds.
func measureWallClock(call func() error) (backend.Cost, error) {
	best := 0.0
	for round := 0; round < 3; round++ {
		n := 0
		start := time.Now()
		for time.Since(start) < 200*time.Millisecond || n == 0 {
			if err := call(); err != nil {
				return backend.Cost{}, err
			}
			n++
		}
		per := float64(time.Since(start).Nanoseconds()) / float64(n)
		if round == 0 || per < best {
			best = per
		}
	}
	return backend.Cost{Value: best, Unit: "ns", Seconds: best / 1e9}, nil
}

// lookupTarget returns a registered backend target.
func lookupTarget(name string) (*backend.Target, bool) { return backend.Lookup(name) }
