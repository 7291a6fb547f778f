package ir_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	. "github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

// The tests here compare the IR interpreter, unlegalized and legalized at
// every width, with the reference VM on small programs that use each
// operator on each word type, with edge values and random ones.

var wordTypes = []string{"u8", "u16", "u32", "u64"}

func bitsOf(t string) int {
	var n int
	fmt.Sscanf(t, "u%d", &n)
	return n
}

func maskOf(t string) uint64 { return WordType(bitsOf(t)).Mask() }

// sample returns edge values and random values of a word type.
func sample(rng *rand.Rand, t string, n int) []uint64 {
	m := maskOf(t)
	b := uint64(bitsOf(t))
	out := []uint64{0, 1, 2, 3, m, m - 1, m >> 1, (m >> 1) + 1, b - 1, b, b + 1, 2 * b}
	for i := 0; i < n; i++ {
		out = append(out, rng.Uint64()&m)
	}
	for i := range out {
		out[i] &= m
	}
	return out
}

// diff compiles p at every width and checks that every call gives the VM's
// results, or an error exactly when the VM gives one.
type diff struct {
	t     *testing.T
	p     *lang.Program
	ms    []*Module
	names []string // the compilations in ms after one per width
	err   int
}

func newDiff(t *testing.T, src string) *diff {
	t.Helper()
	d := &diff{t: t, p: load(t, src)}
	for _, w := range widths {
		d.ms = append(d.ms, compile(t, d.p, w))
	}
	return d
}

// name says which compilation d.ms[i] is: a width of widths, or one of
// names after them.
func (d *diff) name(i int) string {
	if i < len(widths) {
		return fmt.Sprint(widths[i])
	}
	return d.names[i-len(widths)]
}

func (d *diff) check(export string, args ...lang.Value) {
	d.t.Helper()
	want, werr := vmRun(d.p, export, lang.CopyValues(args))
	if werr != nil {
		d.err++
	}
	for i, m := range d.ms {
		in := lang.CopyValues(args)
		vmIn := lang.CopyValues(args)
		vmRun(d.p, export, vmIn)
		got, err := Run(m, export, in)
		if (err != nil) != (werr != nil) {
			d.t.Fatalf("%s%v at W=%s: error %v, VM error %v", export, args, d.name(i), err, werr)
		}
		if err != nil {
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			d.t.Fatalf("%s%v at W=%s: got %v, VM %v", export, args, d.name(i), got, want)
		}
		if fmt.Sprint(in) != fmt.Sprint(vmIn) {
			d.t.Fatalf("%s%v at W=%s: arguments after the call %v, VM %v", export, args, d.name(i), in, vmIn)
		}
	}
}

func words(xs ...uint64) []lang.Value {
	out := make([]lang.Value, len(xs))
	for i, x := range xs {
		out[i] = lang.Value{Word: x}
	}
	return out
}

var binOps = map[string]string{
	"add": "+", "sub": "-", "mul": "*", "div": "/", "rem": "%", "and": "&", "or": "|", "xor": "^",
}

var cmpOps = map[string]string{"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}

func TestBinaryOperators(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, ty := range wordTypes {
		t.Run(ty, func(t *testing.T) {
			var src strings.Builder
			fmt.Fprintf(&src, "module t\n")
			for name, op := range binOps {
				fmt.Fprintf(&src, "export fn %s(a: %s, b: %s) -> %s effects trap { return a %s b }\n", name, ty, ty, ty, op)
			}
			for name, op := range cmpOps {
				fmt.Fprintf(&src, "export fn %s(a: %s, b: %s) -> bool effects none { return a %s b }\n", name, ty, ty, op)
			}
			fmt.Fprintf(&src, "export fn neg(a: %s, b: %s) -> %s effects none { return -a ^ ~b }\n", ty, ty, ty)
			d := newDiff(t, src.String())
			vals := sample(rng, ty, 6)
			for name := range binOps {
				for _, a := range vals {
					for _, b := range vals {
						d.check(name, words(a, b)...)
					}
				}
			}
			for name := range cmpOps {
				for _, a := range vals {
					for _, b := range vals {
						d.check(name, words(a, b)...)
					}
				}
			}
			for _, a := range vals {
				d.check("neg", words(a, a>>1)...)
			}
			if d.err == 0 {
				t.Error("division by zero never trapped")
			}
		})
	}
}

// TestConstantOperands exercises the folded and strength-reduced forms and
// the constant shifts legalization turns into limb moves and funnel shifts.
func TestConstantOperands(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, ty := range wordTypes {
		t.Run(ty, func(t *testing.T) {
			n := bitsOf(ty)
			consts := []uint64{0, 1, 3, 7, 8, 16, uint64(n) - 1, uint64(n) / 2, 5, uint64(n) + 3}
			var src strings.Builder
			fmt.Fprintf(&src, "module t\n")
			var names []string
			for i, c := range consts {
				for _, op := range []string{"<<", ">>", "<<<", ">>>", "*", "+", "-", "&", "|", "^"} {
					name := fmt.Sprintf("f%d_%d", i, len(names))
					fmt.Fprintf(&src, "export fn %s(a: %s) -> %s effects none { return a %s %d }\n", name, ty, ty, op, c)
					names = append(names, name)
				}
				if c != 0 {
					for _, op := range []string{"/", "%"} {
						name := fmt.Sprintf("f%d_%d", i, len(names))
						fmt.Fprintf(&src, "export fn %s(a: %s) -> %s effects none { return a %s %d }\n", name, ty, ty, op, c)
						names = append(names, name)
					}
				}
			}
			d := newDiff(t, src.String())
			for _, a := range sample(rng, ty, 4) {
				for _, name := range names {
					d.check(name, words(a)...)
				}
			}
		})
	}
}

func TestShiftsByEveryAmountType(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, ty := range wordTypes {
		for _, at := range wordTypes {
			t.Run(ty+"_by_"+at, func(t *testing.T) {
				var src strings.Builder
				fmt.Fprintf(&src, "module t\n")
				ops := map[string]string{"shl": "<<", "shr": ">>", "rotl": "<<<", "rotr": ">>>"}
				for name, op := range ops {
					fmt.Fprintf(&src, "export fn %s(a: %s, s: %s) -> %s effects none { return a %s s }\n", name, ty, at, ty, op)
				}
				d := newDiff(t, src.String())
				amounts := []uint64{0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256, 257, 1 << 20, 1<<32 + 1, 1<<63 + 3}
				for _, a := range sample(rng, ty, 2) {
					for _, s := range amounts {
						s &= maskOf(at)
						for name := range ops {
							d.check(name, words(a, s)...)
						}
					}
				}
			})
		}
	}
}

func TestCasts(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	var src strings.Builder
	fmt.Fprintf(&src, "module t\n")
	for _, from := range wordTypes {
		for _, to := range wordTypes {
			fmt.Fprintf(&src, "export fn %s_%s(a: %s) -> %s effects none { return a as %s }\n", from, to, from, to, to)
		}
		fmt.Fprintf(&src, "export fn b_%s(a: bool) -> %s effects none { return a as %s }\n", from, from, from)
	}
	d := newDiff(t, src.String())
	for _, from := range wordTypes {
		for _, a := range sample(rng, from, 4) {
			for _, to := range wordTypes {
				d.check(from+"_"+to, words(a)...)
			}
		}
		d.check("b_"+from, words(1)...)
		d.check("b_"+from, words(0)...)
	}
}

func TestBoolAndSelect(t *testing.T) {
	src := `module t
export fn logic(a: bool, b: bool, c: bool) -> bool effects none {
    return (a && !b) || (b == c) && (a != c)
}
export fn sel(c: bool, a: u64, b: u64) -> u64 effects none { return select(c, a, b) ^ select(!c, b >> 1, a) }
export fn sel8(c: bool, a: u8, b: u8) -> u8 effects none { return select(c, a, b) }
`
	d := newDiff(t, src)
	for i := 0; i < 8; i++ {
		d.check("logic", words(uint64(i&1), uint64(i>>1&1), uint64(i>>2&1))...)
	}
	for _, c := range []uint64{0, 1} {
		d.check("sel", words(c, 0x0123456789abcdef, 0xfedcba9876543210)...)
		d.check("sel8", words(c, 0x12, 0xfe)...)
	}
}

// TestShortCircuit checks that && and || skip a right operand that would
// trap, as the VM does.
func TestShortCircuit(t *testing.T) {
	src := `module t
export fn f(a: []u32, i: u32) -> bool effects trap { return i < len(a) && a[i] == 7 }
export fn g(a: []u32, i: u32) -> bool effects trap { return i >= len(a) || a[i] != 7 }
export fn h(x: u32, y: u32) -> bool effects trap { return y != 0 && x / y > 2 }
`
	d := newDiff(t, src)
	arr := lang.Value{IsArray: true, Elems: []uint64{1, 7, 3}}
	for i := uint64(0); i < 5; i++ {
		d.check("f", arr, lang.Value{Word: i})
		d.check("g", arr, lang.Value{Word: i})
		d.check("h", words(10, i)...)
	}
}
