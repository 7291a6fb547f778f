package vm_test

import (
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lowent/lowentc/lang"
)

var widths = []int{8, 16, 32, 64}

var binOps = []string{"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "<<<", ">>>",
	"==", "!=", "<", "<=", ">", ">="}

func isCompare(op string) bool {
	switch op {
	case "==", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

func mayTrap(op string) bool { return op == "/" || op == "%" }

// refBinary computes a op b on width-bit words with math/big and math/bits,
// independently of the VM. trapped reports a division by zero.
func refBinary(op string, a, b uint64, width int) (r uint64, trapped bool) {
	A, B := new(big.Int).SetUint64(a), new(big.Int).SetUint64(b)
	mod := new(big.Int).Lsh(big.NewInt(1), uint(width))
	wrap := func(x *big.Int) uint64 { return new(big.Int).Mod(x, mod).Uint64() }
	truth := func(c bool) uint64 {
		if c {
			return 1
		}
		return 0
	}
	switch op {
	case "+":
		return wrap(A.Add(A, B)), false
	case "-":
		return wrap(A.Sub(A, B)), false
	case "*":
		return wrap(A.Mul(A, B)), false
	case "/":
		if b == 0 {
			return 0, true
		}
		return A.Quo(A, B).Uint64(), false
	case "%":
		if b == 0 {
			return 0, true
		}
		return A.Rem(A, B).Uint64(), false
	case "&":
		return A.And(A, B).Uint64(), false
	case "|":
		return A.Or(A, B).Uint64(), false
	case "^":
		return A.Xor(A, B).Uint64(), false
	case "<<":
		if B.Cmp(big.NewInt(int64(width))) >= 0 {
			return 0, false
		}
		return wrap(A.Lsh(A, uint(b))), false
	case ">>":
		if B.Cmp(big.NewInt(int64(width))) >= 0 {
			return 0, false
		}
		return A.Rsh(A, uint(b)).Uint64(), false
	case "<<<":
		return rotate(a, int(b%uint64(width)), width), false
	case ">>>":
		return rotate(a, -int(b%uint64(width)), width), false
	case "==":
		return truth(a == b), false
	case "!=":
		return truth(a != b), false
	case "<":
		return truth(a < b), false
	case "<=":
		return truth(a <= b), false
	case ">":
		return truth(a > b), false
	case ">=":
		return truth(a >= b), false
	}
	panic("unknown op " + op)
}

func rotate(a uint64, k, width int) uint64 {
	switch width {
	case 8:
		return uint64(bits.RotateLeft8(uint8(a), k))
	case 16:
		return uint64(bits.RotateLeft16(uint16(a), k))
	case 32:
		return uint64(bits.RotateLeft32(uint32(a), k))
	}
	return bits.RotateLeft64(a, k)
}

// testValues are edge cases plus seeded random words of the width.
func testValues(width int, rng *rand.Rand) []uint64 {
	m := mask(width)
	vs := []uint64{0, 1, 2, 3, 7, 8, uint64(width - 1), uint64(width), uint64(width + 1),
		uint64(2 * width), m, m - 1, 1 << (width - 1), 1<<(width-1) - 1,
		0x5555555555555555 & m, 0xa5a5a5a5a5a5a5a5 & m}
	for range 6 {
		vs = append(vs, rng.Uint64()&m)
	}
	return vs
}

// opsProgram declares, for one width, every binary operator as a plain
// expression, as x op= y on a local and on an array element, every shift and
// rotation by a u8 amount and by constants, the unary operators and casts.
func opsProgram(width int) string {
	var sb strings.Builder
	T := fmt.Sprintf("u%d", width)
	sb.WriteString("module ops\n\n")
	for i, op := range binOps {
		eff := "none"
		if mayTrap(op) {
			eff = "trap"
		}
		res := T
		if isCompare(op) {
			res = "bool"
		}
		fmt.Fprintf(&sb, "export fn bin%d(a: %s, b: %s) -> %s effects %s {\n    return a %s b\n}\n", i, T, T, res, eff, op)
		// Operands that are not plain names take the VM's general path.
		fmt.Fprintf(&sb, "export fn gen%d(a: %s, b: %s) -> %s effects %s {\n    return (a | a) %s (b & b)\n}\n", i, T, T, res, eff, op)
		if isCompare(op) {
			continue
		}
		fmt.Fprintf(&sb, "export fn loc%d(a: %s, b: %s) -> %s effects %s {\n    var x = a\n    x %s= b\n    return x\n}\n", i, T, T, T, eff, op)
		fmt.Fprintf(&sb, "export fn elem%d(a: %s, b: %s) -> %s effects %s {\n    var v: [3]%s\n    v[1] = a\n    v[1] %s= b\n    return v[1]\n}\n", i, T, T, T, eff, T, op)
	}
	for i, op := range []string{"<<", ">>", "<<<", ">>>"} {
		fmt.Fprintf(&sb, "export fn sh%d(a: %s, b: u8) -> %s effects none {\n    return a %s b\n}\n", i, T, T, op)
		for _, k := range constAmounts(width) {
			fmt.Fprintf(&sb, "export fn shc%d_%d(a: %s) -> %s effects none {\n    return a %s %d\n}\n", i, k, T, T, op, k)
			fmt.Fprintf(&sb, "export fn shx%d_%d(a: %s) -> %s effects none {\n    return (a | a) %s %d\n}\n", i, k, T, T, op, k)
		}
	}
	for i, op := range []string{"+", "&", "^", "-", "*"} {
		for _, k := range constAmounts(width) {
			fmt.Fprintf(&sb, "export fn opc%d_%d(a: %s) -> %s effects none {\n    return a %s %d\n}\n", i, k, T, T, op, k)
		}
	}
	fmt.Fprintf(&sb, "export fn neg(a: %s) -> %s effects none {\n    return -a\n}\n", T, T)
	fmt.Fprintf(&sb, "export fn compl(a: %s) -> %s effects none {\n    return ~a\n}\n", T, T)
	fmt.Fprintf(&sb, "export fn fromb(a: bool) -> %s effects none {\n    return a as %s\n}\n", T, T)
	for _, to := range widths {
		fmt.Fprintf(&sb, "export fn cast%d(a: %s) -> u%d effects none {\n    return a as u%d\n}\n", to, T, to, to)
	}
	return sb.String()
}

func constAmounts(width int) []uint64 {
	return []uint64{0, 1, 3, uint64(width - 1), uint64(width), uint64(width + 5)}
}

func TestOperatorsAllWidths(t *testing.T) {
	for _, width := range widths {
		t.Run(fmt.Sprintf("u%d", width), func(t *testing.T) {
			p := load(t, opsProgram(width))
			rng := rand.New(rand.NewPCG(uint64(width), 99))
			vals := testValues(width, rng)
			for i, op := range binOps {
				for _, a := range vals {
					for _, bv := range vals {
						want, wantTrap := refBinary(op, a, bv, width)
						names := []string{fmt.Sprintf("bin%d", i), fmt.Sprintf("gen%d", i)}
						if !isCompare(op) {
							names = append(names, fmt.Sprintf("loc%d", i), fmt.Sprintf("elem%d", i))
						}
						for _, name := range names {
							res, err := try(t, p, name, w(a), w(bv))
							if wantTrap {
								trapOf(t, err)
								continue
							}
							if err != nil {
								t.Fatalf("%s (%#x %s %#x): %v", name, a, op, bv, err)
							}
							if res[0].Word != want {
								t.Errorf("u%d %s (%s): %#x %s %#x = %#x, want %#x", width, name, op, a, op, bv, res[0].Word, want)
							}
						}
					}
				}
			}
			// Shift and rotate amounts of another type (u8), including >= width.
			for i, op := range []string{"<<", ">>", "<<<", ">>>"} {
				for _, a := range vals {
					for amt := uint64(0); amt < 256; amt += 3 {
						want, _ := refBinary(op, a, amt, width)
						if got := call(t, p, fmt.Sprintf("sh%d", i), w(a), w(amt))[0].Word; got != want {
							t.Errorf("u%d %#x %s %d (u8) = %#x, want %#x", width, a, op, amt, got, want)
						}
					}
					for _, k := range constAmounts(width) {
						want, _ := refBinary(op, a, k, width)
						if got := call(t, p, fmt.Sprintf("shc%d_%d", i, k), w(a))[0].Word; got != want {
							t.Errorf("u%d %#x %s %d (constant) = %#x, want %#x", width, a, op, k, got, want)
						}
						if got := call(t, p, fmt.Sprintf("shx%d_%d", i, k), w(a))[0].Word; got != want {
							t.Errorf("u%d (%#x | %#x) %s %d = %#x, want %#x", width, a, a, op, k, got, want)
						}
					}
				}
			}
			for i, op := range []string{"+", "&", "^", "-", "*"} {
				for _, a := range vals {
					for _, k := range constAmounts(width) {
						want, _ := refBinary(op, a, k, width)
						if got := call(t, p, fmt.Sprintf("opc%d_%d", i, k), w(a))[0].Word; got != want {
							t.Errorf("u%d %#x %s %d (constant) = %#x, want %#x", width, a, op, k, got, want)
						}
					}
				}
			}
			for _, a := range vals {
				A := new(big.Int).SetUint64(a)
				mod := new(big.Int).Lsh(big.NewInt(1), uint(width))
				wantNeg := new(big.Int).Mod(new(big.Int).Neg(A), mod).Uint64()
				if got := call(t, p, "neg", w(a))[0].Word; got != wantNeg {
					t.Errorf("u%d -%#x = %#x, want %#x", width, a, got, wantNeg)
				}
				wantCompl := new(big.Int).Sub(new(big.Int).Sub(mod, big.NewInt(1)), A).Uint64()
				if got := call(t, p, "compl", w(a))[0].Word; got != wantCompl {
					t.Errorf("u%d ~%#x = %#x, want %#x", width, a, got, wantCompl)
				}
				for _, to := range widths {
					want := new(big.Int).Mod(A, new(big.Int).Lsh(big.NewInt(1), uint(to))).Uint64()
					if got := call(t, p, fmt.Sprintf("cast%d", to), w(a))[0].Word; got != want {
						t.Errorf("%#x as u%d from u%d = %#x, want %#x", a, to, width, got, want)
					}
				}
			}
			for _, v := range []uint64{0, 1} {
				if got := call(t, p, "fromb", w(v))[0].Word; got != v {
					t.Errorf("bool %d as u%d = %d", v, width, got)
				}
			}
		})
	}
}

func TestBoolOperators(t *testing.T) {
	p := load(t, `module bools

export fn and(a: bool, b: bool) -> bool effects none {
    return a && b
}
export fn or(a: bool, b: bool) -> bool effects none {
    return a || b
}
export fn not(a: bool) -> bool effects none {
    return !a
}
export fn beq(a: bool, b: bool) -> bool effects none {
    return a == b
}
// The right operand would trap on an empty slice: short-circuit must skip it.
export fn first_zero(s: []u8) -> bool effects trap {
    return len(s) > 0 && s[0] == 0
}
export fn empty_or_zero(s: []u8) -> bool effects trap {
    return len(s) == 0 || s[0] == 0
}
`)
	for _, x := range []bool{false, true} {
		for _, y := range []bool{false, true} {
			checks := []struct {
				name string
				want bool
			}{{"and", x && y}, {"or", x || y}, {"beq", x == y}}
			for _, c := range checks {
				if got := call(t, p, c.name, b(x), b(y))[0].Word; got != words([]lang.Value{b(c.want)})[0] {
					t.Errorf("%s(%v, %v) = %d", c.name, x, y, got)
				}
			}
		}
		if got := call(t, p, "not", b(x))[0].Word; got != words([]lang.Value{b(!x)})[0] {
			t.Errorf("!%v = %d", x, got)
		}
	}
	if got := call(t, p, "first_zero", arr())[0].Word; got != 0 {
		t.Errorf("first_zero([]) = %d", got)
	}
	if got := call(t, p, "first_zero", arr(0))[0].Word; got != 1 {
		t.Errorf("first_zero([0]) = %d", got)
	}
	if got := call(t, p, "empty_or_zero", arr())[0].Word; got != 1 {
		t.Errorf("empty_or_zero([]) = %d", got)
	}
	if got := call(t, p, "empty_or_zero", arr(5))[0].Word; got != 0 {
		t.Errorf("empty_or_zero([5]) = %d", got)
	}
}
