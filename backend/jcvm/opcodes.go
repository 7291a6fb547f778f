package jcvm

import "github.com/lowent/lowentc/ir"

// The JCVM opcodes (Java Card Virtual Machine Specification, chapter 7) the
// code generator emits. opList is the one place that says, for each, its
// number, mnemonic, operand layout (hence its size), stack effect, cost-model
// class and base figure, and what the simulator does with it; the code
// generator, the .jca printer, the size computation, the cost model and the
// simulator all read it through ops.

// Opcode numbers the code generator names. A family of numbered forms
// (sconst_m1..sconst_5, sload_0..sload_3, ifeq_w..ifle_w, ...) is named by
// its first member.
const (
	opSconstM1     = 2  // sconst_m1 .. sconst_5 = 2..8
	opIconstM1     = 9  // iconst_m1 .. iconst_5 = 9..15
	opBspush       = 16 // byte, sign-extended to short
	opSspush       = 17
	opBipush       = 18
	opSipush       = 19
	opIipush       = 20
	opAload        = 21
	opSload        = 22
	opIload        = 23
	opAload0       = 24 // aload_0..3 = 24..27
	opSload0       = 28
	opIload0       = 32
	opBaload       = 37
	opSaload       = 38
	opIaload       = 39
	opSstore       = 41
	opIstore       = 42
	opSstore0      = 47
	opIstore0      = 51
	opBastore      = 56
	opSastore      = 57
	opIastore      = 58
	opPop          = 59
	opPop2         = 60
	opSadd         = 65 // s/i alternate: sadd 65, iadd 66, ssub 67, ...
	opSneg         = 75
	opIneg         = 76
	opSinc         = 89
	opIinc         = 90
	opS2b          = 91
	opS2i          = 92
	opI2b          = 93
	opI2s          = 94
	opIcmp         = 95
	opReturnS      = 120 // sreturn
	opReturnI      = 121 // ireturn
	opReturn       = 122
	opGetstaticA   = 123
	opInvokestatic = 141
	opIfeqW        = 152 // ifeq_w .. ifle_w = 152..157
	opIfScmpeqW    = 162 // if_scmpeq_w .. if_scmple_w = 162..167
	opGotoW        = 168
	opLabel        = 255 // not an opcode: a branch target in the code list
)

// cntArgCells is the slot of the simulator's opcode counts that sums the
// argument cells invokestatic passes (opLabel is never executed).
const cntArgCells = opLabel

// layout is the shape of an instruction's operands in the bytecode.
type layout uint8

const (
	lNone    layout = iota // none
	lLocal                 // u1: a local cell
	lByte                  // s1: a constant
	lShort                 // s2: a constant
	lInt                   // s4: a constant
	lCPool                 // u2: a constant-pool index
	lInc                   // u1 local, s1 increment
	lBranch                // s2: a branch offset (the _w forms)
	lBranch8               // s1: a branch offset (the short forms)
)

// layoutSize is an instruction's encoded length by operand layout.
var layoutSize = [...]int{lNone: 1, lLocal: 2, lByte: 2, lShort: 3, lInt: 5, lCPool: 3, lInc: 3, lBranch: 3, lBranch8: 2}

// opSem is what the simulator does with an opcode; an entry's k (the kind of
// the value handled) and arg complete it.
type opSem uint8

const (
	sUnknown   opSem = iota
	sConst           // push the constant arg
	sPush            // push the operand A
	sLoad            // push local A (arg ≥ 0: local arg, the _n forms)
	sStore           // pop into local A (arg ≥ 0: local arg)
	sALoad           // pop index, reference; push the element (arg: ElemKind)
	sAStore          // pop value, index, reference; store (arg: ElemKind)
	sPop             // drop pop cells
	sArith           // pop two values, push the result of BinOp(arg)
	sNeg             // negate
	sInc             // local A += B
	sS2B             // short to byte (sign-extended to short)
	sS2I             // short to int
	sI2B             // int to byte
	sI2S             // int to short
	sCmp             // int compare: push -1, 0 or 1
	sIf              // pop a short, branch if Rel(arg) holds against 0
	sIfCmp           // pop two shorts, branch if Rel(arg) holds
	sGoto            // branch
	sReturn          // return k
	sGetstatic       // push static field A's reference
	sInvoke          // call constant-pool entry A
)

// opInfo is one opcode's facts.
type opInfo struct {
	op     byte
	name   string
	layout layout
	// pop and push are the operand-stack cells the opcode takes and
	// leaves; -1: they vary (invokestatic: the Insn's Pop and Ret).
	pop, push int8
	class     int     // cost-model class
	us        float64 // cost model: base JCOP4 µs (see cost.go)
	sem       opSem
	k         Kind // the value's kind (KShort, KInt, KRef; KVoid for return)
	arg       int8 // see sem
}

// opList is every opcode the backend emits, and the ones the Java Card
// converter writes in the stdlib's library classes beside them. The base figures solve the
// stack-neutral pair measurements one opcode at a time (sconst 5; pop =
// 5.7 split evenly gives sconst and pop 2.85; then sconst 5; sconst 3;
// sadd; pop = 12.5 gives sadd 3.95, and so on); iaload is an assumption
// (saload + 0.3, like iload against sload) and iastore is persistentWrite
// sastores.
var opList = []opInfo{
	{2, "sconst_m1", lNone, 0, 1, clConst, 2.85, sConst, KShort, -1}, // sconst: half of sconst;pop 5.7
	{3, "sconst_0", lNone, 0, 1, clConst, 2.85, sConst, KShort, 0},
	{4, "sconst_1", lNone, 0, 1, clConst, 2.85, sConst, KShort, 1},
	{5, "sconst_2", lNone, 0, 1, clConst, 2.85, sConst, KShort, 2},
	{6, "sconst_3", lNone, 0, 1, clConst, 2.85, sConst, KShort, 3},
	{7, "sconst_4", lNone, 0, 1, clConst, 2.85, sConst, KShort, 4},
	{8, "sconst_5", lNone, 0, 1, clConst, 2.85, sConst, KShort, 5},
	{9, "iconst_m1", lNone, 0, 2, clConst, 2.7, sConst, KInt, -1},
	{10, "iconst_0", lNone, 0, 2, clConst, 2.7, sConst, KInt, 0},
	{11, "iconst_1", lNone, 0, 2, clConst, 2.7, sConst, KInt, 1},
	{12, "iconst_2", lNone, 0, 2, clConst, 2.7, sConst, KInt, 2},
	{13, "iconst_3", lNone, 0, 2, clConst, 2.7, sConst, KInt, 3},
	{14, "iconst_4", lNone, 0, 2, clConst, 2.7, sConst, KInt, 4},
	{15, "iconst_5", lNone, 0, 2, clConst, 2.7, sConst, KInt, 5},
	{16, "bspush", lByte, 0, 1, clConst, 3.75, sPush, KShort, 0},
	{17, "sspush", lShort, 0, 1, clConst, 3.95, sPush, KShort, 0},
	{18, "bipush", lByte, 0, 2, clConst, 3.2, sPush, KInt, 0},
	{19, "sipush", lShort, 0, 2, clConst, 3.1, sPush, KInt, 0},
	{20, "iipush", lInt, 0, 2, clConst, 4.1, sPush, KInt, 0},
	{21, "aload", lLocal, 0, 1, clLoad, 3.25, sLoad, KRef, -1},
	{22, "sload", lLocal, 0, 1, clLoad, 3.05, sLoad, KShort, -1},
	{23, "iload", lLocal, 0, 2, clLoad, 2.8, sLoad, KInt, -1},
	{24, "aload_0", lNone, 0, 1, clLoad, 3.25, sLoad, KRef, 0},
	{25, "aload_1", lNone, 0, 1, clLoad, 3.25, sLoad, KRef, 1},
	{26, "aload_2", lNone, 0, 1, clLoad, 3.25, sLoad, KRef, 2},
	{27, "aload_3", lNone, 0, 1, clLoad, 3.25, sLoad, KRef, 3},
	{28, "sload_0", lNone, 0, 1, clLoad, 3.05, sLoad, KShort, 0},
	{29, "sload_1", lNone, 0, 1, clLoad, 3.05, sLoad, KShort, 1},
	{30, "sload_2", lNone, 0, 1, clLoad, 3.05, sLoad, KShort, 2},
	{31, "sload_3", lNone, 0, 1, clLoad, 3.05, sLoad, KShort, 3},
	{32, "iload_0", lNone, 0, 2, clLoad, 2.8, sLoad, KInt, 0},
	{33, "iload_1", lNone, 0, 2, clLoad, 2.8, sLoad, KInt, 1},
	{34, "iload_2", lNone, 0, 2, clLoad, 2.8, sLoad, KInt, 2},
	{35, "iload_3", lNone, 0, 2, clLoad, 2.8, sLoad, KInt, 3},
	{37, "baload", lNone, 2, 1, clArray, 15.45, sALoad, KShort, int8(EByte)},
	{38, "saload", lNone, 2, 1, clArray, 17.15, sALoad, KShort, int8(EShort)},
	{39, "iaload", lNone, 2, 2, clArray, 17.45, sALoad, KInt, int8(EInt)},
	{41, "sstore", lLocal, 1, 0, clStore, 4.15, sStore, KShort, -1},
	{42, "istore", lLocal, 2, 0, clStore, 5.6, sStore, KInt, -1},
	{47, "sstore_0", lNone, 1, 0, clStore, 4.15, sStore, KShort, 0},
	{48, "sstore_1", lNone, 1, 0, clStore, 4.15, sStore, KShort, 1},
	{49, "sstore_2", lNone, 1, 0, clStore, 4.15, sStore, KShort, 2},
	{50, "sstore_3", lNone, 1, 0, clStore, 4.15, sStore, KShort, 3},
	{51, "istore_0", lNone, 2, 0, clStore, 5.6, sStore, KInt, 0},
	{52, "istore_1", lNone, 2, 0, clStore, 5.6, sStore, KInt, 1},
	{53, "istore_2", lNone, 2, 0, clStore, 5.6, sStore, KInt, 2},
	{54, "istore_3", lNone, 2, 0, clStore, 5.6, sStore, KInt, 3},
	{56, "bastore", lNone, 3, 0, clArray, 15.65, sAStore, KShort, int8(EByte)},
	{57, "sastore", lNone, 3, 0, clArray, 20.05, sAStore, KShort, int8(EShort)},
	{58, "iastore", lNone, 4, 0, clArray, persistentWrite * 20.05, sAStore, KInt, int8(EInt)},
	{59, "pop", lNone, 1, 0, clStack, 2.85, sPop, KShort, 0},
	{60, "pop2", lNone, 2, 0, clStack, 3.6, sPop, KInt, 0},
	{65, "sadd", lNone, 2, 1, clSALU, 3.95, sArith, KShort, int8(OAdd)},
	{66, "iadd", lNone, 4, 2, clIALU, 4.9, sArith, KInt, int8(OAdd)},
	{67, "ssub", lNone, 2, 1, clSALU, 3.85, sArith, KShort, int8(OSub)},
	{68, "isub", lNone, 4, 2, clIALU, 4.8, sArith, KInt, int8(OSub)},
	{69, "smul", lNone, 2, 1, clSALU, 4.55, sArith, KShort, int8(OMul)},
	{70, "imul", lNone, 4, 2, clIALU, 6.5, sArith, KInt, int8(OMul)},
	{71, "sdiv", lNone, 2, 1, clSALU, 6.15, sArith, KShort, int8(ODiv)},
	{72, "idiv", lNone, 4, 2, clIALU, 7.6, sArith, KInt, int8(ODiv)},
	{73, "srem", lNone, 2, 1, clSALU, 6.95, sArith, KShort, int8(ORem)},
	{74, "irem", lNone, 4, 2, clIALU, 10.0, sArith, KInt, int8(ORem)},
	{75, "sneg", lNone, 1, 1, clSALU, 3.4, sNeg, KShort, 0},
	{76, "ineg", lNone, 2, 2, clIALU, 3.4, sNeg, KInt, 0},
	{77, "sshl", lNone, 2, 1, clSALU, 5.65, sArith, KShort, int8(OShl)},
	{78, "ishl", lNone, 4, 2, clIALU, 6.0, sArith, KInt, int8(OShl)},
	{79, "sshr", lNone, 2, 1, clSALU, 5.45, sArith, KShort, int8(OShr)},
	{80, "ishr", lNone, 4, 2, clIALU, 6.2, sArith, KInt, int8(OShr)},
	{81, "sushr", lNone, 2, 1, clSALU, 5.45, sArith, KShort, int8(OUshr)},
	{82, "iushr", lNone, 4, 2, clIALU, 5.9, sArith, KInt, int8(OUshr)},
	{83, "sand", lNone, 2, 1, clSALU, 4.35, sArith, KShort, int8(OAnd)},
	{84, "iand", lNone, 4, 2, clIALU, 4.8, sArith, KInt, int8(OAnd)},
	{85, "sor", lNone, 2, 1, clSALU, 4.15, sArith, KShort, int8(OOr)},
	{86, "ior", lNone, 4, 2, clIALU, 4.9, sArith, KInt, int8(OOr)},
	{87, "sxor", lNone, 2, 1, clSALU, 4.05, sArith, KShort, int8(OXor)},
	{88, "ixor", lNone, 4, 2, clIALU, 4.8, sArith, KInt, int8(OXor)},
	{89, "sinc", lInc, 0, 0, clStore, 4.2, sInc, KShort, 0},
	{90, "iinc", lInc, 0, 0, clStore, 4.3, sInc, KInt, 0},
	{91, "s2b", lNone, 1, 1, clSALU, 3.4, sS2B, KShort, 0},
	{92, "s2i", lNone, 1, 2, clSALU, 3.4, sS2I, KInt, 0}, // not measured: as s2b
	{93, "i2b", lNone, 2, 1, clIALU, 4.15, sI2B, KShort, 0},
	{94, "i2s", lNone, 2, 1, clIALU, 2.95, sI2S, KShort, 0},
	{95, "icmp", lNone, 4, 1, clIALU, 5.95, sCmp, KShort, 0},
	{120, "sreturn", lNone, 1, 0, clInvoke, 6.9, sReturn, KShort, 0},
	{121, "ireturn", lNone, 2, 0, clInvoke, 6.6, sReturn, KInt, 0},
	{122, "return", lNone, 0, 0, clInvoke, 5.0, sReturn, KVoid, 0},
	{123, "getstatic_a", lCPool, 0, 1, clArray, 7.85, sGetstatic, KRef, 0},
	{141, "invokestatic", lCPool, -1, -1, clInvoke, 16.7, sInvoke, KVoid, 0}, // (void) 21.7 with its return
	{152, "ifeq_w", lBranch, 1, 0, clBranch, 4.75, sIf, KShort, int8(REq)},   // ifeq 4.35, ifne 5.15
	{153, "ifne_w", lBranch, 1, 0, clBranch, 4.75, sIf, KShort, int8(RNe)},
	{154, "iflt_w", lBranch, 1, 0, clBranch, 4.75, sIf, KShort, int8(RLt)},
	{155, "ifge_w", lBranch, 1, 0, clBranch, 4.75, sIf, KShort, int8(RGe)},
	{156, "ifgt_w", lBranch, 1, 0, clBranch, 4.75, sIf, KShort, int8(RGt)},
	{157, "ifle_w", lBranch, 1, 0, clBranch, 4.75, sIf, KShort, int8(RLe)},
	{162, "if_scmpeq_w", lBranch, 2, 0, clBranch, 5.75, sIfCmp, KShort, int8(REq)}, // if_scmplt 5.7, if_scmpeq 5.8
	{163, "if_scmpne_w", lBranch, 2, 0, clBranch, 5.75, sIfCmp, KShort, int8(RNe)},
	{164, "if_scmplt_w", lBranch, 2, 0, clBranch, 5.75, sIfCmp, KShort, int8(RLt)},
	{165, "if_scmpge_w", lBranch, 2, 0, clBranch, 5.75, sIfCmp, KShort, int8(RGe)},
	{166, "if_scmpgt_w", lBranch, 2, 0, clBranch, 5.75, sIfCmp, KShort, int8(RGt)},
	{167, "if_scmple_w", lBranch, 2, 0, clBranch, 5.75, sIfCmp, KShort, int8(RLe)},
	{168, "goto_w", lBranch, 0, 0, clBranch, 3.1, sGoto, KVoid, 0},
	// The short branches (s1 offset), which the backend does not emit but
	// the Java Card converter writes for a target within -128..127 bytes:
	// the published pairs (sconst;ifeq, if_scmplt, ...) time converted
	// code, so they are read as these forms too, and each takes its _w
	// form's figure; goto is assumed to cost goto_w's 3.1 µs.
	{96, "ifeq", lBranch8, 1, 0, clBranch, 4.75, sIf, KShort, int8(REq)},
	{97, "ifne", lBranch8, 1, 0, clBranch, 4.75, sIf, KShort, int8(RNe)},
	{98, "iflt", lBranch8, 1, 0, clBranch, 4.75, sIf, KShort, int8(RLt)},
	{99, "ifge", lBranch8, 1, 0, clBranch, 4.75, sIf, KShort, int8(RGe)},
	{100, "ifgt", lBranch8, 1, 0, clBranch, 4.75, sIf, KShort, int8(RGt)},
	{101, "ifle", lBranch8, 1, 0, clBranch, 4.75, sIf, KShort, int8(RLe)},
	{106, "if_scmpeq", lBranch8, 2, 0, clBranch, 5.75, sIfCmp, KShort, int8(REq)},
	{107, "if_scmpne", lBranch8, 2, 0, clBranch, 5.75, sIfCmp, KShort, int8(RNe)},
	{108, "if_scmplt", lBranch8, 2, 0, clBranch, 5.75, sIfCmp, KShort, int8(RLt)},
	{109, "if_scmpge", lBranch8, 2, 0, clBranch, 5.75, sIfCmp, KShort, int8(RGe)},
	{110, "if_scmpgt", lBranch8, 2, 0, clBranch, 5.75, sIfCmp, KShort, int8(RGt)},
	{111, "if_scmple", lBranch8, 2, 0, clBranch, 5.75, sIfCmp, KShort, int8(RLe)},
	{112, "goto", lBranch8, 0, 0, clBranch, 3.1, sGoto, KVoid, 0},
}

// ops is opList indexed by opcode number (an opcode not in the list has
// sem sUnknown and no name).
var ops = func() (t [256]opInfo) {
	for _, o := range opList {
		if t[o.op].name == "" {
			t[o.op] = o // a duplicate is TestOpcodeTable's to report
		}
	}
	return t
}()

// opName is the mnemonic of opcode op ("" for one the backend never emits).
func opName(op byte) string { return ops[op].name }

// isBranch reports whether op takes a label.
func isBranch(op byte) bool {
	return op != opLabel && (ops[op].layout == lBranch || ops[op].layout == lBranch8)
}

// binOpcode is the short opcode of each binary operation (the int one
// follows it).
var binOpcode = func() (t [ORem + 1]byte) {
	for _, o := range opList {
		if o.sem == sArith && o.k == KShort {
			t[o.arg] = o.op
		}
	}
	return t
}()

// Insn is one bytecode instruction (or a label).
type Insn struct {
	Op  byte
	A   int32 // local index, constant, constant-pool index, or label number
	B   int32 // sinc/iinc: the increment
	Pop int   // stack cells popped (invokestatic: the arguments)
	Ret int   // invokestatic: cells pushed
	// The invokestatic of ISOException.throwIt a failed check makes: the
	// check (the simulator's line table, so it reports the position).
	Check *ir.CheckInfo
}

// size is the encoded length of the instruction in bytes.
func (in Insn) size() int {
	if in.Op == opLabel {
		return 0
	}
	return layoutSize[ops[in.Op].layout]
}

// stackEffect is the operand-stack cells the instruction pops and pushes.
func (in Insn) stackEffect() (pop, push int) {
	o := &ops[in.Op]
	if in.Op == opLabel {
		return 0, 0
	}
	if o.pop < 0 {
		return in.Pop, in.Ret
	}
	return int(o.pop), int(o.push)
}
