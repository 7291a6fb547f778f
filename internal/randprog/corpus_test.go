package randprog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lowent/lowentc/lang"
)

// TestCorpusChecks generates LOWENT_RANDPROG_N programs (see numPrograms) and
// requires every one to pass the loader and checker: a generated program
// the checker rejects is a bug in the generator or in the checker. The same
// pass counts the constructs of the corpus, and the coverage subtest fails
// if a construct of the language never appears.
func TestCorpusChecks(t *testing.T) {
	c := &census{counts: map[string]int{}}
	n := numPrograms(t)
	check := func(seed uint64) string {
		src, p, err := loadShared(seed)
		if err != nil {
			return fmt.Sprintf("the checker rejects the generated program:\n%v\n%s\nsource:\n%s", err, reproHint(seed), numbered(src))
		}
		c.program(p)
		return ""
	}
	forEachSeed(t, firstSeed(t), n, check)
	t.Run("coverage", func(t *testing.T) {
		// Rare constructs need a few hundred programs to show up.
		const least = 300
		if n < least {
			forEachSeed(t, firstSeed(t)+uint64(n), least-n, check)
			n = least
		}
		if m := c.missing(); len(m) > 0 {
			t.Errorf("constructs never generated in %d programs: %s", n, strings.Join(m, "; "))
		}
		if testing.Verbose() {
			c.log(t)
		}
	})
}

// TestGenerateDeterministic: a seed always gives the same program, and
// different seeds different ones.
func TestGenerateDeterministic(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		a, b := Generate(seed, Config{}), Generate(seed, Config{})
		if a != b {
			t.Fatalf("seed %d: two generations differ", seed)
		}
		if a == Generate(seed+1, Config{}) {
			t.Fatalf("seeds %d and %d give the same program", seed, seed+1)
		}
	}
}

// TestConfigBoundsSize: a small configuration gives small programs and a
// large one larger programs, all accepted by the checker.
func TestConfigBoundsSize(t *testing.T) {
	small := Config{MaxHelpers: 1, MaxExports: 1, MaxStmts: 4, MaxDepth: 1, MaxExpr: 1}
	large := Config{MaxHelpers: 6, MaxStmts: 60, MaxDepth: 4, MaxExpr: 4, MaxIter: 400, MaxWork: 5000}
	var ns, nl int
	for seed := uint64(0); seed < 12; seed++ {
		for _, cfg := range []Config{small, large} {
			src := Generate(seed, cfg)
			if _, err := loadSource(src); err != nil {
				t.Fatalf("seed %d, config %+v: %v\nsource:\n%s", seed, cfg, err, numbered(src))
			}
		}
		ns += len(Generate(seed, small))
		nl += len(Generate(seed, large))
	}
	if ns*3 > nl {
		t.Errorf("small programs average %d bytes, large ones %d: the configuration does not bound the size", ns/12, nl/12)
	}
}

// TestArgs: arguments fit their parameters, satisfy the requires (the VM
// accepts them), and slice lengths vary, empty ones included.
func TestArgs(t *testing.T) {
	lens := map[int]int{}
	runs, refused := 0, 0
	for seed := uint64(1); seed <= 80; seed++ {
		_, p, err := loadShared(seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, fn := range p.Exports() {
			for k := uint64(0); k < 3; k++ {
				args := Args(seed*10+k, fn)
				if len(args) != len(fn.Params) {
					t.Fatalf("seed %d %s: %d arguments for %d parameters", seed, fn.Name, len(args), len(fn.Params))
				}
				checkArgTypes(t, fn, args)
				for i, prm := range fn.Params {
					if _, ok := prm.Type.(*lang.SliceType); ok {
						lens[len(args[i].Elems)]++
					}
				}
				runs++
				if o := runVM(p, fn, args); o.err != "" && !o.trap {
					refused++
				}
				again := Args(seed*10+k, fn)
				if argWords(fn, again) != argWords(fn, args) {
					t.Fatalf("seed %d %s: Args is not deterministic", seed, fn.Name)
				}
			}
		}
	}
	if refused*50 > runs {
		t.Errorf("the VM refused %d of %d argument sets (requires not satisfied)", refused, runs)
	}
	if lens[0] == 0 || len(lens) < 20 {
		t.Errorf("slice lengths do not vary enough: %v", lens)
	}
}

// checkArgTypes fails unless every argument fits its parameter's type.
func checkArgTypes(t *testing.T, fn *lang.FuncDecl, args []lang.Value) {
	t.Helper()
	for i, prm := range fn.Params {
		a := args[i]
		switch pt := prm.Type.(type) {
		case *lang.WordType:
			if a.IsArray || a.Word&^pt.Mask() != 0 {
				t.Fatalf("%s: argument %s = %+v does not fit %s", fn.Name, prm.Name, a, pt)
			}
		case *lang.BoolType:
			if a.IsArray || a.Word > 1 {
				t.Fatalf("%s: argument %s = %+v is not a bool", fn.Name, prm.Name, a)
			}
		default:
			if !a.IsArray {
				t.Fatalf("%s: argument %s is not an array", fn.Name, prm.Name)
			}
			if at, ok := pt.(*lang.ArrayType); ok && len(a.Elems) != flatLen(at) {
				t.Fatalf("%s: argument %s has %d elements, %s needs %d", fn.Name, prm.Name, len(a.Elems), at, flatLen(at))
			}
			m := mask(leafBits(pt))
			for _, e := range a.Elems {
				if e&^m != 0 {
					t.Fatalf("%s: argument %s: element %#x does not fit %s", fn.Name, prm.Name, e, pt)
				}
			}
		}
	}
}

// TestAgree: the comparison of two runs sees every kind of difference.
func TestAgree(t *testing.T) {
	w := func(x uint64) lang.Value { return lang.Value{Word: x} }
	base := outcome{results: []lang.Value{w(1), {IsArray: true, Elems: []uint64{2, 3}}}, muts: [][]uint64{{4, 5}}}
	trap := outcome{trap: true, err: "rnd.lw:3:4: trap: index out of range"}
	fault := outcome{fault: true, err: "rnd.lw:2:14: fault: f: requires len(a) == len(b) does not hold"}
	cases := []struct {
		name string
		a, b outcome
		want bool
	}{
		{"same", base, base, true},
		{"both trap at one check", trap, outcome{trap: true, err: "rnd.lw:3:4: trap: other words"}, true},
		{"trap at another check", trap, outcome{trap: true, err: "rnd.lw:9:1: trap: index out of range"}, false},
		{"trap and results", trap, base, false},
		{"results and trap", base, trap, false},
		{"word result", base, outcome{results: []lang.Value{w(9), base.results[1]}, muts: base.muts}, false},
		{"array result", base, outcome{results: []lang.Value{w(1), {IsArray: true, Elems: []uint64{2, 4}}}, muts: base.muts}, false},
		{"mut output", base, outcome{results: base.results, muts: [][]uint64{{4, 6}}}, false},
		{"missing result", base, outcome{results: base.results[:1], muts: base.muts}, false},
		{"error", base, outcome{err: "internal error"}, false},
		{"the same fault", fault, fault, true},
		{"a fault of another clause", fault, outcome{fault: true, err: "rnd.lw:2:40: fault: f: requires x < 3 does not hold"}, false},
		{"a fault with other words", fault, outcome{fault: true, err: "rnd.lw:2:14: fault: f: requires clause 1 does not hold"}, false},
		{"fault and trap", fault, outcome{trap: true, err: "rnd.lw:2:14: trap: requires"}, false},
		{"fault and results", fault, base, false},
		{"results and fault", base, fault, false},
	}
	for _, c := range cases {
		if got := agree(c.a, c.b); got != c.want {
			t.Errorf("%s: agree = %v, want %v", c.name, got, c.want)
		}
	}
}
