// Package backend defines what every target offers the command line and the
// tests: a Runner that calls the exports of one compiled program and
// measures them. Each target lives in its own package below this one.
package backend

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/lowent/lowentc/lang"
)

// Options are the target-independent compile options.
type Options struct {
	HW        string    // amd64: auto, none, aes, or a feature list
	Emit      string    // artifact kind; "" is the target's default
	DumpAfter string    // print the IR after this pass ("all" for every pass)
	Dump      io.Writer // where dumps go
	NoInt     bool      // jcvm: no 32-bit int (16-bit limbs)
	Card      string    // jcvm: card profile for the cost model (jcop4, jcop3, jcop41, jcop31)
	Storage   string    // jcvm: force a storage layout (reproduces the calibration variants)
	Opt       string    // mos6502: speed (default) or size
	Timing    string    // mos6502: ideal (default) or c64 (the VIC-II's badlines)
	MaxCycles uint64    // mos6502: the cycle cap of a call; 0: the default
	Entry     string    // mos6502 --emit prg: the export the C64 program calls; "": the default
	AID       string    // jcvm --emit jca/javacard: the package (and applet) AID, --aid; "": the default
	// NoCardLimits: jcvm: write the artifact even when it exceeds the
	// card's limits.
	NoCardLimits bool
	// Stats, when not nil, receives the artifact's static figures from
	// Compile (jcvm: bytes of code, stack, RAM; set even when Compile
	// refuses the artifact for a card's limits).
	Stats *Stats
}

// Runner calls the exports of one compiled program on one target.
type Runner interface {
	// Run calls fn with args (mut arguments' Elems are updated in place) and
	// returns its results and the target's measurements of the call.
	Run(fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, Stats, error)
	// Measure returns the cost of one call of fn with args, in the target's
	// own unit (ns on a host, cycles on a 6502, modeled ms on a card).
	Measure(fn *lang.FuncDecl, args []lang.Value) (Cost, error)
	// Close releases what the runner holds (temporary files, processes).
	Close() error
}

// Cost is the measured cost of one call.
type Cost struct {
	Value   float64 // in Unit
	Unit    string  // "ns", "cycles", "ms", ...
	Seconds float64 // the same cost in seconds of the target machine's time
	// Lo and Hi, when Hi > 0, bound Value: a modeled cost's uncertainty
	// band (jcvm: from the cost model's leave-one-out errors).
	Lo, Hi float64
}

// Stat is one `key=value` measurement.
type Stat struct {
	Key   string
	Value string
}

// Stats are a call's measurements, printed by `lowentc run --stats`.
type Stats []Stat

// String renders the stats as `key=value` lines.
func (s Stats) String() string {
	var b strings.Builder
	for _, st := range s {
		fmt.Fprintf(&b, "%s=%s\n", st.Key, st.Value)
	}
	return b.String()
}

// Target is one backend as the command line sees it.
type Target struct {
	Name  string
	Width int      // limb width of the legalized IR it consumes
	Emits []string // artifact kinds for --emit; the first is the default
	// Compile produces the artifact of kind opts.Emit (never "" here).
	Compile func(p *lang.Program, opts Options) ([]byte, error)
	// Prepare compiles p and returns a runner for its exports.
	Prepare func(p *lang.Program, opts Options) (Runner, error)
	// Validate checks the values of the options this target reads (--hw,
	// --card, ...) before anything is compiled, so that the command line
	// can answer a bad value as a usage error. Nil: nothing to check.
	Validate func(opts Options) error
}

var targets = map[string]*Target{}

// Register makes a target available to the command line; each backend
// package calls it from init.
func Register(t *Target) {
	if _, dup := targets[t.Name]; dup {
		panic("BUG: target " + t.Name + " registered twice")
	}
	targets[t.Name] = t
}

// Lookup returns the registered target called name.
func Lookup(name string) (*Target, bool) {
	t, ok := targets[name]
	return t, ok
}

// FitLine fits y = slope*x + intercept by least squares: how `bench
// --block` turns costs of 1, 2, 4, ... blocks into a cost per block.
func FitLine(xs, ys []float64) (slope, intercept float64) {
	n := float64(len(xs))
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
		sxx += xs[i] * xs[i]
		sxy += xs[i] * ys[i]
	}
	slope = (n*sxy - sx*sy) / (n*sxx - sx*sx)
	intercept = (sy - slope*sx) / n
	return slope, intercept
}

// Process-wide temporary files of the backends (build caches shared by
// the runners of one process) are removed by Cleanup, which the command
// line runs before it exits (and on an interrupt); tests run it from
// TestMain.
var (
	cleanMu  sync.Mutex
	cleanups []func()
)

// AtExit registers f to run at Cleanup.
func AtExit(f func()) {
	cleanMu.Lock()
	defer cleanMu.Unlock()
	cleanups = append(cleanups, f)
}

// Cleanup runs (and forgets) every function AtExit registered, newest
// first.
func Cleanup() {
	cleanMu.Lock()
	fs := cleanups
	cleanups = nil
	cleanMu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}
