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
	Name     string
	Run      func(*Module, *Options) error
	Required bool // cannot be disabled
	Doc      string
}

// Passes is the pipeline, in order. A name may appear more than once.
var Passes = []Pass{
	{Name: "features", Run: features, Required: true, Doc: "settle `have` and expand the SHA-256 builtins the target does not run directly"},
	{Name: "inline", Run: inline, Required: true, Doc: "inline calls into their callers (all of them, or as Options.InlineBudget says)"},
	{Name: "fold", Run: fold, Doc: "constant folding and simplification"},
	{Name: "sroa", Run: sroa, Doc: "scalar replacement of constant-indexed local arrays"},
	{Name: "fold", Run: fold, Doc: "constant folding and simplification"},
	{Name: "copyprop", Run: copyprop, Doc: "copy propagation"},
	{Name: "unroll", Run: unroll, Doc: "full unrolling of constant-trip loops under the budget"},
	{Name: "fold", Run: fold, Doc: "constant folding and simplification"},
	{Name: "sroa", Run: sroa, Doc: "scalar replacement of constant-indexed local arrays"},
	{Name: "fold", Run: fold, Doc: "constant folding and simplification"},
	{Name: "cse", Run: cse, Doc: "common subexpression elimination"},
	{Name: "copyprop", Run: copyprop, Doc: "copy propagation"},
	{Name: "dce", Run: dce, Doc: "dead code elimination"},
	{Name: "legalize", Run: legalize, Required: true, Doc: "split words wider than W into limbs"},
	{Name: "expand", Run: expand, Required: true, Doc: "expand the limb ops the target cannot select (Options.Expand)"},
	{Name: "fold", Run: fold, Doc: "constant folding and simplification"},
	{Name: "cse", Run: cse, Doc: "common subexpression elimination"},
	{Name: "copyprop", Run: copyprop, Doc: "copy propagation"},
	{Name: "dce", Run: dce, Doc: "dead code elimination"},
}

// PassNames returns the distinct pass names, for --help and dump=PASS.
func PassNames() []string {
	names := []string{"lower"}
	seen := map[string]bool{"lower": true}
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
		return (p.Required || !contains(opts.Disable, p.Name)) && (p.Name != "legalize" || opts.W != 0)
	}
	runs := map[string]int{} // how many times each pass runs
	for _, p := range Passes {
		if enabled(p) {
			runs[p.Name]++
		}
	}
	count := map[string]int{}
	for _, p := range Passes {
		if !enabled(p) {
			continue
		}
		count[p.Name]++
		if err := p.Run(m, &opts); err != nil {
			return fmt.Errorf("%s: %w", p.Name, err)
		}
		if err := opts.AfterPass(m, p.Name, count[p.Name], count[p.Name] == runs[p.Name]); err != nil {
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
		case !p.Required && contains(o.Disable, p.Name):
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

// AfterPass dumps and verifies m after the nth run of pass name (last:
// its last run), as o asks: dump=all after every run, dump=NAME after
// the last. Optimize calls it after each pass, the lowering after "lower".
func (o *Options) AfterPass(m *Module, name string, nth int, last bool) error {
	if o.Dump != nil && (o.DumpAfter == "all" || o.DumpAfter == name && last) {
		fmt.Fprintf(o.Dump, "# after %s (#%d)\n", name, nth)
		m.Print(o.Dump)
	}
	if o.Verify {
		if err := m.Verify(); err != nil {
			return fmt.Errorf("after %s (#%d): %w", name, nth, err)
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
