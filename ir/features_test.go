package ir_test

import (
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
)

const featuresSrc = `module t
export fn f(x: u32, y: u32) -> u32 effects none {
    let (a, b, c, d) = sha256_rnds2(x, y, x ^ y, x + y, y, x, y ^ 1, x ^ 2, x * 3, y * 5)
    let (e, g, h, i) = sha256_msg1(a, b, c, d, x, y, a, b)
    let (j, k, l, m) = sha256_msg2(e, g, h, i, c, d, x, y)
    if have sha {
        return j ^ k ^ l ^ m
    }
    return j + k + l + m
}`

// TestFeaturesPass: with no features, have is false and the SHA-256 ops
// become arithmetic; with KeepHave each op sits in `if have sha`; with sha
// the ops stay. Each keeps the interpreter's answers (which read have as
// false).
func TestFeaturesPass(t *testing.T) {
	p := load(t, featuresSrc)
	var inputs [][]lang.Value
	for _, xy := range [][2]uint64{{0, 0}, {1, 2}, {0xdeadbeef, 0x12345678}, {0xffffffff, 0x80000000}} {
		inputs = append(inputs, []lang.Value{{Word: xy[0]}, {Word: xy[1]}})
	}
	shaOps := func(m *Module) int {
		return countOps(m, OpSHA256Rnds2) + countOps(m, OpSHA256Msg1) + countOps(m, OpSHA256Msg2)
	}

	m, err := lower.Program(p)
	if err != nil {
		t.Fatal(err)
	}
	applyPass(t, m, features, Options{}, "f", inputs...)
	if n, h := shaOps(m), countOps(m, OpHave); n != 0 || h != 0 {
		t.Errorf("no features: %d SHA-256 ops and %d have left\n%s", n, h, m)
	}

	m, _ = lower.Program(p)
	applyPass(t, m, features, Options{KeepHave: true}, "f", inputs...)
	if n, h := shaOps(m), countOps(m, OpHave); n != 3 || h != 4 {
		t.Errorf("KeepHave: %d SHA-256 ops and %d have, want 3 and 4 (one per op and the source's)\n%s", n, h, m)
	}

	m, _ = lower.Program(p)
	applyPass(t, m, features, Options{Features: lang.FeatureSet(lang.FeatSHA), W: 32}, "f")
	if n := shaOps(m); n != 0 {
		t.Errorf("sha at W=32: %d SHA-256 ops left (they exist only at W=64)", n)
	}
	m, _ = lower.Program(p)
	applyPass(t, m, features, Options{Features: lang.FeatureSet(lang.FeatSHA), W: 64}, "f")
	if n, h := shaOps(m), countOps(m, OpHave); n != 3 || h != 0 {
		t.Errorf("sha at W=64: %d SHA-256 ops and %d have, want 3 and 0", n, h)
	}
	// The have branch is taken now: the VM with sha agrees with the IR.
	for _, in := range inputs {
		want, err := vmRunFeatures(p, "f", in, lang.FeatureSet(lang.FeatSHA))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Run(m, "f", lang.CopyValues(in))
		if err != nil || got[0].Word != want[0].Word {
			t.Errorf("f%v with sha: IR %v (%v), VM %v", in, got, err, want)
		}
	}
}

const haveCallsSrc = `module t
fn g(x: u32) -> u32 {
    return (x <<< 3) ^ (x + 7)
}
fn fast(x: u32) -> u32 {
    return g(x) ^ (g(x) ^ g(x))
}
export fn f(x: u32) -> u32 effects none {
    if have aes {
        return fast(x)
    }
    return g(x)
}`

// TestFeaturesDropsSettledBranch: once `have` is settled, the branch not
// taken is gone before inline counts call sites, so a callee called only
// there does not count as called (aes.lw's ctr16 made rounds8 look shared
// on targets without AES and kept it out of line on Java Card).
func TestFeaturesDropsSettledBranch(t *testing.T) {
	p := load(t, haveCallsSrc)
	inputs := [][]lang.Value{{{Word: 0}}, {{Word: 0x12345678}}, {{Word: 0xffffffff}}}
	for _, feats := range []lang.FeatureSet{0, lang.FeatureSet(lang.FeatAES)} {
		m, err := lower.Program(p)
		if err != nil {
			t.Fatal(err)
		}
		applyPass(t, m, features, Options{Features: feats}, "f", inputs...)
		fast := 0
		WalkInstrs(m.Func("f").Body, func(in *Instr) {
			if in.Op == OpCall && in.Callee.Name == "fast" {
				fast++
			}
		})
		if want := map[bool]int{false: 0, true: 1}[feats != 0]; fast != want {
			t.Errorf("features %v: f calls fast %d times, want %d\n%s", feats, fast, want, m)
		}
	}
}

const haveIFMASrc = `module t
export fn f(x: u64) -> u64 effects none {
    if have ifma {
        let (lo, hi) = mulw(x & 0xf_ffff_ffff_ffff, 0x1234_5678_9abc)
        return (lo & 0xf_ffff_ffff_ffff) + ((hi << 12) | (lo >> 52))
    }
    return x
}`

// TestFeaturesHaveIFMA: `have ifma` is settled like the other features:
// true with ifma (the multiply stays), false without (no multiply left),
// kept with KeepHave; the VM with the same features agrees each time.
func TestFeaturesHaveIFMA(t *testing.T) {
	p := load(t, haveIFMASrc)
	inputs := [][]lang.Value{{{Word: 0}}, {{Word: 0x12345678}}, {{Word: ^uint64(0)}}}
	for _, c := range []struct {
		o            Options
		mulw, haveOp int
	}{
		{Options{}, 0, 0},
		{Options{Features: lang.FeatureSet(lang.FeatAES | lang.FeatSHA)}, 0, 0},
		{Options{Features: lang.FeatureSet(lang.FeatIFMA)}, 1, 0},
		{Options{KeepHave: true}, 1, 1},
	} {
		m, err := lower.Program(p)
		if err != nil {
			t.Fatal(err)
		}
		// applyPass compares with the interpreter before the pass, which
		// reads have as false: only without ifma.
		if c.o.Features.Has(lang.FeatIFMA) {
			applyPass(t, m, features, c.o, "f")
		} else {
			applyPass(t, m, features, c.o, "f", inputs...)
		}
		if n, h := countOps(m, OpMulW), countOps(m, OpHave); n != c.mulw || h != c.haveOp {
			t.Errorf("%+v: %d mulw and %d have, want %d and %d\n%s", c.o, n, h, c.mulw, c.haveOp, m)
		}
		if c.o.KeepHave {
			continue
		}
		for _, in := range inputs {
			want, err := vmRunFeatures(p, "f", in, c.o.Features)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Run(m, "f", lang.CopyValues(in))
			if err != nil || got[0].Word != want[0].Word {
				t.Errorf("f%v with %v: IR %v (%v), VM %v", in, c.o.Features, got, err, want)
			}
		}
	}
}
