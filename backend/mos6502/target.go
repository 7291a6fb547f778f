// Package mos6502 is lowentc's 6502 backend: legalized IR at W=8 becomes
// Turbo Macro Pro source (--emit asm), and
// its runner assembles the source with 64tass and runs it in a
// cycle-counting 6502 emulator. docs/mos6502.md describes the target.
package mos6502

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

func init() {
	backend.Register(&backend.Target{
		Name:    "mos6502",
		Emits:   []string{"asm", "prg"},
		Compile: compileArtifact,
		Prepare: func(in *backend.Input, opts backend.Options) (backend.Runner, error) {
			if err := validate(opts); err != nil {
				return nil, err
			}
			prog, err := build(in, opts, layout{org: runOrg, linear: true})
			if err != nil {
				return nil, err
			}
			prog.run = runOpts{c64: opts.Timing == "c64" || opts.Timing == "c64-blank", blank: opts.Timing == "c64-blank", maxCycles: opts.MaxCycles}
			return &Runner{prog: prog}, nil
		},
		Validate: validate,
	})
}

// validate checks the options the target reads.
func validate(opts backend.Options) error {
	switch opts.Opt {
	case "", "speed", "size", "balanced":
	default:
		return fmt.Errorf("mos6502: --opt %q: want speed, balanced or size", opts.Opt)
	}
	switch opts.Timing {
	case "", "ideal", "c64", "c64-blank":
	default:
		return fmt.Errorf("mos6502: --timing %q: want ideal, c64 or c64-blank", opts.Timing)
	}
	return nil
}

// runOrg is where runner programs start; the tables come first, so it is
// page aligned.
const runOrg = 0x0800

// Memory limits: the program (code, tables, variables) must end below
// codeLimit; --opt size aims at sizeLimit bytes. A program no
// configuration of its mode fits gets the size configurations with the
// memory limit.
const (
	codeLimit = 0xd000 // the C64 I/O area; arguments go after the program, up to $FF00
	sizeLimit = 8192
)

// --opt balanced: the fastest configuration (in speed's order of
// preference) whose program (code, tables, variables) takes at most
// balancedLimit bytes and whose source at most balancedLines lines, so
// that it leaves a C64 program room and loads into Turbo Macro Pro on the
// machine. A module no such configuration fits gets --opt size's.
const (
	balancedLimit = 16384
	balancedLines = 4000
)

// unrollBudgets are the IR unroll budgets tried, largest first, until the
// program fits.
var unrollBudgets = []int{ir.DefaultUnroll, 8000, 4000, 2000, 1000, 500, 200, 0}

// inlineBudgets are the IR inlining policies tried for each unroll budget:
// everything inlined first, then ever more calls kept. Unrolling comes
// first: a callee kept out of line once and unrolled beats copies of it
// rolled up.
var inlineBudgets = []int{ir.InlineAll, 2000, 400, 100, 16}

// config is one (unroll, inline) choice of the IR pipeline; w is the
// legalization width, 0 for 8 (the byte generator), wideW for the size
// interpreter (wide.go). fn holds the unroll budgets of the functions
// (by QualName) that speed's refinement (refine) unrolls more than unroll.
type config struct {
	unroll, inline, w int
	keep              bool // calls of exports stay calls (ir.Options.KeepExportCalls)
	fn                map[string]int
	// factor unrolls by that factor the loops left rolled that carry
	// values (ir.Options.UnrollFactor; --opt balanced).
	factor int
}

// balancedFactor is the partial unroll (config.factor) that gives
// SHA-256's rounds eight at a time with a..h renamed.
const balancedFactor = 8

// balancedConfigs is speed's list with two changes. For each unroll
// budget, inline budget 400 comes first: a routine called from several
// places (SHA-256's compress: the message loop and the padding) is kept
// once, and the room goes to its loops. And each configuration is tried
// first with the loops it leaves rolled unrolled by balancedFactor: the
// rounds of a hash eight at a time, their working variables renamed
// rather than copied, where that fits the balanced limits.
func balancedConfigs() []config {
	var cs []config
	add := func(c config) {
		f := c
		f.factor = balancedFactor
		cs = append(cs, f, c)
	}
	for _, u := range unrollBudgets {
		add(config{unroll: u, inline: 400})
		for _, c := range configs(false) {
			if c.unroll == u && c.inline != 400 {
				add(c)
			}
		}
	}
	return cs
}

// configs lists the choices for speed or size, most preferred first.
func configs(size bool) []config {
	var cs []config
	if size {
		// The interpreter first; the byte generator if it cannot.
		cs = append(cs, config{unroll: 0, inline: ir.InlineNone, w: wideW})
		for _, ib := range []int{16, ir.InlineNone} {
			for _, u := range []int{200, 0} {
				cs = append(cs, config{unroll: u, inline: ib})
			}
		}
		return cs
	}
	for _, u := range unrollBudgets {
		for _, ib := range inlineBudgets {
			cs = append(cs, config{unroll: u, inline: ib})
			if ib == ir.InlineAll {
				// Then an export calling exports calls them rather than
				// holding copies of their code: it has the room of the
				// copies for unrolling.
				cs = append(cs, config{unroll: u, inline: ib, keep: true})
			}
		}
	}
	return cs
}

func compileArtifact(in *backend.Input, opts backend.Options) ([]byte, error) {
	switch opts.Emit {
	case "asm":
		prog, err := build(in, opts, layout{org: runOrg, linear: true})
		if err != nil {
			return nil, err
		}
		compileStats(prog, opts)
		return []byte(prog.src), nil
	case "prg":
		entry, n, err := PRGEntry(in.Exports, opts.Entry)
		if err != nil {
			return nil, err
		}
		if opts.Opt == "" {
			// The C64 program has to share the machine with its user's
			// own: balanced unless asked otherwise.
			opts.Opt = "balanced"
		}
		prog, err := build(in, opts, layout{org: prgOrgFor(n), linear: true, prg: true, entry: entry, outLen: n})
		if err != nil {
			return nil, err
		}
		compileStats(prog, opts)
		return append([]byte{byte(prog.img.org), byte(prog.img.org >> 8)}, prog.img.data...), nil
	}
	return nil, fmt.Errorf("mos6502: cannot emit %q (asm, prg)", opts.Emit)
}

// compileStats gives `lowentc --stats` the figures a C64 programmer plans
// around: the mode and the configuration the search chose, where the
// program lies and how many bytes it takes from its start to its end
// (code, tables, variables: what balanced's 16,384 counts; a PRG's
// driver included), and its source's lines (balanced's 4,000).
func compileStats(prog *program, opts backend.Options) {
	if opts.Stats == nil {
		return
	}
	mode := opts.Opt
	if mode == "" {
		mode = "speed"
	}
	end, ok := prog.img.labels["progend"]
	if !ok {
		end = prog.img.org + len(prog.img.data)
	}
	*opts.Stats = backend.Stats{
		{Key: "opt", Value: mode},
		{Key: "config", Value: prog.cfg.String()},
		{Key: "start", Value: fmt.Sprintf("$%04X", prog.img.org)},
		{Key: "end", Value: fmt.Sprintf("$%04X", end)},
		{Key: "program_bytes", Value: fmt.Sprint(end - prog.img.org)},
		{Key: "source_lines", Value: fmt.Sprint(strings.Count(prog.src, "\n"))},
	}
}

// build compiles the program in with the most preferred configuration
// whose program fits, and tells in which module it used.
func build(in *backend.Input, opts backend.Options, lay layout) (*program, error) {
	prog, err := buildFit(in, opts, lay)
	if fe, ok := err.(*fitError); ok && fe.zp && !lay.zpKeep {
		// No configuration left zero page for some export's array
		// pointers: again with the scalars of the callees kept out of it.
		lay.zpKeep = true
		prog, err = buildFit(in, opts, lay)
	}
	if err == nil {
		in.Use(prog.mod)
	}
	return prog, err
}

func buildFit(in *backend.Input, opts backend.Options, lay layout) (*program, error) {
	limit := codeLimit - lay.org
	size := opts.Opt == "size"
	switch opts.Opt {
	case "size":
		limit = sizeLimit
		lay.linear = false // 256 bytes a table: shifts are smaller
		lay.size = true
	case "balanced":
		limit = min(limit, balancedLimit)
		lay.maxLines = balancedLines
		lay.ptrs = true
		lay.build = true
		lay.peep = true
	case "", "speed":
	default:
		return nil, fmt.Errorf("mos6502: --opt %q: want speed, balanced or size", opts.Opt)
	}
	if err := checkArrays(in, lay); err != nil {
		return nil, err
	}
	cs := configs(size)
	if opts.Opt == "balanced" {
		cs = balancedConfigs()
	}
	seen := map[[32]byte]error{}
	prog, err := search(in, opts, lay, cs, limit, seen)
	if err == nil && !size {
		return refine(in, opts, lay, prog, limit, seen)
	}
	if _, tooBig := err.(*fitError); !tooBig {
		return prog, err
	}
	if opts.Opt == "balanced" {
		// Under the same limits: the byte generator rolled and without
		// the 256-byte linear-map tables (size's layout), then the
		// interpreter, in that order: fastest first.
		sl := lay
		sl.linear, sl.size = false, true
		cs := configs(true)
		prog, err = search(in, opts, sl, append(cs[1:], cs[0]), limit, map[[32]byte]error{})
		if _, tooBig := err.(*fitError); !tooBig {
			return prog, err
		}
	}
	// sizeLimit is a goal, and speed is no use without a program: what
	// fits no configuration of its mode gets the first size configuration
	// that fits memory rather than nothing.
	lay.linear, lay.size, lay.maxLines = false, true, 0
	return search(in, opts, lay, configs(true), codeLimit-lay.org, map[[32]byte]error{})
}

// search returns the program of the first of cs that fits in limit
// bytes, or the last configuration's fitError.
func search(in *backend.Input, opts backend.Options, lay layout, cs []config, limit int, seen map[[32]byte]error) (*program, error) {
	var last, zp error
	for _, c := range cs {
		prog, err := buildSeen(in, opts, lay, c, limit, seen)
		trace(c, err)
		if fe, tooBig := err.(*fitError); tooBig {
			last = err
			if fe.zp {
				zp = err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		return prog, nil
	}
	if zp != nil {
		// Zero page is what build can still make room in.
		return nil, zp
	}
	return nil, last
}

// refine improves prog, speed's first configuration that fits, one
// function at a time: one setting for the whole module leaves room unused
// when a smaller unroll budget for every function was needed only because
// all of them together did not fit at the larger one. Each function of
// prog's module gets, in turn, the largest unroll budget of unrollBudgets
// with which the program still fits, the budgets chosen before it kept:
// first the functions kept out of line (callees first: what several
// exports call), then the exports in source order, so that a module's
// first exports (the stdlib's one-shot calls, before their key-context
// forms) choose first. A function whose code a larger budget does not
// change costs one IR compile.
func refine(in *backend.Input, opts backend.Options, lay layout, prog *program, limit int, seen map[[32]byte]error) (*program, error) {
	if prog.cfg.unroll == unrollBudgets[0] {
		return prog, nil
	}
	var names []string
	for _, f := range prog.mod.Funcs {
		if !f.Export {
			names = append(names, f.QualName)
		}
	}
	for _, e := range in.Exports {
		if f := prog.mod.Func(e.Name); f != nil && f.Export {
			names = append(names, f.QualName)
		}
	}
	for _, name := range names {
		for _, u := range unrollBudgets {
			if u <= prog.cfg.unroll {
				break
			}
			c := prog.cfg
			c.fn = map[string]int{name: u}
			for k, v := range prog.cfg.fn {
				c.fn[k] = v
			}
			p, err := buildSeen(in, opts, lay, c, limit, seen)
			trace(c, err)
			if _, tooBig := err.(*fitError); tooBig {
				continue
			}
			if err != nil {
				return nil, err
			}
			if p != nil {
				prog = p
			}
			// p is nil when the IR is one already built: that budget
			// changes nothing in this function, nor would a smaller one.
			break
		}
	}
	return prog, nil
}

// trace prints, when LOWENT_MOS6502_TRACE is set, each configuration the
// search tries and why it did not fit (nil: it did).
func trace(c config, err error) {
	if os.Getenv("LOWENT_MOS6502_TRACE") == "" {
		return
	}
	fmt.Fprintf(os.Stderr, "mos6502: %s (width %d): %v\n", c, c.w, err)
}

// String describes c as the source's header says it.
func (c config) String() string {
	s := fmt.Sprintf("unroll %d, inline %d", c.unroll, c.inline)
	if c.factor > 1 {
		s += fmt.Sprintf(", unroll by %d", c.factor)
	}
	if c.keep {
		s += ", export calls kept"
	}
	names := make([]string, 0, len(c.fn))
	for k := range c.fn {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		s += fmt.Sprintf(", unroll %s %d", k, c.fn[k])
	}
	return s
}

// configComment is c as comment lines of at most 40 columns (Turbo Macro
// Pro's line length, which lint checks): "; ir: " and c's parts, packed.
func configComment(c config) string {
	var b strings.Builder
	line := "; ir:"
	for _, part := range strings.Split(c.String(), ", ") {
		switch {
		case line == "; ir:" || line == ";":
			line += " " + part
		case len(line)+2+len(part) > 40:
			b.WriteString(line + ",\n")
			line = "; " + part
		default:
			line += ", " + part
		}
	}
	b.WriteString(line + "\n")
	return b.String()
}

// buildWith compiles the program in with one configuration; a program
// longer than limit bytes is an error.
func buildWith(in *backend.Input, opts backend.Options, lay layout, c config, limit int) (*program, error) {
	return buildSeen(in, opts, lay, c, limit, nil)
}

// plan is the IR pipeline's options for configuration c.
func (c config) plan() ir.Options {
	w := 8
	if c.w != 0 {
		w = c.w
	}
	// The byte generator has no divide: limb divisions by a run-time
	// divisor become shift-and-subtract loops (the interpreter has one).
	var ex ir.Expand
	if w == 8 {
		ex = ir.ExpandDiv
	}
	return ir.Options{W: w, Unroll: c.unroll, UnrollFunc: c.fn, UnrollFactor: c.factor, InlineBudget: c.inline, KeepExportCalls: c.keep, Expand: ex}
}

// buildSeen is buildWith remembering, in seen (when not nil), the outcome
// of each distinct IR module: configurations that give the same IR (an
// unroll budget larger than every loop, say) are generated once.
func buildSeen(in *backend.Input, opts backend.Options, lay layout, c config, limit int, seen map[[32]byte]error) (*program, error) {
	m, err := in.Module(c.plan())
	if err != nil {
		return nil, err
	}
	var key [32]byte
	if seen != nil {
		key = sha256.Sum256([]byte(m.String()))
		if err, ok := seen[key]; ok {
			return nil, err
		}
	}
	prog, err := buildModule(m, lay, c, limit)
	var clash *labelClash
	if errors.As(err, &clash) {
		// An export is named like an internal label (trap, l3, mulw...):
		// generate again from a fresh module with those labels reserved;
		// entryLabel then adds a digit, and the header names the label.
		lay.reserved = clash.internal
		if m, err = in.Module(c.plan()); err != nil {
			return nil, err
		}
		prog, err = buildModule(m, lay, c, limit)
	}
	if seen != nil {
		seen[key] = err
	}
	return prog, err
}

// buildModule generates, assembles and checks the program of m.
func buildModule(m *ir.Module, lay layout, c config, limit int) (*program, error) {
	var only map[string]bool
	if lay.prg {
		if m.Func(lay.entry) == nil || !m.Func(lay.entry).Export {
			return nil, fmt.Errorf("mos6502: --emit prg: no export %s(msg: []u8, out: mut [N]u8)", lay.entry)
		}
		only = map[string]bool{lay.entry: true}
	}
	src, abis, checks, err := generate(m, lay, only)
	if err != nil {
		return nil, err
	}
	if lay.reserved == nil {
		if err := checkLabels(src, abis); err != nil {
			return nil, err
		}
	}
	if est := estimateSize(src); est > limit {
		// Too big: say so without running 64tass.
		return nil, &fitError{msg: fmt.Sprintf("mos6502: program is about %d bytes, more than the %d available", est, limit)}
	}
	src = configComment(c) + src
	if n := strings.Count(src, "\n"); lay.maxLines > 0 && n > lay.maxLines {
		return nil, &fitError{msg: fmt.Sprintf("mos6502: source is %d lines, more than the %d allowed", n, lay.maxLines)}
	}
	base := lay.org
	if lay.prg {
		drv, err := driverSource(abis[0], lay.entry, lay.outLen, !lay.noBlank, buildsAtStartup(src, abis))
		if err != nil {
			return nil, err
		}
		src = prgSource(drv, src)
		base = 0x0801
	}
	img, err := assemble64tass(src, lay.prg)
	if err != nil {
		return nil, err
	}
	if lay.prg {
		img.data = img.data[2:] // the load address
		if img.labels["drvend"] > lay.org {
			return nil, fmt.Errorf("BUG: mos6502: the C64 driver ends at $%04x, past $%04x", img.labels["drvend"], lay.org)
		}
	}
	img.org = base
	if end := base + len(img.data); end-lay.org > limit {
		return nil, &fitError{msg: fmt.Sprintf("mos6502: program is %d bytes, more than the %d available", end-lay.org, limit)}
	}
	prog := &program{mod: m, img: img, abis: map[string]*funcABI{}, src: src, checks: checks, cfg: c}
	if a, ok := img.labels["mktab"]; ok {
		prog.startup = a // tables built at start-up (tabbuild.go)
	}
	for _, a := range abis {
		if err := img.resolveABI(a); err != nil {
			return nil, err
		}
		prog.abis[a.Name] = a
		if a.Label == "mktab" {
			prog.startup = 0 // an export, not the table builder
		}
	}
	return prog, nil
}

// fitError says a configuration's program does not fit (memory or zero
// page): build then tries the next one.
type fitError struct {
	msg string
	pos sem.Pos // where in the source, when one construct is to blame
	zp  bool    // the zero page ran out (for array pointers)
}

func (e *fitError) Error() string {
	if e.pos.Line > 0 {
		return e.pos.String() + ": " + e.msg
	}
	return e.msg
}

// Unwrap gives the error as a positioned diagnostic when it has a position.
func (e *fitError) Unwrap() error {
	if e.pos.Line > 0 {
		return &sem.Diag{Pos: e.pos, Msg: e.msg}
	}
	return nil
}

// checkArrays refuses, before any code is generated, a program whose
// exports need more bytes of local arrays than the memory the program can
// have at all (from lay.org to codeLimit: code, tables and variables):
// frames of a caller and its callees never overlap, so the local arrays
// on one chain of calls all need bytes of their own. Generating the code of
// such a program first took minutes and gigabytes before failing.
func checkArrays(in *backend.Input, lay layout) error {
	limit := codeLimit - lay.org
	for _, c := range in.Chains {
		if c.Bytes > int64(limit) {
			return &sem.Diag{Pos: c.Pos, Msg: fmt.Sprintf("mos6502: a call of %s needs %s bytes of local arrays (%s); the whole program (code, tables, variables) has %s bytes, $%04X-$%04X",
				c.Export, sem.Thousands(c.Bytes), c.Where, sem.Thousands(int64(limit)), lay.org, codeLimit-1)}
		}
	}
	return nil
}
