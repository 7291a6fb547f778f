package stdlib_test

import (
	"testing"

	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
	"github.com/lowent/lowentc/stdlib/golden"
)

// callsIn counts the calls of callee in function fn of module mod, after
// the IR passes with `have` answered by feats and no inlining.
func callsIn(t *testing.T, mod, fn, callee string, feats lang.FeatureSet) int {
	t.Helper()
	p, err := golden.Load(mod)
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
	var f *ir.Function
	for _, g := range m.Funcs {
		if g.Name == fn {
			f = g
		}
	}
	if f == nil {
		t.Fatalf("features %v: no function %s in\n%s", feats, fn, m)
	}
	n := 0
	ir.WalkInstrs(f.Body, func(in *ir.Instr) {
		if in.Op == ir.OpCall && in.Callee.Name == callee {
			n++
		}
	})
	return n
}

// TestSHA512ScheduleShapeByHave checks the two shapes of sha512.lw's
// compress: where `have aes` holds (amd64's hardware variants) each round
// also computes the schedule word 16 rounds ahead, so compress no longer
// calls expand; everywhere else (the 6502, Java Card, amd64 --hw none)
// compress keeps the schedule advanced between groups by expand.
func TestSHA512ScheduleShapeByHave(t *testing.T) {
	for _, feats := range []lang.FeatureSet{0, lang.FeatureSet(lang.FeatAES)} {
		n := callsIn(t, "sha512", "compress", "expand", feats)
		if want := feats == 0; (n > 0) != want {
			t.Errorf("features %v: compress calls expand %d times, want calls: %v", feats, n, want)
		}
	}
}

// TestPoly1305ChainsByHave checks that poly1305.lw's update takes the
// three-chain loop (update3) where `have aes` holds and the two-chain
// loop (update2) elsewhere, so the 6502 and Java Card keep their code.
func TestPoly1305ChainsByHave(t *testing.T) {
	for _, feats := range []lang.FeatureSet{0, lang.FeatureSet(lang.FeatAES)} {
		three := callsIn(t, "poly1305", "update", "update3", feats)
		two := callsIn(t, "poly1305", "update", "update2", feats)
		if feats == 0 && (three != 0 || two != 1) || feats != 0 && (three != 1 || two != 0) {
			t.Errorf("features %v: update calls update3 %d times and update2 %d times", feats, three, two)
		}
	}
}

// TestPoly1305LanesByHave checks that update takes the eight lanes
// (update8, which calls update_lanes) exactly where `have ifma` holds.
func TestPoly1305LanesByHave(t *testing.T) {
	ifma := lang.FeatureSet(lang.FeatIFMA) | lang.FeatureSet(lang.FeatAES)
	for _, feats := range []lang.FeatureSet{0, lang.FeatureSet(lang.FeatAES), ifma} {
		n := callsIn(t, "poly1305", "update", "update8", feats)
		if want := map[bool]int{false: 0, true: 1}[feats == ifma]; n != want {
			t.Errorf("features %v: update calls update8 %d times, want %d", feats, n, want)
		}
	}
	if n := callsIn(t, "poly1305", "update8", "update_lanes", ifma); n != 1 {
		t.Errorf("update8 calls update_lanes %d times, want 1", n)
	}
}
