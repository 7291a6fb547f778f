package jcvm

import (
	"math"
	"math/rand"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// The notebook's BLAKE2b records on a JCOP4, in ms per 128-byte compression.
const (
	notebookArraysInt   = 395.0 // 2 int halves, state in arrays
	notebookLocalsInt   = 144.0 // 32 int locals, straight-line code
	notebookArraysShort = 886.0 // 4 short limbs, state in arrays (the check)
)

// slopeMs is the least-squares slope, in modeled ms on card, of an export
// of module mod over N = 1, 2, 4, ..., 32 blocks of block bytes fed to its
// last slice parameter (the bench --block rig).
func slopeMs(t *testing.T, mod, export string, block int, opts backend.Options, raw bool) float64 {
	t.Helper()
	p, err := golden.Load(mod)
	if err != nil {
		t.Fatal(err)
	}
	r, err := prepare(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	run := r.(*Runner)
	fn := p.Export(export)
	rng := rand.New(rand.NewSource(1))
	var xs, ys []float64
	for _, n := range []int{1, 2, 4, 8, 16, 32} {
		args := benchArgs(fn, n*block, rng)
		_, counts, err := run.call(fn, args)
		if err != nil {
			t.Fatal(err)
		}
		ms := modeledMs(&counts, run.card)
		if raw {
			ms = rawMicros(&counts) / 1000
		}
		xs, ys = append(xs, float64(n)), append(ys, ms)
	}
	slope, _ := backend.FitLine(xs, ys)
	return slope
}

// benchArgs gives the last slice parameter n random bytes, fixed arrays
// random bytes, other slices nothing (mut slices 16 bytes, or n).
func benchArgs(fn *lang.FuncDecl, n int, rng *rand.Rand) []lang.Value {
	last := -1
	for i, p := range fn.Params {
		if _, ok := p.Type.(*lang.SliceType); ok && !p.Mut {
			last = i
		}
	}
	vals := make([]lang.Value, len(fn.Params))
	rnd := func(k int) []byte {
		b := make([]byte, k)
		rng.Read(b)
		return b
	}
	for i, p := range fn.Params {
		switch t := p.Type.(type) {
		case *lang.ArrayType:
			vals[i] = golden.Bytes(rnd(int(t.Len)))
		case *lang.SliceType:
			switch {
			case i == last:
				vals[i] = golden.Bytes(rnd(n))
			case p.Mut:
				vals[i] = golden.Bytes(make([]byte, n))
			default:
				vals[i] = golden.Bytes(nil)
			}
		}
	}
	return vals
}

// TestCalibration refits the card factor on the notebook's two int variants
// and checks that the constant in cost.go is that fit, and that the third
// variant (4 short limbs in arrays), not fitted, lands within 20% of 886 ms.
func TestCalibration(t *testing.T) {
	a := slopeMs(t, "blake2b", "blake2b", 128, backend.Options{Storage: "arrays"}, true)
	b := slopeMs(t, "blake2b", "blake2b", 128, backend.Options{Storage: "locals"}, true)
	fit := (a*notebookArraysInt + b*notebookLocalsInt) / (a*a + b*b)
	t.Logf("raw ms per compression: arrays %.1f, locals %.1f; fitted factor %.4f (cost.go: %.4f)", a, b, fit, cardFactor)
	t.Logf("modeled: arrays %.1f ms (notebook 395), locals %.1f ms (notebook 144)", a*cardFactor, b*cardFactor)
	if math.Abs(fit-cardFactor)/cardFactor > 0.02 {
		t.Errorf("cardFactor %.4f is not the fit %.4f: update cost.go", cardFactor, fit)
	}
	c := slopeMs(t, "blake2b", "blake2b", 128, backend.Options{Storage: "arrays", NoInt: true}, true) * cardFactor
	t.Logf("check: 4 short limbs in arrays %.1f ms (notebook 886)", c)
	if c < 0.8*notebookArraysShort || c > 1.2*notebookArraysShort {
		t.Errorf("the unfitted variant is %.1f ms, not within 20%% of %.0f ms", c, notebookArraysShort)
	}
}

// TestBlake2bTargets checks the default layout against the notebook's
// hand-written records: at most 144 ms per compression with ints and at
// most 886 ms without (JCOP4 profile, slope over N = 1..32).
func TestBlake2bTargets(t *testing.T) {
	withInt := slopeMs(t, "blake2b", "blake2b", 128, backend.Options{}, false)
	noInt := slopeMs(t, "blake2b", "blake2b", 128, backend.Options{NoInt: true}, false)
	t.Logf("BLAKE2b per compression: %.1f ms with int, %.1f ms with --no-int", withInt, noInt)
	if withInt > notebookLocalsInt {
		t.Errorf("BLAKE2b with int: %.1f ms per compression > %.0f", withInt, notebookLocalsInt)
	}
	if noInt > notebookArraysShort {
		t.Errorf("BLAKE2b with --no-int: %.1f ms per compression > %.0f", noInt, notebookArraysShort)
	}
}
