package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/codegen")

// codegenDir holds the snapshot programs NAME.lw and their golden
// artifacts NAME.EXT.golden (data, not source: the suffix keeps tools that
// read source away from them).
const codegenDir = "../../testdata/codegen"

// codegenArtifacts are the artifacts compiled from every program: the
// golden file NAME.ext.golden holds what `lowentc ARGS NAME.lw` prints.
var codegenArtifacts = []struct {
	ext  string
	args []string
}{
	{"w8.ir", []string{"--target", "ir", "--width", "8", "--emit", "ir"}},
	{"none.ll", []string{"--target", "amd64", "--hw", "none", "--emit", "ll"}},
	{"auto.ll", []string{"--target", "amd64", "--hw", "auto", "--emit", "ll"}},
	{"arm64.none.ll", []string{"--target", "arm64", "--hw", "none", "--emit", "ll"}},
	{"arm64.auto.ll", []string{"--target", "arm64", "--hw", "auto", "--emit", "ll"}},
	{"int.java", []string{"--target", "jcvm", "--emit", "java"}},
	{"int.jca", []string{"--target", "jcvm", "--emit", "jca"}},
	{"noint.java", []string{"--target", "jcvm", "--no-int", "--emit", "java"}},
	{"noint.jca", []string{"--target", "jcvm", "--no-int", "--emit", "jca"}},
	{"speed.asm", []string{"--target", "mos6502", "--opt", "speed", "--emit", "asm"}},
	{"size.asm", []string{"--target", "mos6502", "--opt", "size", "--emit", "asm"}},
	{"balanced.asm", []string{"--target", "mos6502", "--opt", "balanced", "--emit", "asm"}},
	{"wasm32.ll", []string{"--target", "wasm32", "--emit", "ll"}},
	{"wasm32.d.ts", []string{"--target", "wasm32", "--emit", "dts"}},
}

// TestCodegenSnapshots compiles every testdata/codegen/NAME.lw to each
// artifact twice (the two must be the same: the output is deterministic)
// and compares it with the golden file NAME.EXT.golden. `go test ./cmd/lowentc
// -run TestCodegenSnapshots -update` rewrites the golden files and
// removes the ones no program produces; without -update, such a file
// fails the test, as does a missing one. The compiler runs in
// testdata/codegen, so positions in the artifacts read NAME.lw:LINE:COL.
func TestCodegenSnapshots(t *testing.T) {
	dir, err := filepath.Abs(codegenDir)
	if err != nil {
		t.Fatal(err)
	}
	progs, err := filepath.Glob(filepath.Join(dir, "*.lw"))
	if err != nil {
		t.Fatal(err)
	}
	if len(progs) == 0 {
		t.Fatalf("no programs in %s", dir)
	}
	t.Chdir(dir)
	produced := map[string]bool{}
	for _, prog := range progs {
		src := filepath.Base(prog)
		name := strings.TrimSuffix(src, ".lw")
		produced[src] = true
		for _, a := range codegenArtifacts {
			golden := goldenName(name, a.ext)
			produced[golden] = true
			t.Run(golden, func(t *testing.T) {
				args := append(append([]string{}, a.args...), src)
				status, out, errs := lowentc(args...)
				if status != exitOK {
					t.Fatalf("lowentc %s: status %d\n%s", strings.Join(args, " "), status, errs)
				}
				if _, again, _ := lowentc(args...); again != out {
					t.Fatalf("lowentc %s printed something else the second time (line %d differs)",
						strings.Join(args, " "), firstDiffLine(out, again))
				}
				if *update {
					if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./cmd/lowentc -run TestCodegenSnapshots -update to write it)", err)
				}
				if string(want) != out {
					line := firstDiffLine(string(want), out)
					t.Errorf("lowentc %s differs from testdata/codegen/%s from line %d:\n  golden: %s\n  now:    %s\n"+
						"(if the change is intended, rewrite with go test ./cmd/lowentc -run TestCodegenSnapshots -update and review the diff)",
						strings.Join(args, " "), golden, line, lineOf(string(want), line), lineOf(out, line))
				}
			})
		}
	}
	// A golden file that no program and artifact produce is a test that
	// no longer runs: an error, or removed by -update.
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var stale []string
	for _, e := range entries {
		if !produced[e.Name()] {
			stale = append(stale, e.Name())
		}
	}
	sort.Strings(stale)
	for _, s := range stale {
		if *update {
			if err := os.Remove(s); err != nil {
				t.Error(err)
			}
			t.Logf("removed testdata/codegen/%s, which no program produces", s)
			continue
		}
		t.Error(staleMessage(s, produced))
	}
}

// goldenSuffix ends the name of every golden file of testdata/codegen.
const goldenSuffix = ".golden"

// goldenName is the golden file of program NAME's artifact ext.
func goldenName(name, ext string) string { return name + "." + ext + goldenSuffix }

// staleMessage says why the file s of testdata/codegen, which no program
// and artifact produce, fails the test.
func staleMessage(s string, produced map[string]bool) string {
	if produced[s+goldenSuffix] {
		// A branch from before the golden files took their suffix wrote
		// this one with -update.
		return fmt.Sprintf("testdata/codegen/%s is the old name of %s%s (remove it, or run with -update)", s, s, goldenSuffix)
	}
	return fmt.Sprintf("testdata/codegen/%s is not produced by any program and artifact of TestCodegenSnapshots (remove it, or run with -update)", s)
}

// firstDiffLine is the 1-based number of the first line where a and b
// differ.
func firstDiffLine(a, b string) int {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

// lineOf is line n (1-based) of s, or "(end of file)".
func lineOf(s string, n int) string {
	ls := strings.Split(s, "\n")
	if n-1 < len(ls) {
		return ls[n-1]
	}
	return "(end of file)"
}

// TestCodegenGoldenNames: the golden files are NAME.EXT.golden, and a file
// under the name it had before the suffix is named as such.
func TestCodegenGoldenNames(t *testing.T) {
	if got := goldenName("add64", "auto.ll"); got != "add64.auto.ll.golden" {
		t.Errorf("goldenName(add64, auto.ll) = %q", got)
	}
	produced := map[string]bool{"add64.lw": true, goldenName("add64", "auto.ll"): true}
	if msg := staleMessage("add64.auto.ll", produced); !strings.Contains(msg, "old name of add64.auto.ll.golden") {
		t.Errorf("old name: %s", msg)
	}
	if msg := staleMessage("gone.size.asm.golden", produced); !strings.Contains(msg, "not produced by any program") {
		t.Errorf("stale file: %s", msg)
	}
}
