package sem

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
	// eval is the operator on width-bit words: a (and b, unless a shift
	// amount) are below 2^n, m is the width's mask. Division and
	// remainder never see a zero divisor here.
	eval func(a, b uint64, n uint, m uint64) uint64
}

var binInfos = [numBinOps]binInfo{
	OpNone: {"", 0, nil},
	OpMul:  {"*", classArith, func(a, b uint64, _ uint, m uint64) uint64 { return a * b & m }},
	OpDiv:  {"/", classArith, func(a, b uint64, _ uint, _ uint64) uint64 { return a / b }},
	OpRem:  {"%", classArith, func(a, b uint64, _ uint, _ uint64) uint64 { return a % b }},
	OpAdd:  {"+", classArith, func(a, b uint64, _ uint, m uint64) uint64 { return (a + b) & m }},
	OpSub:  {"-", classArith, func(a, b uint64, _ uint, m uint64) uint64 { return (a - b) & m }},
	OpShl:  {"<<", classShift, shl},
	OpShr:  {">>", classShift, shr},
	OpRotl: {"<<<", classShift, rotl},
	OpRotr: {">>>", classShift, rotr},
	OpAnd:  {"&", classArith, func(a, b uint64, _ uint, _ uint64) uint64 { return a & b }},
	OpXor:  {"^", classArith, func(a, b uint64, _ uint, _ uint64) uint64 { return a ^ b }},
	OpOr:   {"|", classArith, func(a, b uint64, _ uint, _ uint64) uint64 { return a | b }},
	OpEq:   {"==", classCompare, func(a, b uint64, _ uint, _ uint64) uint64 { return b2u(a == b) }},
	OpNe:   {"!=", classCompare, func(a, b uint64, _ uint, _ uint64) uint64 { return b2u(a != b) }},
	OpLt:   {"<", classCompare, func(a, b uint64, _ uint, _ uint64) uint64 { return b2u(a < b) }},
	OpLe:   {"<=", classCompare, func(a, b uint64, _ uint, _ uint64) uint64 { return b2u(a <= b) }},
	OpGt:   {">", classCompare, func(a, b uint64, _ uint, _ uint64) uint64 { return b2u(a > b) }},
	OpGe:   {">=", classCompare, func(a, b uint64, _ uint, _ uint64) uint64 { return b2u(a >= b) }},
	// On the values (both operands evaluated), && and || are and and or
	// of bools; the short circuit is the evaluators' business.
	OpLogAnd: {"&&", classLogical, func(a, b uint64, _ uint, _ uint64) uint64 { return a & b }},
	OpLogOr:  {"||", classLogical, func(a, b uint64, _ uint, _ uint64) uint64 { return a | b }},
}

func shl(a, b uint64, n uint, m uint64) uint64 {
	if b >= uint64(n) {
		return 0
	}
	return a << b & m
}

func shr(a, b uint64, n uint, _ uint64) uint64 {
	if b >= uint64(n) {
		return 0
	}
	return a >> b
}

func rotl(a, b uint64, n uint, m uint64) uint64 {
	k := uint(b % uint64(n))
	if k == 0 {
		return a
	}
	return (a<<k | a>>(n-k)) & m
}

func rotr(a, b uint64, n uint, m uint64) uint64 {
	return rotl(a, uint64(n)-b%uint64(n), n, m)
}

var unSpellings = [numUnOps]string{OpNeg: "-", OpBitNot: "~", OpLogNot: "!"}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// Mask is the all-ones word of the given width (1 to 64 bits; a bool is a
// word of width 1).
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

// Mirror is the comparison that gives the same answer with the operands
// swapped (a < b is b > a); other operators are their own mirror only when
// they commute, and Mirror returns them unchanged.
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

// Negate is the comparison that is true exactly when op is false
// (== and !=, < and >=, ...), and OpNone for operators that are not
// comparisons.
func (op BinOp) Negate() BinOp {
	switch op {
	case OpEq:
		return OpNe
	case OpNe:
		return OpEq
	case OpLt:
		return OpGe
	case OpGe:
		return OpLt
	case OpLe:
		return OpGt
	case OpGt:
		return OpLe
	}
	return OpNone
}

// DivFault is the trap message of a zero divisor of / or %.
func (op BinOp) DivFault() string {
	if op == OpRem {
		return "remainder by zero"
	}
	return "division by zero"
}

// EvalBinary is the meaning of `a op b` on words of the given width (1 to
// 64 bits; a bool is a word of width 1): a is below 2^width, and so is b
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
	return binInfos[checkBin(op)].eval(a, b, uint(width), Mask(width)), true
}

// BinaryFunc is EvalBinary for one operator and width, for evaluators
// that compile an expression once and run it often. The divisor given to
// the function of / or % must not be zero (check it first: IsDivision).
func BinaryFunc(op BinOp, width int) func(a, b uint64) uint64 {
	f, n, m := binInfos[checkBin(op)].eval, uint(width), Mask(width)
	return func(a, b uint64) uint64 { return f(a, b, n, m) }
}

// EvalUnary is the meaning of `op x` on words of the given width: - negates
// modulo 2^width, ~ complements the width's bits, ! is bool not (x is 0 or 1).
func EvalUnary(op UnOp, width int, x uint64) uint64 {
	m := Mask(width)
	switch op {
	case OpNeg:
		return -x & m
	case OpBitNot:
		return ^x & m
	case OpLogNot:
		return x ^ 1
	}
	panic("BUG: sem: EvalUnary of unary operator " + op.String())
}

func checkBin(op BinOp) BinOp {
	if op == OpNone || op >= numBinOps {
		panic("BUG: sem: no binary operator " + op.String())
	}
	return op
}
