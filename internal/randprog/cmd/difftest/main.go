// Command difftest is differential testing at scale: it generates random
// well-typed Lowent programs (internal/randprog) and runs every export of
// each on every target and mode against the reference VM, then prints how
// many programs each mode agreed on, got wrong or refused.
//
//	go run ./internal/randprog/cmd/difftest -n 10000 -seed 1
//	go run ./internal/randprog/cmd/difftest -for 10m -seed 1
//	go run ./internal/randprog/cmd/difftest -seed 4711 -n 1 -modes mos6502/size -v
//
// The modes: the IR interpreter as the word IR and at limb widths
// 64/32/16/8 (32 and 8 also with every expansion a small target asks for,
// 64 also with every hardware feature); amd64 under --hw none, aes and
// auto (auto forced to one of the dispatcher's CPU levels by seed); arm64
// under --hw none, crypto and auto (under qemu-aarch64; auto forced to
// level 0 or 1 by seed); jcvm
// with int and --no-int, in the simulator; mos6502 --opt speed and size,
// in the emulator; wasm32 under Node. A mismatch prints the seed, the
// mode, the export and its arguments, and the command that replays it;
// -report FILE writes the full reports (with the sources) there.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/backend/amd64"
	"github.com/lowent/lowentc/backend/arm64"
	_ "github.com/lowent/lowentc/backend/jcvm"
	_ "github.com/lowent/lowentc/backend/mos6502"
	_ "github.com/lowent/lowentc/backend/wasm32"
	"github.com/lowent/lowentc/driver/middle"
	"github.com/lowent/lowentc/internal/randprog"
	"github.com/lowent/lowentc/internal/randprog/backendcheck"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
)

// mode is one target under one set of options.
type mode struct {
	name    string
	prepare func(seed uint64, p *lang.Program) (randprog.Target, error)
	// limit names the documented limit a refusal is, or "" when the
	// refusal is a gap or a bug.
	limit func(err error) string
}

// irMode runs the program in the IR interpreter compiled with o (the
// unroll budget is the seed's, as in the package's tests).
func irMode(name string, o ir.Options) mode {
	return mode{name: name, prepare: func(seed uint64, p *lang.Program) (randprog.Target, error) {
		o := o
		o.Unroll = unrollFor(seed)
		m, err := lower.Compile(p, o)
		if err != nil {
			return nil, err
		}
		return irTarget{m: m, feats: o.Features}, nil
	}, limit: noLimit}
}

// unrollFor is the IR unroll budget internal/randprog's tests give the
// program of seed: none, small (some loops), or the default.
func unrollFor(seed uint64) int {
	return []int{0, 64, ir.DefaultUnroll}[seed%3]
}

// expandAll is every expansion of the IR pass expand (what the 8- and
// 16-bit targets ask for).
const expandAll = ir.ExpandDiv | ir.ExpandRotate | ir.ExpandMulW

// allFeatures is every hardware feature `have` can ask for.
const allFeatures = lang.FeatureSet(lang.FeatPCLMUL | lang.FeatAES | lang.FeatSHA)

// irTarget runs a compiled module's exports in the IR interpreter; `have`
// answers feats there, and CheckTarget runs the VM the same way.
type irTarget struct {
	m     *ir.Module
	feats lang.FeatureSet
}

func (t irTarget) Run(fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
	return ir.Run(t.m, fn.Name, args)
}

func (t irTarget) Close() error              { return nil }
func (t irTarget) Features() lang.FeatureSet { return t.feats }

// noLimit: every refusal of the IR and of amd64 is a bug.
func noLimit(error) string { return "" }

// backendMode runs the program on a registered backend.
func backendMode(name, target string, opts backend.Options, limit func(error) string) mode {
	return mode{name: name, prepare: func(seed uint64, p *lang.Program) (randprog.Target, error) {
		t, ok := backend.Lookup(target)
		if !ok {
			return nil, fmt.Errorf("internal: no target %s", target)
		}
		r, err := middle.Prepare(t, p, opts)
		if err != nil {
			return nil, err
		}
		return backendcheck.FromRunner(r), nil
	}, limit: limit}
}

// autoLevels are the CPU levels (backend/amd64 ForceLevel: 0 computed, 1
// AES-NI, 2 AVX2, 3 AVX-512, 0x100 the SHA extensions besides) a --hw
// auto program is forced to, by seed, as its TestRandomPrograms does.
var autoLevels = []int{0, 1, 2, 3, 0x101, 0x103}

// levelFeatures is what `have` answers at a CPU level.
func levelFeatures(lvl int) lang.FeatureSet {
	var f lang.FeatureSet
	if lvl&0xff >= 1 {
		f |= lang.FeatureSet(lang.FeatAES) | lang.FeatureSet(lang.FeatPCLMUL)
	}
	if lvl&0x100 != 0 {
		f |= lang.FeatureSet(lang.FeatSHA)
	}
	return f
}

func amd64Mode(hw string) mode {
	return mode{name: "amd64/" + hw, prepare: func(seed uint64, p *lang.Program) (randprog.Target, error) {
		tg, _ := backend.Lookup("amd64")
		opts := backend.Options{HW: hw}
		r, err := amd64.Prepare(middle.New(p, tg, opts).Input(), opts)
		if err != nil {
			return nil, err
		}
		t := backendcheck.FeatureTarget{Target: backendcheck.FromRunner(r)}
		switch hw {
		case "aes":
			t.Feats = levelFeatures(1)
		case "auto":
			lvl, err := r.ForceLevel(autoLevels[seed%uint64(len(autoLevels))])
			if err != nil {
				r.Close()
				return nil, fmt.Errorf("internal: forcing the CPU level: %v", err)
			}
			t.Feats = levelFeatures(lvl)
		}
		return t, nil
	}, limit: noLimit}
}

// arm64Mode runs the program under qemu-aarch64 (`have` is true at the
// crypto level: qemu's max CPU has every extension).
func arm64Mode(hw string) mode {
	return mode{name: "arm64/" + hw, prepare: func(seed uint64, p *lang.Program) (randprog.Target, error) {
		tg, _ := backend.Lookup("arm64")
		opts := backend.Options{HW: hw}
		r, err := arm64.Prepare(middle.New(p, tg, opts).Input(), opts)
		if err != nil {
			return nil, err
		}
		all := lang.FeatureSet(lang.FeatAES) | lang.FeatureSet(lang.FeatPCLMUL) | lang.FeatureSet(lang.FeatSHA)
		t := backendcheck.FeatureTarget{Target: backendcheck.FromRunner(r)}
		switch hw {
		case "crypto":
			t.Feats = all
		case "auto":
			lvl, err := r.ForceLevel(int(seed % 2))
			if err != nil {
				r.Close()
				return nil, fmt.Errorf("internal: forcing the level: %v", err)
			}
			if lvl == 1 {
				t.Feats = all
			}
		}
		return t, nil
	}, limit: noLimit}
}

// cardLimit: the limits of a Java Card class docs/jcvm.md documents: a
// method's cells and bytecode, and the 4,096 bytes of transient RAM the
// class's work arrays may take ("Sizes of the program's arrays").
func cardLimit(err error) string {
	if limitIn(err, "transient work arrays take") != "" {
		return "work arrays over the card's transient RAM"
	}
	return limitIn(err, "local cells", "stack cells", "bytes of bytecode")
}

// c64Limit: the C64's memory and zero page, and the 255 trap ids of the
// 6502 backend (docs/mos6502.md).
func c64Limit(err error) string {
	switch l := limitIn(err, "more than the", "do not fit", "zero page exhausted", "run-time checks, more than 255"); l {
	case "more than the", "do not fit":
		return "program larger than the C64's memory"
	default:
		return l
	}
}

// limitIn returns the first of names err's message contains, unless the
// message says it is a bug.
func limitIn(err error, names ...string) string {
	s := err.Error()
	if strings.Contains(s, "BUG") || strings.Contains(s, "internal") || strings.Contains(s, "not supported") {
		return ""
	}
	for _, n := range names {
		if strings.Contains(s, n) {
			return n
		}
	}
	return ""
}

func allModes() []mode {
	return []mode{
		irMode("ir/word", ir.Options{}),
		irMode("ir/64", ir.Options{W: 64}),
		irMode("ir/32", ir.Options{W: 32}),
		irMode("ir/16", ir.Options{W: 16}),
		irMode("ir/8", ir.Options{W: 8}),
		irMode("ir/32+expand", ir.Options{W: 32, Expand: expandAll}),
		irMode("ir/8+expand", ir.Options{W: 8, Expand: expandAll}),
		irMode("ir/64+hw", ir.Options{W: 64, Features: allFeatures}),
		amd64Mode("none"),
		amd64Mode("aes"),
		amd64Mode("auto"),
		arm64Mode("none"),
		arm64Mode("crypto"),
		arm64Mode("auto"),
		backendMode("jcvm/int", "jcvm", backend.Options{}, cardLimit),
		backendMode("jcvm/no-int", "jcvm", backend.Options{NoInt: true}, cardLimit),
		backendMode("mos6502/speed", "mos6502", backend.Options{}, c64Limit),
		backendMode("mos6502/size", "mos6502", backend.Options{Opt: "size"}, c64Limit),
		backendMode("wasm32", "wasm32", backend.Options{}, noLimit),
	}
}

// result is what one program did in one mode.
type result struct {
	seed    uint64
	mode    int
	report  string // a mismatch, a timeout or a panic
	refused error
	limit   string
	dur     time.Duration // compiling and running in this mode
}

// tally is one mode's counts.
type tally struct {
	agree, mismatch, limit, refused int
	limits                          map[string]int
	dur                             time.Duration
}

func main() {
	n := flag.Int("n", 1000, "number of programs (seeds seed..seed+n-1); ignored with -for")
	seed0 := flag.Uint64("seed", 1, "first seed")
	dur := flag.Duration("for", 0, "run seeds from -seed on until this much time has passed (then finish the programs started)")
	modesFlag := flag.String("modes", "", "comma-separated modes or prefixes (ir, amd64, jcvm/int, ...); default all")
	workers := flag.Int("j", 2*runtime.NumCPU(), "programs checked at once (the backends spend much time in external tools)")
	sets := flag.Int("sets", 3, "random argument sets per export")
	timeout := flag.Duration("timeout", 3*time.Minute, "longest one program may take in one mode")
	large := flag.Bool("large", false, "generate only large programs (as LOWENT_RANDPROG_LARGE=1)")
	report := flag.String("report", "", "write every mismatch report (with the program's source) to this file")
	verbose := flag.Bool("v", false, "print every refusal and full mismatch reports")
	list := flag.Bool("list", false, "list the modes and exit")
	flag.Parse()

	modes := allModes()
	if *list {
		for _, m := range modes {
			fmt.Println(m.name)
		}
		return
	}
	if *modesFlag != "" {
		var sel []mode
		for _, m := range modes {
			for _, w := range strings.Split(*modesFlag, ",") {
				if m.name == w || strings.HasPrefix(m.name, w+"/") || strings.HasPrefix(m.name, w+"+") {
					sel = append(sel, m)
					break
				}
			}
		}
		if len(sel) == 0 {
			fmt.Fprintf(os.Stderr, "difftest: no mode matches -modes %q (see -list)\n", *modesFlag)
			os.Exit(2)
		}
		modes = sel
	}
	if *large {
		os.Setenv("LOWENT_RANDPROG_LARGE", "1")
	}
	if *workers < 1 || *sets < 1 || *n < 0 {
		fmt.Fprintln(os.Stderr, "difftest: -j, -sets must be positive and -n not negative")
		os.Exit(2)
	}

	var stop atomic.Bool
	intr := make(chan os.Signal, 1)
	signal.Notify(intr, os.Interrupt)
	go func() {
		<-intr
		fmt.Fprintln(os.Stderr, "difftest: interrupted; finishing the programs started (interrupt again to quit)")
		stop.Store(true)
		<-intr
		backend.Cleanup()
		os.Exit(130)
	}()

	start := time.Now()
	more := func(i int) bool {
		if stop.Load() {
			return false
		}
		if *dur > 0 {
			return time.Since(start) < *dur
		}
		return i < *n
	}

	var (
		mu      sync.Mutex
		results []result
		done    atomic.Int64
	)
	// Programs go out in batches: between two, amd64's build cache (a
	// driver and an object per program) is removed, so a long run does not
	// fill the disk.
	batch := 8 * *workers
	seeds := 0
	for more(seeds) {
		jobs := make(chan uint64)
		var wg sync.WaitGroup
		for w := 0; w < *workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for s := range jobs {
					rs := checkSeed(s, modes, *sets, *timeout)
					mu.Lock()
					results = append(results, rs...)
					mu.Unlock()
					if d := done.Add(1); d%100 == 0 {
						fmt.Fprintf(os.Stderr, "difftest: %d programs, %v\n", d, time.Since(start).Round(time.Second))
					}
				}
			}()
		}
		for k := 0; k < batch && more(seeds); k++ {
			jobs <- *seed0 + uint64(seeds)
			seeds++
		}
		close(jobs)
		wg.Wait()
		backend.Cleanup()
	}
	elapsed := time.Since(start)
	os.Exit(summarize(os.Stdout, modes, results, *seed0, seeds, *sets, *workers, elapsed, *report, *verbose))
}

// checkSeed runs the program of seed in every mode, one after the other,
// loading it once (again only after a mode timed out, whose goroutine may
// still be using it).
func checkSeed(seed uint64, modes []mode, sets int, timeout time.Duration) []result {
	var out []result
	fresh := false
	prog := randprog.Load(seed)
	for mi, m := range modes {
		if fresh {
			prog, fresh = randprog.Load(seed), false
		}
		t0 := time.Now()
		r := result{seed: seed, mode: mi}
		done := make(chan result, 1)
		prog := prog
		go func() {
			r := r
			defer func() {
				if x := recover(); x != nil {
					r.report = fmt.Sprintf("seed %d: panic in %s: %v", seed, m.name, x)
					done <- r
				}
			}()
			r.report, r.refused = prog.Check(sets, func(p *lang.Program) (randprog.Target, error) {
				return m.prepare(seed, p)
			})
			if r.refused != nil {
				r.limit = m.limit(r.refused)
			}
			done <- r
		}()
		select {
		case r = <-done:
		case <-time.After(timeout):
			r.report = fmt.Sprintf("seed %d: did not finish in %v (a loop that never ends?)", seed, timeout)
			fresh = true
		}
		r.dur = time.Since(t0)
		out = append(out, r)
	}
	return out
}

var (
	exportRe = regexp.MustCompile(`MISMATCH in export (\S+)`)
	argsRe   = regexp.MustCompile(`(?m)^  args: +(.*)$`)
	digitsRe = regexp.MustCompile(`[0-9]+`)
)

// summarize prints the counts and the mismatches; it returns the exit
// code: 1 when a mode got a program wrong or refused one for something
// other than a documented limit.
func summarize(w *os.File, modes []mode, results []result, seed0 uint64, n, sets, workers int, elapsed time.Duration, reportFile string, verbose bool) int {
	sort.Slice(results, func(i, j int) bool {
		if results[i].seed != results[j].seed {
			return results[i].seed < results[j].seed
		}
		return results[i].mode < results[j].mode
	})
	tallies := make([]tally, len(modes))
	for i := range tallies {
		tallies[i].limits = map[string]int{}
	}
	type refusal struct {
		mode, seeds []string
		count       int
		example     string
	}
	refusals := map[string]*refusal{}
	var reports []string
	var bad []string
	for _, r := range results {
		t := &tallies[r.mode]
		t.dur += r.dur
		name := modes[r.mode].name
		switch {
		case r.report != "":
			t.mismatch++
			line := fmt.Sprintf("seed %d %s", r.seed, name)
			if m := exportRe.FindStringSubmatch(r.report); m != nil {
				line += " export " + m[1]
			}
			if m := argsRe.FindStringSubmatch(r.report); m != nil {
				line += " args: " + m[1]
			} else {
				line += ": " + firstLine(r.report)
			}
			line += fmt.Sprintf("\n    replay: go run ./internal/randprog/cmd/difftest -seed %d -n 1 -modes %s -v", r.seed, name)
			bad = append(bad, line)
			reports = append(reports, fmt.Sprintf("== seed %d, %s\n%s\n", r.seed, name, r.report))
		case r.refused != nil && r.limit != "":
			t.limit++
			t.limits[r.limit]++
		case r.refused != nil:
			t.refused++
			key := name + ": " + digitsRe.ReplaceAllString(firstLine(r.refused.Error()), "N")
			rf := refusals[key]
			if rf == nil {
				rf = &refusal{example: firstLine(r.refused.Error())}
				refusals[key] = rf
			}
			rf.count++
			if len(rf.seeds) < 5 {
				rf.seeds = append(rf.seeds, fmt.Sprint(r.seed))
			}
			if verbose {
				fmt.Fprintf(w, "refused: seed %d %s: %v\n", r.seed, name, r.refused)
			}
		default:
			t.agree++
		}
	}

	fmt.Fprintf(w, "difftest: seeds %d..%d: %d programs, %d argument sets per export, %d modes, %d workers on %d CPUs\n",
		seed0, seed0+uint64(n)-1, n, sets, len(modes), workers, runtime.NumCPU())
	ppm := 0.0
	if elapsed > 0 {
		ppm = float64(n) / elapsed.Minutes()
	}
	fmt.Fprintf(w, "time %v: %.1f programs/minute (each through every mode); the time column adds up the workers' time per mode\n\n", elapsed.Round(time.Second), ppm)
	fmt.Fprintf(w, "%-16s %7s %9s %9s %9s %9s\n", "mode", "agree", "mismatch", "limit", "refused", "time")
	var wrong, refused int
	for i, m := range modes {
		t := tallies[i]
		fmt.Fprintf(w, "%-16s %7d %9d %9d %9d %8.0fs", m.name, t.agree, t.mismatch, t.limit, t.refused, t.dur.Seconds())
		if len(t.limits) > 0 {
			var ks []string
			for k, v := range t.limits {
				ks = append(ks, fmt.Sprintf("%s: %d", k, v))
			}
			sort.Strings(ks)
			fmt.Fprintf(w, "   limits (documented): %s", strings.Join(ks, ", "))
		}
		fmt.Fprintln(w)
		wrong += t.mismatch
		refused += t.refused
	}
	if len(refusals) > 0 {
		fmt.Fprintf(w, "\nrefusals that are not a documented limit:\n")
		var ks []string
		for k := range refusals {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			rf := refusals[k]
			fmt.Fprintf(w, "  %4d  %s\n        e.g. seeds %s: %s\n", rf.count, k, strings.Join(rf.seeds, " "), rf.example)
		}
	}
	if len(bad) > 0 {
		fmt.Fprintf(w, "\nmismatches:\n")
		for _, b := range bad {
			fmt.Fprintf(w, "  %s\n", b)
		}
		if verbose {
			fmt.Fprintf(w, "\n%s", strings.Join(reports, "\n"))
		}
	}
	if reportFile != "" && len(reports) > 0 {
		if err := os.WriteFile(reportFile, []byte(strings.Join(reports, "\n")), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "difftest: %v\n", err)
		} else {
			fmt.Fprintf(w, "full reports in %s\n", reportFile)
		}
	}
	if wrong > 0 || refused > 0 {
		return 1
	}
	return 0
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
