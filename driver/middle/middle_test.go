package middle

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

const src = `module two
fn helper(x: u32) -> u32 effects none { return (x <<< 3) + 1 }
export fn top(x: u32, out: mut [2]u32) -> u32 effects none {
    var t: [3]u32
    t[0] = helper(x)
    out[0] = t[0]
    return helper(x ^ 9)
}
`

func load(t *testing.T) *lang.Program {
	t.Helper()
	p := testprog.Source(t, "two.lw", src)
	return p
}

// TestPlansCompiledOnce: a plan asked for again is not compiled again (its
// dump is recorded once), every request gets its own copy, and only the
// dump of the plan the target used is written.
func TestPlansCompiledOnce(t *testing.T) {
	p := load(t)
	var used *ir.Module
	tg := &backend.Target{Name: "fake", Emits: []string{"txt"},
		Compile: func(in *backend.Input, opts backend.Options) ([]byte, error) {
			// A search: two plans, the first asked for three times.
			a := ir.Options{W: 8, InlineBudget: ir.InlineNone}
			b := ir.Options{W: 16, Unroll: ir.DefaultUnroll}
			var ms []*ir.Module
			for _, o := range []ir.Options{a, b, a, a} {
				m, err := in.Module(o)
				if err != nil {
					return nil, err
				}
				ms = append(ms, m)
			}
			if ms[0] == ms[2] || ms[0].String() != ms[2].String() {
				t.Errorf("a plan asked for again is not a fresh copy of the same module")
			}
			ms[0].Funcs = nil // the backend's to change: the next copy is whole
			if len(ms[3].Funcs) == 0 {
				t.Errorf("a change to one copy reached another")
			}
			used = ms[1]
			in.Use(used)
			return []byte("artifact"), nil
		}}
	var dump bytes.Buffer
	opts := backend.Options{DumpAfter: "lower", Dump: &dump}
	s := New(p, tg, opts)
	if _, err := s.Compile(opts); err != nil {
		t.Fatal(err)
	}
	if len(s.plans) != 2 {
		t.Errorf("%d plans compiled, want 2", len(s.plans))
	}
	if n := strings.Count(dump.String(), "# after lower"); n != 1 {
		t.Errorf("%d dumps written, want the used plan's only:\n%s", n, dump.String())
	}
	if got := string(s.IR()); got != used.String() || !strings.HasPrefix(got, "module two w=16\n") {
		t.Errorf("--emit ir is not the module used:\n%s", got)
	}
	in := s.Input()
	if len(in.Exports) != 1 || in.Exports[0].Name != "top" || len(in.Exports[0].Sig.Params) != 2 || !in.Exports[0].Sig.Params[1].Mut {
		t.Errorf("exports: %+v", in.Exports)
	}
	if len(in.Chains) != 1 || in.Chains[0].Bytes != 12 || !strings.HasPrefix(in.Chains[0].Where, "the largest t of top") {
		t.Errorf("chains: %+v", in.Chains)
	}
	var names []string
	for _, a := range in.Arrays {
		names = append(names, a.What+" "+a.Name)
	}
	if got := strings.Join(names, ", "); got != "parameter out, local array t" {
		t.Errorf("arrays: %s", got)
	}
}

// TestEmitIRUsesDefaultArtifact: --emit ir compiles the target's default
// artifact (its errors are the command's) and prints the module used.
func TestEmitIRUsesDefaultArtifact(t *testing.T) {
	p := load(t)
	var kinds []string
	tg := &backend.Target{Name: "fake", Emits: []string{"txt", "bin"},
		Compile: func(in *backend.Input, opts backend.Options) ([]byte, error) {
			kinds = append(kinds, opts.Emit)
			m, err := in.Module(ir.Options{W: 32})
			if err != nil {
				return nil, err
			}
			in.Use(m)
			return []byte("artifact"), nil
		}}
	out, err := Compile(tg, p, backend.Options{Emit: "ir"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "module two w=32\n") || strings.Join(kinds, " ") != "txt" {
		t.Errorf("kinds %v, output:\n%s", kinds, out)
	}
}
