package ir

import (
	"fmt"
	"io"
	"strings"

	"github.com/lowent/lowentc/sem"
)

// Options control Compile.
type Options struct {
	// W is the limb width of the target (64, 32, 16 or 8); 0 skips
	// legalization and leaves words of every width.
	W int
	// Unroll is the size budget of full unrolling: a loop with a constant
	// trip count is unrolled when trips × body size ≤ Unroll instructions.
	// 0 disables unrolling.
	Unroll int
	// UnrollFunc overrides Unroll for the functions it names (by
	// Function.QualName, MODULE.NAME): a backend that must fit a program
	// in little memory can unroll the functions worth it more than others.
	UnrollFunc map[string]int
	// UnrollFactor, when above 1, unrolls by that factor a counted loop
	// that full unrolling leaves, that carries values and whose trip
	// count is a multiple of it (and more): a loop of trips/UnrollFactor
	// trips over as many copies of the body (partial unrolling; see
	// unroll.go). Loops that run the same body over consecutive ranges,
	// each carrying on the values of the one before, are joined first.
	// The working variables of a round function (a..h of SHA-256) then
	// shift by renaming within an iteration, as when fully unrolled, at
	// the size of UnrollFactor rounds. A power of two; 0 or 1: none.
	UnrollFactor int
	// InlineBudget is the inlining policy (see inline.go). 0 (InlineAll,
	// the default) inlines every call, so that each export is one call-free
	// function. A positive budget keeps calls: a call is inlined only when
	// its callee, after its own optimization (and legalization at W, when
	// W > 0), has at most InlineBudget instructions, or when the callee is
	// not exported and this is its only call site; every other call stays an
	// OpCall and its callee stays in the module (non-exported functions only
	// while something calls them). InlineNone (any negative value) inlines
	// nothing. At W=8 a budget of about 16 inlines byte swaps and counter
	// helpers but keeps BLAKE2b's G (326 instructions) out of line.
	InlineBudget int
	// InlineFunc overrides InlineBudget for the calls of the functions it
	// names (by Function.QualName, MODULE.NAME): InlineAll inlines every
	// call of that function, a positive budget or InlineNone decides as
	// InlineBudget would. A backend can inline the callees whose inlining
	// pays while keeping the others calls.
	InlineFunc map[string]int
	// KeepExportCalls keeps every call of an exported function a call,
	// whatever InlineBudget says: an export made of other exports (a
	// one-shot call that fills a key context, then uses it) then shares
	// their code rather than holding copies of it.
	KeepExportCalls bool
	// Features are the hardware features the compiled code may assume:
	// `have F` is true exactly for these (see pass features).
	Features sem.FeatureSet
	// Expand lists limb operations the target cannot select; pass expand
	// rewrites them after legalization.
	Expand Expand
	// Link lists the builtins computed by the runtime (package lwrt) linked
	// into the program; Runtime is that runtime, lowered and not yet
	// optimized, which pass features moves into the module (the driver
	// sets it for each plan: it is not part of the plan's identity).
	Link    Link
	Runtime *Module
	// KeepHave leaves `have` in the IR for a backend that compiles one
	// variant per CPU level and answers it per variant.
	KeepHave bool
	// LaneLoops keeps the lane loops in the branch `have ifma` takes
	// rolled (see unroll.go), for a backend with a variant that selects
	// them; without it those loops unroll like any other.
	LaneLoops bool
	// DumpAfter names a pass ("lower" for the lowered IR) after which the IR
	// is written to Dump, or "all" for every pass. A pass the pipeline runs
	// more than once (fold, sroa, ...) is written after its last run, so
	// that each function is printed once.
	DumpAfter string
	Dump      io.Writer
	// Disable lists optional passes to skip.
	Disable []string
	// Verify runs the IR checker after every pass (tests turn it on; Compile
	// always verifies the final module).
	Verify bool

	// runPasses, set by Optimize, runs on sub the enabled passes after
	// the first one named after and before the first one named before (""
	// for the end), verifying after each when verify is set: inline uses
	// it to optimize and measure one function. Nil when a pass runs on its
	// own.
	runPasses func(sub *Module, after, before string, verify bool) error
}

// Inlining policies for Options.InlineBudget (a positive value is a budget).
const (
	InlineAll  = 0  // inline every call (the default)
	InlineNone = -1 // inline no call
)

// DefaultUnroll is a budget that fully unrolls the standard library's rounds.
const DefaultUnroll = 20000

// Pass is one step of the pipeline.
type Pass struct {
	// Name is the instance's name, distinct in the pipeline: the pass's
	// kind for a kind that runs once, KIND.WHERE for each run of a kind
	// that runs several times (fold.sroa: the fold after the first sroa).
	Name     string
	Run      func(*Module, *Options) error
	Required bool // cannot be disabled
	Doc      string
}

// Kind is the pass's kind, Name up to the first dot: what Options.Disable
// and dump=KIND name.
func (p Pass) Kind() string {
	k, _, _ := strings.Cut(p.Name, ".")
	return k
}

const (
	docFold     = "constant folding and simplification"
	docSROA     = "scalar replacement of constant-indexed local arrays"
	docCopyprop = "copy propagation"
	docCSE      = "common subexpression elimination"
	docDCE      = "dead code elimination"
)

// Passes is the pipeline, in order; each instance has its own name.
var Passes = []Pass{
	{Name: "features", Run: features, Required: true, Doc: "settle `have` and expand the SHA-256 builtins the target does not run directly"},
	{Name: "inline", Run: inline, Required: true, Doc: "inline calls into their callers (all of them, or as Options.InlineBudget says)"},
	{Name: "fold.early", Run: fold, Doc: docFold},
	{Name: "sroa.early", Run: sroa, Doc: docSROA},
	{Name: "fold.sroa", Run: fold, Doc: docFold},
	{Name: "copyprop.early", Run: copyprop, Doc: docCopyprop},
	{Name: "unroll", Run: unroll, Doc: "full unrolling of constant-trip loops under the budget"},
	{Name: "fold.unroll", Run: fold, Doc: docFold},
	{Name: "sroa.unroll", Run: sroa, Doc: docSROA},
	{Name: "fold.late", Run: fold, Doc: docFold},
	{Name: "cse.words", Run: cse, Doc: docCSE},
	{Name: "copyprop.late", Run: copyprop, Doc: docCopyprop},
	{Name: "dce.words", Run: dce, Doc: docDCE},
	{Name: "legalize", Run: legalize, Required: true, Doc: "split words wider than W into limbs"},
	{Name: "expand", Run: expand, Required: true, Doc: "expand the limb ops the target cannot select (Options.Expand)"},
	{Name: "fold.limbs", Run: fold, Doc: docFold},
	{Name: "cse.limbs", Run: cse, Doc: docCSE},
	{Name: "copyprop.limbs", Run: copyprop, Doc: docCopyprop},
	{Name: "dce.limbs", Run: dce, Doc: docDCE},
}

// passOrder lists the orders the pipeline depends on: the first pass of
// each pair must run before the second. init checks Passes against it
// (and that every name is distinct), so a reordering that breaks one is
// a failure at start-up, not a wrong module.
var passOrder = []struct{ before, after, why string }{
	{"features", "inline", "inline sizes callees with `have` settled"},
	{"inline", "sroa.early", "the callees' arrays are scalar-replaced in their callers"},
	{"unroll", "sroa.unroll", "unrolling makes loop indices constant"},
	{"unroll", "legalize", "the unroll budget counts word instructions"},
	{"inline", "legalize", "inline's policy runs the passes between it and legalize on a callee"},
	{"legalize", "expand", "expand rewrites limb operations"},
	{"expand", "fold.limbs", "folding cleans up the expansions"},
}

func init() {
	if err := checkPipeline(Passes, passOrder); err != nil {
		panic("BUG: ir.Passes: " + err.Error())
	}
}

// checkPipeline checks that the names in ps are distinct and that ps
// keeps every order of order.
func checkPipeline(ps []Pass, order []struct{ before, after, why string }) error {
	at := map[string]int{}
	for i, p := range ps {
		if _, dup := at[p.Name]; dup {
			return fmt.Errorf("two passes are named %q", p.Name)
		}
		if p.Name == "lower" || p.Name == "all" {
			return fmt.Errorf("a pass is named %q, which -d dump reserves", p.Name)
		}
		at[p.Name] = i
	}
	for _, o := range order {
		b, okb := at[o.before]
		a, oka := at[o.after]
		switch {
		case !okb || !oka:
			return fmt.Errorf("order %s before %s names a pass the pipeline does not have", o.before, o.after)
		case b >= a:
			return fmt.Errorf("%s must run before %s (%s)", o.before, o.after, o.why)
		}
	}
	return nil
}

// PassNames returns the names -d dump= takes, for --help: "lower", each
// kind (dump=KIND prints after the kind's last instance that runs), and
// each instance of a kind that runs several times.
func PassNames() []string {
	names := []string{"lower"}
	seen := map[string]bool{"lower": true}
	for _, p := range Passes {
		if k := p.Kind(); !seen[k] {
			seen[k] = true
			names = append(names, k)
		}
	}
	for _, p := range Passes {
		if !seen[p.Name] {
			seen[p.Name] = true
			names = append(names, p.Name)
		}
	}
	return names
}

// Optimize runs the pipeline on a lowered module.
func Optimize(m *Module, opts Options) error {
	switch opts.W {
	case 0, 8, 16, 32, 64:
	default:
		return fmt.Errorf("unsupported limb width %d (want 8, 16, 32 or 64)", opts.W)
	}
	if opts.DumpAfter != "" && opts.DumpAfter != "all" && !contains(PassNames(), opts.DumpAfter) {
		return fmt.Errorf("no pass named %q (passes: %s)", opts.DumpAfter, strings.Join(PassNames(), ", "))
	}
	opts.runPasses = func(sub *Module, after, before string, verify bool) error {
		return runBetween(sub, &opts, after, before, verify)
	}
	enabled := func(p Pass) bool {
		return (p.Required || !opts.disabled(p)) && (p.Name != "legalize" || opts.W != 0)
	}
	last := map[string]string{} // each kind's last enabled instance
	for _, p := range Passes {
		if enabled(p) {
			last[p.Kind()] = p.Name
		}
	}
	for _, p := range Passes {
		if !enabled(p) {
			continue
		}
		if err := p.Run(m, &opts); err != nil {
			return fmt.Errorf("%s: %w", p.Name, err)
		}
		if err := opts.AfterPass(m, p.Name, last[p.Kind()] == p.Name); err != nil {
			return err
		}
	}
	return m.Verify()
}

// runBetween runs on sub the enabled passes after the first one named after
// and before the first one named before ("" for the end of the pipeline).
func runBetween(sub *Module, o *Options, after, before string, verify bool) error {
	started := false
	for _, p := range Passes {
		switch {
		case !started:
			started = p.Name == after
			continue
		case p.Name == before:
			return nil
		case !p.Required && o.disabled(p):
			continue
		}
		if err := p.Run(sub, o); err != nil {
			return fmt.Errorf("%s: %w", p.Name, err)
		}
		if verify {
			if err := sub.Verify(); err != nil {
				return fmt.Errorf("after %s: %w", p.Name, err)
			}
		}
	}
	return nil
}

// disabled says whether Options.Disable names p or its kind.
func (o *Options) disabled(p Pass) bool {
	return contains(o.Disable, p.Name) || contains(o.Disable, p.Kind())
}

// AfterPass dumps and verifies m after the pass instance name (last: the
// last instance of its kind that runs), as o asks: dump=all after every
// instance, dump=NAME after that instance, dump=KIND after the kind's
// last. Optimize calls it after each pass, the lowering after "lower".
func (o *Options) AfterPass(m *Module, name string, last bool) error {
	kind, _, _ := strings.Cut(name, ".")
	if o.Dump != nil && (o.DumpAfter == "all" || o.DumpAfter == name || o.DumpAfter == kind && last) {
		fmt.Fprintf(o.Dump, "# after %s\n", name)
		m.Print(o.Dump)
	}
	if o.Verify {
		if err := m.Verify(); err != nil {
			return fmt.Errorf("after %s: %w", name, err)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
