package testlong

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// fuzzTime is how long the long campaign runs each fuzz target.
const fuzzTime = "45s"

var fuzzFunc = regexp.MustCompile(`(?m)^func (Fuzz\w+)\(f \*testing\.F\)`)

// fuzzTargets finds every fuzz target of the module: package directory
// (relative to root, as ./dir) and function name.
func fuzzTargets(t *testing.T, root string) [][2]string {
	var out [][2]string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		for _, m := range fuzzFunc.FindAllStringSubmatch(string(src), -1) {
			out = append(out, [2]string{"./" + filepath.ToSlash(rel), m[1]})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0]+out[i][1] < out[j][0]+out[j][1] })
	return out
}

// TestFuzzTargets is the fuzzing of the long campaign: with LOWENT_LONG=1
// every fuzz target of the module runs for fuzzTime (go test -fuzz); a
// failure prints the input go test saved under the package's
// testdata/fuzz. In the default suite the targets run only on their seed
// corpora, as their own packages' tests.
func TestFuzzTargets(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	targets := fuzzTargets(t, root)
	if len(targets) < 2 {
		t.Fatalf("found %d fuzz targets, want FuzzParse and FuzzLoad at least: %v", len(targets), targets)
	}
	if !On() {
		t.Skipf("fuzzing %d targets for %s each is part of the long campaign (%s=1)", len(targets), fuzzTime, Env)
	}
	for _, ft := range targets {
		cmd := exec.Command("go", "test", ft[0], "-run", "^$", "-fuzz", "^"+ft[1]+"$", "-fuzztime", fuzzTime)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("go test %s -fuzz %s: %v\n%s", ft[0], ft[1], err, out)
			continue
		}
		t.Logf("%s %s: %s", ft[0], ft[1], lastLine(string(out)))
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
