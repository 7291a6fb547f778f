package ir_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lower"
)

// TestDumpOncePerPass checks that -d dump=PASS prints the module once
// even for a pass the pipeline runs several times (fold, sroa, ...): each
// function appears once, after the pass's last run.
func TestDumpOncePerPass(t *testing.T) {
	p := load(t, `module two
fn helper(x: u32) -> u32 effects none { return x + 1 }
export fn top(x: u32) -> u32 effects none { return helper(x) ^ helper(x ^ 5) }
`)
	for _, pass := range ir.PassNames() {
		var b bytes.Buffer
		if _, err := lower.Compile(p, ir.Options{W: 32, Unroll: ir.DefaultUnroll, InlineBudget: ir.InlineNone, DumpAfter: pass, Dump: &b}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if n := strings.Count(out, "# after "); n != 1 {
			t.Errorf("dump=%s: %d dumps, want 1:\n%s", pass, n, out)
		}
		for _, fn := range []string{"func top(", "func helper("} {
			if n := strings.Count(out, fn); n != 1 {
				t.Errorf("dump=%s: %s printed %d times, want 1", pass, fn, n)
			}
		}
	}
	// The dump of a repeated pass is the module after its last run.
	var last, all bytes.Buffer
	lower.Compile(p, ir.Options{W: 32, Unroll: ir.DefaultUnroll, DumpAfter: "fold", Dump: &last})
	lower.Compile(p, ir.Options{W: 32, Unroll: ir.DefaultUnroll, DumpAfter: "all", Dump: &all})
	dumps := strings.Split(all.String(), "# after ")
	var want string
	for _, d := range dumps {
		if strings.HasPrefix(d, "fold") {
			want = "# after " + d
		}
	}
	if last.String() != want {
		t.Errorf("dump=fold is not the module after fold's last run:\n%s\nwant:\n%s", last.String(), want)
	}
}

// TestPassNamesDistinct checks the pipeline's instance names are distinct
// and that the order check catches a broken order or a repeated name.
func TestPassNamesDistinct(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range ir.Passes {
		if seen[p.Name] {
			t.Errorf("two passes named %s", p.Name)
		}
		seen[p.Name] = true
	}
	if err := ir.CheckPipeline(ir.Passes); err != nil {
		t.Errorf("the pipeline breaks its own order: %v", err)
	}
	swapped := append([]ir.Pass(nil), ir.Passes...)
	for i, p := range swapped {
		if p.Name == "legalize" {
			swapped[i], swapped[i+1] = swapped[i+1], swapped[i]
			break
		}
	}
	if err := ir.CheckPipeline(swapped); err == nil || !strings.Contains(err.Error(), "legalize must run before expand") {
		t.Errorf("expand before legalize: got %v", err)
	}
	dup := append(append([]ir.Pass(nil), ir.Passes...), ir.Passes[2])
	if err := ir.CheckPipeline(dup); err == nil || !strings.Contains(err.Error(), "two passes are named") {
		t.Errorf("a repeated name: got %v", err)
	}
}
