package stdlib_test

import (
	"testing"

	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
	"github.com/lowent/lowentc/stdlib/golden"
)

// TestSHA512ScheduleShapeByHave checks the two shapes of sha512.lw's
// compress: where `have aes` holds (amd64's hardware variants) each round
// also computes the schedule word 16 rounds ahead, so compress no longer
// calls expand; everywhere else (the 6502, Java Card, amd64 --hw none)
// compress keeps the schedule advanced between groups by expand.
func TestSHA512ScheduleShapeByHave(t *testing.T) {
	for _, feats := range []lang.FeatureSet{0, lang.FeatureSet(lang.FeatAES)} {
		p, err := golden.Load("sha512")
		if err != nil {
			t.Fatal(err)
		}
		m, err := lower.Program(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := ir.Optimize(m, ir.Options{Features: feats, InlineBudget: ir.InlineNone}); err != nil {
			t.Fatal(err)
		}
		var compress *ir.Function
		for _, f := range m.Funcs {
			if f.Name == "compress" {
				compress = f
			}
		}
		if compress == nil {
			t.Fatalf("features %v: no function compress in\n%s", feats, m)
		}
		expand := 0
		ir.WalkInstrs(compress.Body, func(in *ir.Instr) {
			if in.Op == ir.OpCall && in.Callee.Name == "expand" {
				expand++
			}
		})
		if want := feats == 0; (expand > 0) != want {
			t.Errorf("features %v: compress calls expand %d times, want calls: %v", feats, expand, want)
		}
	}
}
