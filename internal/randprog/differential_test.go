package randprog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lowent/lowentc/internal/testlong"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
)

// irWidths are the limb widths the IR is compiled at; 0 is the word IR
// without legalization. The last two are compiled with every limb
// expansion a small target asks for (ir.Options.Expand).
var irWidths = []int{0, 64, 32, 16, 8, 32, 8}

// irOptions are the pipeline options of width index i.
func irOptions(i, unroll int, verify bool) ir.Options {
	o := ir.Options{W: irWidths[i], Unroll: unroll, Verify: verify}
	if i >= 5 {
		o.Expand = expandAll
	}
	return o
}

// allFeatures is every hardware feature `have` can ask for.
var allFeatures = lang.FeatureSet(lang.FeatPCLMUL | lang.FeatAES | lang.FeatSHA)

// expandAll is every expansion of pass expand.
const expandAll = ir.ExpandDiv | ir.ExpandRotate | ir.ExpandMulW

// unrollFor chooses a program's unrolling budget: none, small (some loops),
// or the default that unrolls every loop of the standard library (cmd
// difftest gives the IR the same budgets).
func unrollFor(seed uint64) int {
	return []int{0, 64, ir.DefaultUnroll}[seed%3]
}

// argSets is how many random argument sets each export runs on.
const argSets = 3

// verifyAll runs the IR checker after every pass for every program
// (LOWENT_RANDPROG_VERIFY=1); by default one program in sixteen.
var verifyAll = os.Getenv("LOWENT_RANDPROG_VERIFY") != ""

// regressions are seeds that once made the engines disagree (or the
// checker reject a generated program). Each runs with more argument sets.
var regressions = []struct {
	name string
	seed uint64
}{}

// TestDifferential runs LOWENT_RANDPROG_N random programs (default
// defaultPrograms, longPrograms with LOWENT_LONG=1) from LOWENT_RANDPROG_SEED0 (default 1) on the VM and on the IR at every
// limb width and requires the same results, mut outputs and traps.
//
// The long campaign (LOWENT_LONG=1) also runs largePrograms programs that
// are all large, as LOWENT_RANDPROG_LARGE=1 makes them.
func TestDifferential(t *testing.T) {
	forEachSeed(t, firstSeed(t), numPrograms(t), func(seed uint64) string {
		return checkSeedTimed(seed, argSets)
	})
	if testlong.On() && os.Getenv("LOWENT_RANDPROG_LARGE") == "" {
		t.Run("large", func(t *testing.T) {
			t.Setenv("LOWENT_RANDPROG_LARGE", "1")
			forEachSeed(t, firstSeed(t), largePrograms, func(seed uint64) string {
				return checkSeedTimed(seed, argSets)
			})
		})
	}
}

// largePrograms is how many all-large programs the long campaign adds.
const largePrograms = 100

// TestDifferentialRegressions replays the seeds that once failed, and the
// hand-minimised programs of testdata/regress (failures found with earlier
// versions of the generator, whose seeds no longer give the same program,
// and semantic corners worth keeping), with more argument sets.
func TestDifferentialRegressions(t *testing.T) {
	for _, r := range regressions {
		t.Run(r.name, func(t *testing.T) {
			if msg := checkSeedTimed(r.seed, 4*argSets); msg != "" {
				t.Errorf("seed %d:\n%s", r.seed, msg)
			}
		})
	}
	files, err := filepath.Glob(filepath.Join("testdata", "regress", "*.lw"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no regression programs in testdata/regress: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".lw"), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p, err := loadSource(string(src))
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			re := repro{
				test: fmt.Sprintf("go test ./internal/randprog -run 'TestDifferentialRegressions/%s' -v", filepath.Base(f)),
				file: f,
			}
			for _, unroll := range []int{0, ir.DefaultUnroll} {
				if msg := checkProgram(p, string(src), 1, 4*argSets, unroll, true, re); msg != "" {
					t.Error(msg)
				}
			}
		})
	}
}

// checkSeedTimed is checkSeed with a deadline, so that an engine that loops
// forever is reported with its seed instead of hanging the test.
func checkSeedTimed(seed uint64, nargs int) string {
	done := make(chan string, 1)
	go func() { done <- checkSeed(seed, nargs) }()
	select {
	case msg := <-done:
		return msg
	case <-time.After(60 * time.Second):
		src := Generate(seed, configFor(seed))
		return fmt.Sprintf("did not finish in 60s (an engine loops?)\n%s\nsource:\n%s", repro{test: seedCommand(seed), seed: seed}, numbered(src))
	}
}

// checkSeed generates, checks and compiles the program of seed, and runs
// every export on nargs argument sets on the VM and the IR at every width.
// It returns a report of the first disagreement, or "".
func checkSeed(seed uint64, nargs int) string {
	src, p, err := loadShared(seed)
	if err != nil {
		return fmt.Sprintf("the checker rejects the generated program:\n%v\n%s\nsource:\n%s", err, reproHint(seed), numbered(src))
	}
	re := repro{test: seedCommand(seed), seed: seed}
	return checkProgram(p, src, seed, nargs, unrollFor(seed), verifyAll || seed%16 == 0, re)
}

// repro says how to replay a failure: a test command, and the source file
// (a regression program) or the seed whose program is saved on failure.
type repro struct {
	test string
	file string
	seed uint64
}

// String prints the test command, and writes a generated program to a
// temporary file for lowentc.
func (r repro) String() string {
	s := "  reproduce: " + r.test + "\n"
	if r.file == "" {
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("randprog-%d", r.seed))
		var err error
		if err = os.MkdirAll(dir, 0o755); err == nil {
			r.file, err = WriteFiles(r.seed, dir)
		}
		if err != nil {
			return s + fmt.Sprintf("  (could not save the source: %v)\n", err)
		}
	}
	return s + "  source file: " + r.file + "\n"
}

// checkProgram compiles p at every width and runs every export on nargs
// argument sets (drawn from seed) on the VM and the IR.
func checkProgram(p *lang.Program, src string, seed uint64, nargs, unroll int, verify bool, re repro) string {
	mods := make([]*ir.Module, len(irWidths))
	for i, w := range irWidths {
		m, err := lower.Compile(p, irOptions(i, unroll, verify))
		if err != nil {
			return fmt.Sprintf("lower.Compile at W=%d (unroll %d) failed: %v\n%s\nsource:\n%s", w, unroll, err, re, numbered(src))
		}
		mods[i] = m
	}
	// A machine with every hardware feature: `have` is true, and the
	// SHA-256 builtins stay instructions in the IR at W=64.
	allOpts := ir.Options{W: 64, Unroll: unroll, Verify: verify, Features: allFeatures}
	mAll, err := lower.Compile(p, allOpts)
	if err != nil {
		return fmt.Sprintf("lower.Compile at W=64 with every feature (unroll %d) failed: %v\n%s\nsource:\n%s", unroll, err, re, numbered(src))
	}
	for ei, fn := range p.Exports() {
		for _, args := range argumentSets(seed, ei, fn, nargs) {
			vmo := runVM(p, fn, args)
			switch {
			case vmo.trap && strings.Contains(vmo.err, "checker bug"):
				return mismatch(re, src, fn, args, -1, unroll, vmo, outcome{err: "(the VM found a failing check the checker had proven)"})
			case vmo.err != "" && !vmo.trap && !vmo.fault:
				return mismatch(re, src, fn, args, -1, unroll, vmo, outcome{err: "(the VM failed)"})
			}
			for i, w := range irWidths {
				if iro := runIR(mods[i], fn, args); !agree(vmo, iro) {
					return mismatch(re, src, fn, args, w, unroll, vmo, iro)
				}
			}
			vma := runVMWith(p, fn, args, allFeatures)
			if iro := runIR(mAll, fn, args); !agree(vma, iro) {
				return mismatch(re, src, fn, args, 64, unroll, vma, outcome{err: "(with every feature) " + iro.String()})
			}
		}
	}
	return ""
}

// mismatch reports a disagreement with everything needed to reproduce it.
func mismatch(re repro, src string, fn *lang.FuncDecl, args []lang.Value, w, unroll int, vmo, iro outcome) string {
	var b strings.Builder
	fmt.Fprintf(&b, "MISMATCH in export %s at W=%d (unroll %d)\n", fn.Name, w, unroll)
	fmt.Fprintf(&b, "  args: %s\n", argWords(fn, args))
	fmt.Fprintf(&b, "  vm:   %s\n", vmo)
	fmt.Fprintf(&b, "  ir:   %s\n", iro)
	b.WriteString(re.String())
	width := w
	if w <= 0 {
		width = 64
	}
	fmt.Fprintf(&b, "  or: lowentc run --target ir --width %d FILE %s %s   (--target vm for the reference)\n", width, fn.Name, argWords(fn, args))
	fmt.Fprintf(&b, "source:\n%s", numbered(src))
	return b.String()
}

// seedCommand is the shortest command that replays one seed.
func seedCommand(seed uint64) string {
	large := ""
	if os.Getenv("LOWENT_RANDPROG_LARGE") != "" {
		large = "LOWENT_RANDPROG_LARGE=1 "
	}
	return fmt.Sprintf(large+"LOWENT_RANDPROG_SEED0=%d LOWENT_RANDPROG_N=1 go test ./internal/randprog -run 'TestDifferential$' -v", seed)
}

// reproHint is the reproduction line of a seed.
func reproHint(seed uint64) string { return "  reproduce: " + seedCommand(seed) + "\n" }
