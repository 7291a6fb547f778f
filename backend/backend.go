// Package backend defines the contract between the driver and every
// target: the driver runs the middle end and hands a target an Input (the
// program's IR under the plans the target asks for); the target returns
// an artifact, or a Runner that calls the exports of the compiled program
// by name and measures them. Each target lives in its own package below
// this one; none of them reads the source's syntax tree.
package backend

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

// Options are the target-independent compile options.
type Options struct {
	HW        string    // amd64: auto, none, aes, or a feature list
	Emit      string    // artifact kind; "" is the target's default
	DumpAfter string    // print the IR after this pass ("all" for every pass); the driver does it
	Dump      io.Writer // where dumps go
	NoInt     bool      // jcvm: no 32-bit int (16-bit limbs)
	Card      string    // jcvm: card profile for the cost model (jcop4, jcop3, jcop41, jcop31)
	Storage   string    // jcvm: force a storage layout (reproduces the calibration variants)
	Opt       string    // mos6502: speed (default; balanced for --emit prg), balanced or size
	Timing    string    // mos6502: ideal (default) or c64 (the VIC-II's badlines)
	MaxCycles uint64    // mos6502: the cycle cap of a call; 0: the default
	Entry     string    // mos6502 --emit prg: the export the C64 program calls; "": the default
	AID       string    // jcvm --emit jca/javacard: the package (and applet) AID, --aid; "": the default
	JCHome    string    // jcvm --emit cap: the Java Card kit's directory (--jc-home); "": $JC_HOME
	Route     string    // jcvm --emit cap: java, jca, or "" (auto: the faster)
	// NoCardLimits: jcvm: write the artifact even when it exceeds the
	// card's limits.
	NoCardLimits bool
	// Stats, when not nil, receives the artifact's static figures from
	// Compile (jcvm: bytes of code, stack, RAM; set even when Compile
	// refuses the artifact for a card's limits).
	Stats *Stats
}

// Runner calls the exports of one compiled program on one target. An
// export is named as in the source (ir.Function.Name); its arguments and
// results follow its ir.Function.Sig.
type Runner interface {
	// Run calls export with args (mut arguments' Elems are updated in
	// place) and returns its results and the target's measurements of the
	// call.
	Run(export string, args []sem.Value) ([]sem.Value, Stats, error)
	// Measure returns the cost of one call of export with args, in the
	// target's own unit (ns on a host, cycles on a 6502, modeled ms on a
	// card).
	Measure(export string, args []sem.Value) (Cost, error)
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
	Name string
	// Emits are the artifact kinds for --emit, the default first. The
	// driver adds "ir" for every target: the module(s) Compile consumed.
	Emits []string
	// Compile produces the artifact of kind opts.Emit (never "" or "ir"
	// here) from the program in.
	Compile func(in *Input, opts Options) ([]byte, error)
	// Prepare compiles the program in and returns a runner for its exports.
	Prepare func(in *Input, opts Options) (Runner, error)
	// Runtime, when not nil, is Lowent source the target compiles beside
	// every program (Input.Runtime).
	Runtime *Source
	// Validate checks the values of the options this target reads (--hw,
	// --card, ...) before anything is compiled, so that the command line
	// can answer a bad value as a usage error. Nil: nothing to check.
	Validate func(opts Options) error
}

// Source is a Lowent source file a target carries.
type Source struct {
	Name string // the file name its diagnostics use
	Text []byte
}

// Input is a checked program as the driver hands it to a backend: its IR
// under whichever plans (ir.Options) the backend asks for, its exports'
// signatures, and the figures of its source that backends check limits
// against. The driver builds it (package driver/middle).
type Input struct {
	// Module returns the program compiled with plan o: lowered, run
	// through the pipeline and verified. The driver compiles each distinct
	// plan once (o.Dump and o.DumpAfter are its own: -d dump); every call
	// returns a fresh copy, which the backend may change.
	Module func(o ir.Options) (*ir.Module, error)
	// Runtime returns the target's Runtime compiled with plan o, likewise.
	Runtime func(o ir.Options) (*ir.Module, error)
	// Exports are the program's exports in source order.
	Exports []Export
	// Arrays are every array the source declares, in source order.
	Arrays []ArrayDecl
	// Chains are, for each export in source order, the local arrays of its
	// deepest chain of calls (frames of a caller and its callees are live
	// together).
	Chains []ArrayChain

	used []*ir.Module
}

// Export is one exported function: its name and source-level signature
// (as ir.Function.Sig).
type Export struct {
	Name string
	Pos  sem.Pos
	Sig  ir.Signature
	// Nested says, per parameter, whether it is an array or slice of
	// arrays (Sig flattens them: its Type is the innermost element's).
	Nested []bool
}

// ArrayDecl is one array the source declares.
type ArrayDecl struct {
	Pos  sem.Pos
	What string // "constant", "result of", "parameter" or "local array"
	Name string // the array's name (the function's, for a result)
	Elem ir.Type
	Len  int64 // elements, nested arrays flattened
}

// ArrayChain is the local arrays one call of an export keeps live: its
// own and those of the deepest chain of calls below it.
type ArrayChain struct {
	Export string
	Bytes  int64   // their bytes, 1, 2, 4 or 8 per element (u8 and bool, u16, u32, u64)
	Pos    sem.Pos // the largest one's declaration
	// Where says where the bytes are, for a message: "the largest a of
	// f, 40,000 bytes, on the calls f -> g".
	Where string
}

// Use records that the artifact is generated from m, a module Module
// returned: the driver prints the dumps and --emit ir of the plans used.
func (in *Input) Use(m *ir.Module) {
	for _, u := range in.used {
		if u == m {
			return
		}
	}
	in.used = append(in.used, m)
}

// Used returns the modules Use recorded, in order.
func (in *Input) Used() []*ir.Module { return in.used }

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
