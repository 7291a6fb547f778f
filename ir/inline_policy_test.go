package ir_test

import (
	"fmt"
	"strings"
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
	"github.com/lowent/lowentc/stdlib/golden"
)

// testBudget is the small inlining budget the call-keeping tests use: at
// W=8 it keeps BLAKE2b's G and compress, SHA-256's compress and GHASH's
// field multiplication out of line and inlines byte swaps and the like.
const testBudget = 16

// TestGoldenIRCalls runs the stdlib golden suite on modules that keep their
// calls (InlineBudget testBudget, and InlineNone), unlegalized and
// legalized at every width, and checks that calls really remain.
func TestGoldenIRCalls(t *testing.T) {
	cases := golden.Cases(golden.Seed(t))
	for _, budget := range []int{testBudget, InlineNone} {
		for _, w := range widths {
			t.Run(fmt.Sprintf("budget=%d/W=%d", budget, w), func(t *testing.T) {
				t.Parallel()
				r := &irRunner{w: w, budget: budget, cache: map[*lang.Program]*Module{}}
				golden.Run(t, r.run, cases)
				for _, mod := range []string{"sha256", "blake2b", "gcm", "sha512", "sha3"} {
					m := r.module(t, mod)
					if n := countOps(m, OpCall); n == 0 || len(m.Funcs) < 2 {
						t.Errorf("%s keeps %d calls in %d functions; want calls kept\n", mod, n, len(m.Funcs))
					}
				}
			})
		}
	}
}

// TestKeepExportCalls: with KeepExportCalls, InlineAll inlines every call
// but those of exports, and the program computes the same.
func TestKeepExportCalls(t *testing.T) {
	p := load(t, `module t

fn twice(x: u32) -> u32 { return x + x }
export fn inner(x: u32) -> u32 effects none { return twice(x) ^ 5 }
export fn outer(x: u32) -> u32 effects none { return inner(x + 1) + twice(x) }
`)
	for _, w := range widths {
		m, err := lower.Compile(p, Options{W: w, Unroll: DefaultUnroll, KeepExportCalls: true, Verify: true})
		if err != nil {
			t.Fatalf("W=%d: %v", w, err)
		}
		if m.Func("twice") != nil {
			t.Errorf("W=%d: twice is not inlined", w)
		}
		outer := m.Func("outer")
		if n := countOpsIn(outer, OpCall); n != 1 || !strings.Contains(m.String(), "call inner") {
			t.Errorf("W=%d: outer makes %d calls, want its call of inner:\n%s", w, n, m)
		}
		if w != 0 {
			continue
		}
		res, err := Run(m, "outer", words(20))
		if err != nil {
			t.Fatal(err)
		}
		if want := uint64((21+21)^5) + 40; res[0].Word != want {
			t.Errorf("W=%d: outer(20) = %d, want %d", w, res[0].Word, want)
		}
	}
}
