package ir

import "github.com/lowent/lowentc/sem"

// Op is an instruction's operation. The table opInfos describes each one;
// doc.go gives the meaning of every op.
type Op uint8

const (
	OpInvalid Op = iota

	OpConst // Aux = value
	OpCopy  // identity; copyprop removes it

	// Arithmetic and logic on words of one type T: result T.
	OpAdd
	OpSub
	OpMul
	OpDivU // x / 0 = all ones
	OpRemU // x % 0 = x
	OpAnd  // also on bool
	OpOr   // also on bool
	OpXor  // also on bool
	OpNot  // also on bool
	OpNeg

	// Shifts and rotates: Args[0] of type T, Args[1] an amount of any word
	// type. shl/shr by >= bits(T) give 0; rotates use the amount mod bits(T).
	OpShl
	OpShr
	OpRotl
	OpRotr
	// Funnel shifts by the constant Aux (0 < Aux < bits(T)):
	// fshl(hi, lo) = high half of (hi:lo) << Aux; fshr(hi, lo) = low half of (hi:lo) >> Aux.
	OpFshl
	OpFshr

	// Comparisons of two values of one type (words unsigned): result bool.
	OpEq
	OpNe
	OpUlt
	OpUle

	OpZext   // to a wider (or equal) word type; bool gives 0 or 1
	OpTrunc  // to a narrower (or equal) word type
	OpSelect // select(c bool, a, b): a if c else b

	// Limb arithmetic (introduced by legalization, usable anywhere).
	OpAddC // addc(a, b, cin bool) -> (a+b+cin mod 2^n, carry-out bool)
	OpSubB // subb(a, b, bin bool) -> (a-b-bin mod 2^n, borrow-out bool)
	OpMulW // mulw(a, b) -> (low n bits, high n bits) of the 2n-bit product

	// Builtins with one meaning on every target (sem.ClmulLo, sem.AESEnc...).
	// After legalization their u64 operands and results are limb groups.
	OpClmulLo    // (a, b u64) -> u64
	OpClmulHi    // (a, b u64) -> u64
	OpAESEnc     // (s0, s1, k0, k1 u64) -> (u64, u64)
	OpAESEncLast // (s0, s1, k0, k1 u64) -> (u64, u64)
	// The SHA-256 builtins on u32 lanes (sem.SHA256Rnds2...). They exist
	// only in IR that is not legalized below W=64: pass features expands
	// them into plain u32 arithmetic everywhere else.
	OpSHA256Rnds2 // (cdgh 4 u32, abef 4 u32, wk0, wk1 u32) -> 4 u32
	OpSHA256Msg1  // (x 4 u32, y 4 u32) -> 4 u32
	OpSHA256Msg2  // (x 4 u32, y 4 u32) -> 4 u32
	// OpHave is `have FEATURE` (Aux = the sem.Feature): a bool a backend
	// answers per compiled variant. Pass features folds it unless
	// Options.KeepHave.
	OpHave

	// Memory. Arr is the array; indexes and offsets are IndexType (a limb
	// group after legalization).
	OpLoad    // load Arr[idx] -> elem
	OpStore   // store Arr[idx] = v
	OpLen     // len Arr -> IndexType (element count of a slice parameter)
	OpLoadLE  // Aux-bit little-endian word from the bytes Arr[off..]
	OpLoadBE  // Aux-bit big-endian word from the bytes Arr[off..]
	OpStoreLE // store an Aux-bit word little-endian at Arr[off..]
	OpStoreBE // store an Aux-bit word big-endian at Arr[off..]

	OpCheck // check cond: stop with Check's position and message when false
	OpCall  // call Callee; Arrs are the array arguments
	OpTrace // trace values on the host (the interpreter ignores it)

	// Structured control flow.
	OpIf     // if cond {Blocks[0]} else {Blocks[1]} -> results yielded by both
	OpFor    // for idx = lo; idx < hi; idx++ {Blocks[0]} with loop-carried values
	OpYield  // ends an if branch or a loop body
	OpReturn // ends a function body

	numOps
)

// opClass says how an op may be moved, merged or removed.
type opClass uint8

const (
	classPure    opClass = iota // no memory, no effects: CSE and DCE freely
	classRead                   // reads memory: removable when unused, CSE only with care
	classEffect                 // writes memory, may stop, or talks to the host
	classControl                // if, for (their bodies decide), yield, return
)

type opInfo struct {
	name  string
	class opClass
	nargs int // fixed argument count before legalization, -1 variable
}

var opInfos = [numOps]opInfo{
	OpInvalid:     {"invalid", classEffect, -1},
	OpConst:       {"const", classPure, 0},
	OpCopy:        {"copy", classPure, 1},
	OpAdd:         {"add", classPure, 2},
	OpSub:         {"sub", classPure, 2},
	OpMul:         {"mul", classPure, 2},
	OpDivU:        {"divu", classPure, 2},
	OpRemU:        {"remu", classPure, 2},
	OpAnd:         {"and", classPure, 2},
	OpOr:          {"or", classPure, 2},
	OpXor:         {"xor", classPure, 2},
	OpNot:         {"not", classPure, 1},
	OpNeg:         {"neg", classPure, 1},
	OpShl:         {"shl", classPure, 2},
	OpShr:         {"shr", classPure, 2},
	OpRotl:        {"rotl", classPure, 2},
	OpRotr:        {"rotr", classPure, 2},
	OpFshl:        {"fshl", classPure, 2},
	OpFshr:        {"fshr", classPure, 2},
	OpEq:          {"eq", classPure, 2},
	OpNe:          {"ne", classPure, 2},
	OpUlt:         {"ult", classPure, 2},
	OpUle:         {"ule", classPure, 2},
	OpZext:        {"zext", classPure, 1},
	OpTrunc:       {"trunc", classPure, 1},
	OpSelect:      {"select", classPure, 3},
	OpAddC:        {"addc", classPure, 3},
	OpSubB:        {"subb", classPure, 3},
	OpMulW:        {"mulw", classPure, 2},
	OpClmulLo:     {"clmul_lo", classPure, 2},
	OpClmulHi:     {"clmul_hi", classPure, 2},
	OpAESEnc:      {"aes_enc", classPure, 4},
	OpAESEncLast:  {"aes_enclast", classPure, 4},
	OpSHA256Rnds2: {"sha256_rnds2", classPure, 10},
	OpSHA256Msg1:  {"sha256_msg1", classPure, 8},
	OpSHA256Msg2:  {"sha256_msg2", classPure, 8},
	OpHave:        {"have", classPure, 0},
	OpLoad:        {"load", classRead, 1},
	OpStore:       {"store", classEffect, 2},
	OpLen:         {"len", classRead, 0},
	OpLoadLE:      {"loadle", classRead, 1},
	OpLoadBE:      {"loadbe", classRead, 1},
	OpStoreLE:     {"storele", classEffect, 2},
	OpStoreBE:     {"storebe", classEffect, 2},
	OpCheck:       {"check", classEffect, 1},
	OpCall:        {"call", classEffect, -1},
	OpTrace:       {"trace", classEffect, -1},
	OpIf:          {"if", classControl, 1},
	OpFor:         {"for", classControl, -1},
	OpYield:       {"yield", classControl, -1},
	OpReturn:      {"return", classControl, -1},
}

func (o Op) String() string {
	if int(o) < len(opInfos) && opInfos[o].name != "" {
		return opInfos[o].name
	}
	return "op?"
}

// IsPure reports whether the op has no effect beyond its results and reads no
// memory: such instructions may be merged, moved and removed freely.
func (o Op) IsPure() bool { return opInfos[o].class == classPure }

// ReadsMemory reports whether the op only reads memory (load, len, loadle/be).
func (o Op) ReadsMemory() bool { return opInfos[o].class == classRead }

// HasEffect reports whether the op writes memory, may stop the program or
// talks to the host.
func (o Op) HasEffect() bool { return opInfos[o].class == classEffect }

// IsCommutative reports whether swapping the first two arguments keeps the meaning.
func (o Op) IsCommutative() bool {
	switch o {
	case OpAdd, OpMul, OpAnd, OpOr, OpXor, OpEq, OpNe, OpMulW, OpClmulLo, OpClmulHi:
		return true
	}
	return false
}

// isCompare reports whether the op is a comparison giving bool.
func (o Op) isCompare() bool { return o >= OpEq && o <= OpUle }

// semBinary maps the IR ops that are Lowent's binary word operators to
// them: on operands of one type (for shifts, a value and an amount of any
// word type) they mean what sem.EvalBinary says, except that the IR gives
// a division by zero a value (divu: all ones, remu: the dividend) where
// the language traps. OpNot and OpNeg are the unary ~ and - (semUnary);
// on bool, OpNot is !.
var semBinary = [numOps]sem.BinOp{
	OpAdd: sem.OpAdd, OpSub: sem.OpSub, OpMul: sem.OpMul, OpDivU: sem.OpDiv, OpRemU: sem.OpRem,
	OpAnd: sem.OpAnd, OpOr: sem.OpOr, OpXor: sem.OpXor,
	OpShl: sem.OpShl, OpShr: sem.OpShr, OpRotl: sem.OpRotl, OpRotr: sem.OpRotr,
	OpEq: sem.OpEq, OpNe: sem.OpNe, OpUlt: sem.OpLt, OpUle: sem.OpLe,
}

var semUnary = [numOps]sem.UnOp{OpNot: sem.OpBitNot, OpNeg: sem.OpNeg}

// ForBinary is the op that computes the word operator `a op b`, and
// whether it takes its operands swapped (a > b is ult(b, a)). It is
// OpInvalid for && and ||, whose short circuit is control flow.
func ForBinary(op sem.BinOp) (o Op, swapped bool) {
	switch op {
	case sem.OpGt:
		return OpUlt, true
	case sem.OpGe:
		return OpUle, true
	}
	for o, so := range semBinary {
		if so == op && so != sem.OpNone {
			return Op(o), false
		}
	}
	return OpInvalid, false
}

// ForUnary is the op that computes `op x` (~x and !x are both not).
func ForUnary(op sem.UnOp) Op {
	if op == sem.OpLogNot {
		return OpNot
	}
	for o, so := range semUnary {
		if so == op && so != 0 {
			return Op(o)
		}
	}
	return OpInvalid
}
