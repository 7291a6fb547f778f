package ir_test

import (
	"fmt"
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
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
