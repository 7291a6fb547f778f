package sem

import "fmt"

// BinOp is a binary operator of Lowent. The parser turns the written
// operator into one; everything after it (the checker, the VM, the
// lowering to IR) switches on the enum, and the meaning of each operator
// on words is EvalBinary's alone.
type BinOp uint8

// The binary operators, in the order of docs/language.md's table. OpNone
// is no operator: the plain `=` of an assignment.
const (
	OpNone   BinOp = iota
	OpMul          // *  wrapping
	OpDiv          // /  unsigned; by zero traps
	OpRem          // %  unsigned; by zero traps
	OpAdd          // +  wrapping
	OpSub          // -  wrapping
	OpShl          // << by >= width gives 0
	OpShr          // >> by >= width gives 0
	OpRotl         // <<< by the amount mod width
	OpRotr         // >>> by the amount mod width
	OpAnd          // &
	OpXor          // ^
	OpOr           // |
	OpEq           // == (words or bools)
	OpNe           // != (words or bools)
	OpLt           // <  unsigned
	OpLe           // <= unsigned
	OpGt           // >  unsigned
	OpGe           // >= unsigned
	OpLogAnd       // && short-circuit
	OpLogOr        // || short-circuit
	numBinOps
)

// UnOp is a unary operator of Lowent; its zero value is no operator.
type UnOp uint8

// The unary operators.
const (
	OpNeg    UnOp = iota + 1 // -x  negation modulo 2^width
	OpBitNot                 // ~x  complement
	OpLogNot                 // !x  bool not
	numUnOps
)

// binClass groups the binary operators by how the checker types them.
type binClass uint8

const (
	classArith   binClass = iota + 1 // both operands and the result of one word type
	classShift                       // result of the left operand's type; amount any word
	classCompare                     // two operands of one type; result bool
	classLogical                     // bool operands, short-circuit
)

// binInfo is everything there is to know about one binary operator.
type binInfo struct {
	spelling string
	class    binClass
	// at is the operator on n-bit words, whose mask is m: a function of
	// a (below 2^n) and b (below 2^n too, unless a shift amount). The
	// function of / or % never sees a zero divisor.
	at func(n uint64, m uint64) func(a, b uint64) uint64
}

var binInfos = [numBinOps]binInfo{
	OpMul: {"*", classArith, func(_, m uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 { return a * b & m }
	}},
	OpDiv: {"/", classArith, func(_, _ uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 { return a / b }
	}},
	OpRem: {"%", classArith, func(_, _ uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 { return a % b }
	}},
	OpAdd: {"+", classArith, func(_, m uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 { return (a + b) & m }
	}},
	OpSub: {"-", classArith, func(_, m uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 { return (a - b) & m }
	}},
	OpShl: {"<<", classShift, func(n, m uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 {
			if b >= n {
				return 0
			}
			return a << b & m
		}
	}},
	OpShr: {">>", classShift, func(n, _ uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 {
			if b >= n {
				return 0
			}
			return a >> b
		}
	}},
	// The widths are powers of two: b&(n-1) is b mod n.
	OpRotl: {"<<<", classShift, func(n, m uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 { return rotl(a, b&(n-1), n, m) }
	}},
	OpRotr: {">>>", classShift, func(n, m uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 { return rotl(a, -b&(n-1), n, m) }
	}},
	OpAnd: {"&", classArith, func(_, _ uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 { return a & b }
	}},
	OpXor: {"^", classArith, func(_, _ uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 { return a ^ b }
	}},
	OpOr: {"|", classArith, func(_, _ uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 { return a | b }
	}},
	OpEq: {"==", classCompare, func(_, _ uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 { return b2u(a == b) }
	}},
	OpNe: {"!=", classCompare, func(_, _ uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 { return b2u(a != b) }
	}},
	OpLt: {"<", classCompare, func(_, _ uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 { return b2u(a < b) }
	}},
	OpLe: {"<=", classCompare, func(_, _ uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 { return b2u(a <= b) }
	}},
	OpGt: {">", classCompare, func(_, _ uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 { return b2u(a > b) }
	}},
	OpGe: {">=", classCompare, func(_, _ uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 { return b2u(a >= b) }
	}},
	// On their values (both operands evaluated), && and || are the and
	// and the or of bools; the short circuit is the evaluators' business.
	OpLogAnd: {"&&", classLogical, func(_, _ uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 { return a & b }
	}},
	OpLogOr: {"||", classLogical, func(_, _ uint64) func(a, b uint64) uint64 {
		return func(a, b uint64) uint64 { return a | b }
	}},
}

// rotl rotates the n-bit word a left by k < n.
func rotl(a, k, n, m uint64) uint64 {
	if k == 0 {
		return a
	}
	return (a<<k | a>>(n-k)) & m
}

// Widths are the widths of Lowent's words and of bool, all powers of two.
var Widths = []int{1, 8, 16, 32, 64}

// binFuncs holds every operator at every width, made once, so that
// evaluating an operator is one call.
var binFuncs [numBinOps][65]func(a, b uint64) uint64

func init() {
	for op := OpNone + 1; op < numBinOps; op++ {
		for _, w := range Widths {
			binFuncs[op][w] = binInfos[op].at(uint64(w), Mask(w))
		}
	}
}

var unSpellings = [numUnOps]string{OpNeg: "-", OpBitNot: "~", OpLogNot: "!"}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// Mask is the all-ones word of the given width in bits (at most 64).
func Mask(width int) uint64 {
	if width >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(width) - 1
}

// String is the operator as written in Lowent source ("" for OpNone).
func (op BinOp) String() string {
	if op < numBinOps {
		return binInfos[op].spelling
	}
	return "?"
}

// String is the operator as written in Lowent source.
func (op UnOp) String() string {
	if op > 0 && op < numUnOps {
		return unSpellings[op]
	}
	return "?"
}

// ParseBinOp is the binary operator written s ("+", "<<<", "&&", ...).
func ParseBinOp(s string) (BinOp, bool) {
	for op := OpNone + 1; op < numBinOps; op++ {
		if binInfos[op].spelling == s {
			return op, true
		}
	}
	return OpNone, false
}

// ParseUnOp is the unary operator written s ("-", "~" or "!").
func ParseUnOp(s string) (UnOp, bool) {
	for op := UnOp(1); op < numUnOps; op++ {
		if unSpellings[op] == s {
			return op, true
		}
	}
	return 0, false
}

// IsArith reports whether op takes two words of one type and gives that
// type: * / % + - & ^ |.
func (op BinOp) IsArith() bool { return op < numBinOps && binInfos[op].class == classArith }

// IsShift reports whether op is a shift or a rotate: the result has the
// left operand's type and the amount may be of any word type.
func (op BinOp) IsShift() bool { return op < numBinOps && binInfos[op].class == classShift }

// IsCompare reports whether op compares two operands of one type, giving bool.
func (op BinOp) IsCompare() bool { return op < numBinOps && binInfos[op].class == classCompare }

// IsLogical reports whether op is && or ||.
func (op BinOp) IsLogical() bool { return op < numBinOps && binInfos[op].class == classLogical }

// IsDivision reports whether op is / or %, which trap on a zero divisor.
func (op BinOp) IsDivision() bool { return op == OpDiv || op == OpRem }

// Compoundable reports whether `x OP= e` exists: the arithmetic operators,
// the shifts and the rotates.
func (op BinOp) Compoundable() bool { return op.IsArith() || op.IsShift() }

// Mirror is the comparison that gives the same answer with its operands
// swapped (a < b is b > a; == and != are their own mirrors). Other
// operators come back unchanged.
func (op BinOp) Mirror() BinOp {
	switch op {
	case OpLt:
		return OpGt
	case OpGt:
		return OpLt
	case OpLe:
		return OpGe
	case OpGe:
		return OpLe
	}
	return op
}

// DivFault is the trap message of a zero divisor of / or %.
func (op BinOp) DivFault() string {
	if op == OpRem {
		return "remainder by zero"
	}
	return "division by zero"
}

// EvalBinary is the meaning of `a op b` on words of the given width (one
// of Widths: 8, 16, 32 or 64 bits, or 1 for bool): a is below 2^width, and so is b
// except as the amount of a shift or rotate, which may be any word. The
// result is below 2^width (0 or 1 for comparisons and && ||):
//
//   - + - * wrap modulo 2^width; / and % are unsigned;
//   - << and >> by width or more give 0;
//   - <<< and >>> rotate by the amount modulo width;
//   - comparisons are unsigned.
//
// It reports false for / and % by zero, where a program traps.
func EvalBinary(op BinOp, width int, a, b uint64) (uint64, bool) {
	if op.IsDivision() && b == 0 {
		return 0, false
	}
	return BinaryFunc(op, width)(a, b), true
}

// BinaryFunc is EvalBinary for one operator and width, for evaluators
// that compile an expression once and run it often. The divisor given to
// the function of / or % must not be zero (check it first: IsDivision).
func BinaryFunc(op BinOp, width int) func(a, b uint64) uint64 {
	if op == OpNone || op >= numBinOps || width < 0 || width > 64 || binFuncs[op][width] == nil {
		panic(fmt.Sprintf("BUG: sem: no binary operator %q at width %d", op, width))
	}
	return binFuncs[op][width]
}

// EvalUnary is the meaning of `op x` on words of the given width (one of
// Widths): - negates modulo 2^width, ~ complements the width's bits, ! is
// bool not (x is 0 or 1).
func EvalUnary(op UnOp, width int, x uint64) uint64 { return UnaryFunc(op, width)(x) }

// UnaryFunc is EvalUnary for one operator and width.
func UnaryFunc(op UnOp, width int) func(x uint64) uint64 {
	if op == 0 || op >= numUnOps || width < 0 || width > 64 || unFuncs[op][width] == nil {
		panic(fmt.Sprintf("BUG: sem: no unary operator %q at width %d", op, width))
	}
	return unFuncs[op][width]
}

// unAt is each unary operator on words of mask m.
var unAt = [numUnOps]func(m uint64) func(x uint64) uint64{
	OpNeg:    func(m uint64) func(x uint64) uint64 { return func(x uint64) uint64 { return -x & m } },
	OpBitNot: func(m uint64) func(x uint64) uint64 { return func(x uint64) uint64 { return ^x & m } },
	OpLogNot: func(uint64) func(x uint64) uint64 { return func(x uint64) uint64 { return x ^ 1 } },
}

var unFuncs [numUnOps][65]func(x uint64) uint64

func init() {
	for op := UnOp(1); op < numUnOps; op++ {
		for _, w := range Widths {
			unFuncs[op][w] = unAt[op](Mask(w))
		}
	}
}
