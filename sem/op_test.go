package sem

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// goWord is Go's own arithmetic on unsigned words of one width, the
// reference EvalBinary and EvalUnary are checked against: Go's + - * wrap,
// its shifts by the width or more give 0, and math/bits rotates.
type goWord interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

func goBinary[T goWord](op BinOp, a, b uint64, rot func(T, int) T, width int) (uint64, bool) {
	x, y := T(a), T(b)
	switch op {
	case OpAdd:
		return uint64(x + y), true
	case OpSub:
		return uint64(x - y), true
	case OpMul:
		return uint64(x * y), true
	case OpDiv:
		if y == 0 {
			return 0, false
		}
		return uint64(x / y), true
	case OpRem:
		if y == 0 {
			return 0, false
		}
		return uint64(x % y), true
	case OpAnd:
		return uint64(x & y), true
	case OpOr:
		return uint64(x | y), true
	case OpXor:
		return uint64(x ^ y), true
	case OpShl: // the amount is any word: shift by the whole of b
		return uint64(x << b), true
	case OpShr:
		return uint64(x >> b), true
	case OpRotl:
		return uint64(rot(x, int(b%uint64(width)))), true
	case OpRotr:
		return uint64(rot(x, -int(b%uint64(width)))), true
	case OpEq:
		return b2u(x == y), true
	case OpNe:
		return b2u(x != y), true
	case OpLt:
		return b2u(x < y), true
	case OpLe:
		return b2u(x <= y), true
	case OpGt:
		return b2u(x > y), true
	case OpGe:
		return b2u(x >= y), true
	}
	panic("no reference for " + op.String())
}

func goUnary[T goWord](op UnOp, a uint64) uint64 {
	x := T(a)
	switch op {
	case OpNeg:
		return uint64(-x)
	case OpBitNot:
		return uint64(^x)
	}
	panic("no reference for " + op.String())
}

func reference(op BinOp, width int, a, b uint64) (uint64, bool) {
	switch width {
	case 8:
		return goBinary(op, a, b, bits.RotateLeft8, 8)
	case 16:
		return goBinary(op, a, b, bits.RotateLeft16, 16)
	case 32:
		return goBinary(op, a, b, bits.RotateLeft32, 32)
	}
	return goBinary(op, a, b, bits.RotateLeft64, 64)
}

func referenceUnary(op UnOp, width int, a uint64) uint64 {
	switch width {
	case 8:
		return goUnary[uint8](op, a)
	case 16:
		return goUnary[uint16](op, a)
	case 32:
		return goUnary[uint32](op, a)
	}
	return goUnary[uint64](op, a)
}

// edgeValues are the words of a width where wrapping, shifting and
// dividing change behaviour.
func edgeValues(width int) []uint64 {
	m := Mask(width)
	vs := []uint64{0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 65, 127, 128, 255, 256,
		m, m - 1, m >> 1, m>>1 + 1, uint64(width - 1), uint64(width), uint64(width + 1)}
	var out []uint64
	for _, v := range vs {
		if v <= m {
			out = append(out, v)
		}
	}
	return out
}

// shiftAmounts are amounts of any word type: beyond the width, and far beyond.
var shiftAmounts = []uint64{0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256, 1 << 32, ^uint64(0), ^uint64(0) - 63}

func TestEvalBinaryAgainstGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for op := OpNone + 1; op < numBinOps; op++ {
		if op.IsLogical() {
			continue // bool operands: TestEvalLogical
		}
		for _, width := range []int{8, 16, 32, 64} {
			m := Mask(width)
			as := edgeValues(width)
			bs := as
			if op.IsShift() {
				bs = append(append([]uint64{}, as...), shiftAmounts...)
			}
			check := func(a, b uint64) {
				t.Helper()
				got, ok := EvalBinary(op, width, a, b)
				want, wantOK := reference(op, width, a, b)
				if got != want || ok != wantOK {
					t.Fatalf("u%d: %#x %s %#x = %#x (ok %v), Go says %#x (ok %v)", width, a, op, b, got, ok, want, wantOK)
				}
				if ok {
					if f := BinaryFunc(op, width)(a, b); f != got {
						t.Fatalf("u%d: BinaryFunc: %#x %s %#x = %#x, EvalBinary %#x", width, a, op, b, f, got)
					}
				}
				if got > m {
					t.Fatalf("u%d: %#x %s %#x = %#x is wider than the type", width, a, op, b, got)
				}
			}
			for _, a := range as {
				for _, b := range bs {
					check(a, b)
				}
			}
			for range 2000 {
				a, b := rng.Uint64()&m, rng.Uint64()&m
				if op.IsShift() && rng.IntN(2) == 0 {
					b = rng.Uint64N(uint64(2*width + 2))
				}
				if op.IsDivision() && rng.IntN(4) == 0 {
					b &= 0xff // small divisors, some zero
				}
				check(a, b)
			}
		}
	}
}

func TestEvalUnaryAgainstGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, op := range []UnOp{OpNeg, OpBitNot} {
		for _, width := range []int{8, 16, 32, 64} {
			m := Mask(width)
			vals := edgeValues(width)
			for range 2000 {
				vals = append(vals, rng.Uint64()&m)
			}
			for _, a := range vals {
				if got, want := EvalUnary(op, width, a), referenceUnary(op, width, a); got != want {
					t.Fatalf("u%d: %s%#x = %#x, Go says %#x", width, op, a, got, want)
				}
			}
		}
	}
	for _, width := range []int{1, 8, 64} {
		if EvalUnary(OpLogNot, width, 0) != 1 || EvalUnary(OpLogNot, width, 1) != 0 {
			t.Fatalf("!: not bool not at width %d", width)
		}
	}
}

// TestEvalLogical checks && and || and the operators that bools share with
// words, on bools (words of width 1).
func TestEvalLogical(t *testing.T) {
	for a := range uint64(2) {
		for b := range uint64(2) {
			x, y := a == 1, b == 1
			for op, want := range map[BinOp]bool{
				OpLogAnd: x && y, OpLogOr: x || y, OpAnd: x && y, OpOr: x || y, OpXor: x != y,
				OpEq: x == y, OpNe: x != y,
			} {
				if got, _ := EvalBinary(op, 1, a, b); got != b2u(want) {
					t.Errorf("%v %s %v = %d, want %v", x, op, y, got, want)
				}
			}
		}
	}
}

func TestOperatorSpellings(t *testing.T) {
	seen := map[string]bool{}
	for op := OpNone + 1; op < numBinOps; op++ {
		s := op.String()
		if s == "" || seen[s] {
			t.Fatalf("binary operator %d spelled %q", op, s)
		}
		seen[s] = true
		if back, ok := ParseBinOp(s); !ok || back != op {
			t.Fatalf("ParseBinOp(%q) = %v, %v", s, back, ok)
		}
		classes := 0
		for _, is := range []bool{op.IsArith(), op.IsShift(), op.IsCompare(), op.IsLogical()} {
			if is {
				classes++
			}
		}
		if classes != 1 {
			t.Fatalf("%s is in %d classes", op, classes)
		}
		if op.IsCompare() {
			if m := op.Mirror(); m.Mirror() != op || !m.IsCompare() {
				t.Fatalf("%s: Mirror is not an involution on comparisons", op)
			}
			for _, a := range []uint64{0, 1, 2} {
				for _, b := range []uint64{0, 1, 2} {
					x, _ := EvalBinary(op, 8, a, b)
					y, _ := EvalBinary(op.Mirror(), 8, b, a)
					if x != y {
						t.Fatalf("%d %s %d is not %d %s %d", a, op, b, b, op.Mirror(), a)
					}
				}
			}
		}
	}
	for op := UnOp(1); op < numUnOps; op++ {
		if back, ok := ParseUnOp(op.String()); !ok || back != op {
			t.Fatalf("ParseUnOp(%q) = %v, %v", op.String(), back, ok)
		}
	}
	for _, s := range []string{"", "=", "+=", "**", "<<<="} {
		if _, ok := ParseBinOp(s); ok {
			t.Fatalf("ParseBinOp(%q) succeeded", s)
		}
	}
}
