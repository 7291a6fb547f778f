package llvm

import (
	"fmt"
	"strings"
	"syscall"
	"testing"

	llir "github.com/llir/llvm/ir"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/driver/middle"
	"github.com/lowent/lowentc/internal/backendtest"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/sem"
)

// TestMain removes the build cache's directory when the tests end.
func TestMain(m *testing.M) { backendtest.Main(m) }

// plain is the smallest Target: the host's triple, one variant, no
// `have` feature and no instruction for any builtin (a program that uses
// one is refused).
type plain struct{}

func (plain) Name() string       { return "plain" }
func (plain) Triple() string     { return "x86_64-unknown-linux-gnu" }
func (plain) DataLayout() string { return "e-m:e-i64:64-n8:16:32:64-S128" }
func (plain) Configure(opts backend.Options) (Config, error) {
	if opts.HW != "" {
		return nil, fmt.Errorf("plain: no --hw")
	}
	return plainConfig{}, nil
}

type plainConfig struct{}

func (plainConfig) Variants(*ir.Function) []Variant { return []Variant{plainVariant{}} }
func (plainConfig) Dispatcher(*Module, string, []*llir.Func, []Variant) *llir.Func {
	panic("BUG: plain: one variant, no dispatcher")
}
func (plainConfig) Dispatched() bool         { return false }
func (plainConfig) Header(string) string     { return "" }
func (plainConfig) Describe() string         { return "plain" }
func (plainVariant) Suffix() string          { return "plain" }
func (plainVariant) Features() string        { return "" }
func (plainVariant) Selector(*Func) Selector { return plainSelector{} }

type plainVariant struct{}

type plainSelector struct{}

func (plainSelector) Have(sem.Feature) bool      { return false }
func (plainSelector) Plan(*ir.Block) any         { return nil }
func (plainSelector) Select(*ir.Instr, any) bool { return false }
func (plainSelector) Builtin(in *ir.Instr) error { return fmt.Errorf("plain: no %s", in.Op) }

// load checks src and returns it as the driver hands it to a backend.
func load(t *testing.T, name, src string) (*lang.Program, *backend.Input) {
	t.Helper()
	p := testprog.Source(t, name, src)
	return p, middle.New(p, &backend.Target{Name: "plain", Emits: Emits}, backend.Options{}).Input()
}

// TestPlainTarget: the target-independent part compiles and runs a
// program for a Target that is not amd64, with that target's triple and
// data layout and its name in messages.
func TestPlainTarget(t *testing.T) {
	p, in := load(t, "p.lw", `module p
export fn f(x: u32, y: u32) -> u32 effects none { return (x * y) ^ (x >> 3) }
`)
	ll, err := Compile(plain{}, in, backend.Options{Emit: "ll"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`target triple = "x86_64-unknown-linux-gnu"`, `target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"`} {
		if !strings.Contains(string(ll), want) {
			t.Errorf("no %s in\n%s", want, ll)
		}
	}
	r, err := Prepare(plain{}, in, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, st, err := r.Run(p.Export("f").Name, []lang.Value{{Word: 1000}, {Word: 7}})
	if err != nil {
		t.Fatal(err)
	}
	if want := uint64(7000 ^ 125); got[0].Word != want {
		t.Errorf("f(1000, 7) = %d, want %d", got[0].Word, want)
	}
	if !strings.Contains(st.String(), "hw=plain\n") {
		t.Errorf("stats %q do not describe the configuration", st)
	}
	if _, err := r.ForceDispatch(1); err == nil || err.Error() != "plain: ForceDispatch needs a dispatched program" {
		t.Errorf("ForceDispatch: %v", err)
	}
	if _, err := Compile(plain{}, in, backend.Options{HW: "auto", Emit: "ll"}); err == nil || err.Error() != "plain: no --hw" {
		t.Errorf("Configure's error: %v", err)
	}
}

// TestPlainBuiltin: a builtin the target cannot select is its error, not
// a panic.
func TestPlainBuiltin(t *testing.T) {
	_, in := load(t, "c.lw", `module c
export fn f(x: u64, y: u64) -> u64 effects none { return clmul_lo(x, y) }
`)
	_, err := Compile(plain{}, in, backend.Options{Emit: "ll"})
	if err == nil || !strings.Contains(err.Error(), "plain: no clmul_lo") {
		t.Errorf("error %v, want the target's", err)
	}
}

// TestDriverDied: a driver killed by a signal (as a stack overflow kills
// it) is reported as such, not as the "EOF" its pipe gives.
func TestDriverDied(t *testing.T) {
	p, in := load(t, "d.lw", `module d
export fn f(x: u8) -> u8 effects none { return x + 1 }
`)
	r, err := Prepare(plain{}, in, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fn := p.Export("f")
	if _, _, err := r.Run(fn.Name, []lang.Value{{Word: 1}}); err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Process.Signal(syscall.SIGSEGV); err != nil {
		t.Fatal(err)
	}
	_, _, err = r.Run(fn.Name, []lang.Value{{Word: 1}})
	if err == nil || !strings.Contains(err.Error(), "plain: the driver died (signal: segmentation fault) during the call") {
		t.Errorf("error %v, want the driver's death by SIGSEGV", err)
	}
	// The next call starts a new driver.
	if got, _, err := r.Run(fn.Name, []lang.Value{{Word: 1}}); err != nil || got[0].Word != 2 {
		t.Errorf("after the crash: %v, %v", got, err)
	}
}

// TestParamNamedLikeBlock: parameters named like the emitter's basic
// blocks (b1, entry, call, overlap) compile and run; LLVM refused a block
// whose name a parameter had taken.
func TestParamNamedLikeBlock(t *testing.T) {
	p, in := load(t, "n.lw", `module n
export fn f(b1: u32, b2: [2]u8, call: u8, entry: u8, overlap: u8) -> u32 requires b1 < 100 effects none {
    return b1 + (b2[0] as u32) + (call as u32) + (entry as u32) + (overlap as u32)
}
`)
	r, err := Prepare(plain{}, in, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, _, err := r.Run(p.Export("f").Name, []lang.Value{{Word: 1}, {Elems: []uint64{2, 3}, IsArray: true}, {Word: 4}, {Word: 5}, {Word: 6}})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Word != 18 {
		t.Errorf("f = %d, want 18", got[0].Word)
	}
}

// TestMissingTool: a tool not on PATH is named with its package, and
// only the tools the step needs are (wasm32 needs neither ar nor gcc).
func TestMissingTool(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := tool(plain{}, t.TempDir(), "llc", "--version")
	want := "plain: llc not found on PATH (LLVM 14, Debian package llvm-14; ./setup.sh installs it)"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want %s: ...", err, want)
	}
}
