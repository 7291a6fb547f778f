package middle

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

const linkSrc = `module lk
export fn round(a: u64, b: u64, c: u64, d: u64) -> (u64, u64) effects none {
    let (x, y) = aes_enc(a, b, c, d)
    let (z, w) = aes_enclast(x, y, d, c)
    return z ^ clmul_lo(a, c), w ^ clmul_hi(b, d)
}
`

// TestLinkRuntime compiles a program using the AES and clmul builtins
// with a plan that links the runtime: no builtin op is left, whatever the
// width and inlining policy (with KeepHave, each is left in an `if have`
// whose other branch is the runtime's, which the interpreter, a machine
// without features, takes), and the answers are the builtins'.
func TestLinkRuntime(t *testing.T) {
	p := testprog.Source(t, "lk.lw", linkSrc)
	s := New(p, &backend.Target{Name: "test"}, backend.Options{})
	rng := rand.New(rand.NewSource(2))
	for _, w := range []int{64, 32, 8} {
		for _, budget := range []int{ir.InlineAll, 16} {
			for _, keep := range []bool{false, true} {
				if keep && (w != 64 || budget != ir.InlineAll) {
					continue // amd64's plan
				}
				t.Run(fmt.Sprintf("W=%d/inline=%d/keephave=%v", w, budget, keep), func(t *testing.T) {
					o := ir.Options{W: w, Unroll: ir.DefaultUnroll, InlineBudget: budget, KeepHave: keep, Link: ir.LinkAES | ir.LinkClmul, Verify: true}
					m, err := s.Input().Module(o)
					if err != nil {
						t.Fatal(err)
					}
					ops := 0
					for _, f := range m.Funcs {
						walk(f.Body, func(in *ir.Instr) {
							switch in.Op {
							case ir.OpAESEnc, ir.OpAESEncLast, ir.OpClmulLo, ir.OpClmulHi:
								ops++
							}
						})
					}
					if want := map[bool]int{false: 0, true: 4}[keep]; ops != want {
						t.Errorf("%d builtin ops left, want %d:\n%s", ops, want, m)
					}
					check(t, m, rng)
				})
			}
		}
	}
}

// check compares round in m with the builtins' meaning.
func check(t *testing.T, m *ir.Module, rng *rand.Rand) {
	t.Helper()
	for i := 0; i < 8; i++ {
		a, b, c, d := rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64()
		x, y := sem.AESEnc(a, b, c, d)
		z, v := sem.AESEncLast(x, y, d, c)
		want := []uint64{z ^ sem.ClmulLo(a, c), v ^ sem.ClmulHi(b, d)}
		got, err := ir.Run(m, "round", []sem.Value{{Word: a}, {Word: b}, {Word: c}, {Word: d}})
		if err != nil {
			t.Fatal(err)
		}
		if got[0].Word != want[0] || got[1].Word != want[1] {
			t.Fatalf("round = %#x %#x, want %#x", got[0].Word, got[1].Word, want)
		}
	}
}

func walk(b *ir.Block, fn func(*ir.Instr)) {
	for _, in := range b.Instrs {
		fn(in)
		for _, sub := range in.Blocks {
			walk(sub, fn)
		}
	}
}
