package jcvm

import "github.com/lowent/lowentc/ir"

// JCVM opcodes (Java Card Virtual Machine Specification, chapter 7) that the
// code generator emits, with their encoded sizes.
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
	opIastore      = 58
	opSstore       = 41
	opIstore       = 42
	opSstore0      = 47
	opIstore0      = 51
	opBastore      = 56
	opSastore      = 57
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

// binOpcode is the short opcode of a binary operation; the int one follows it.
var binOpcode = [...]byte{OAdd: 65, OSub: 67, OMul: 69, OAnd: 83, OOr: 85, OXor: 87, OShl: 77, OShr: 79, OUshr: 81, ODiv: 71, ORem: 73}

var opNames = map[byte]string{
	0: "nop", 1: "aconst_null", 2: "sconst_m1", 3: "sconst_0", 4: "sconst_1", 5: "sconst_2", 6: "sconst_3",
	7: "sconst_4", 8: "sconst_5", 9: "iconst_m1", 10: "iconst_0", 11: "iconst_1", 12: "iconst_2",
	13: "iconst_3", 14: "iconst_4", 15: "iconst_5", 16: "bspush", 17: "sspush", 18: "bipush", 19: "sipush",
	20: "iipush", 21: "aload", 22: "sload", 23: "iload", 24: "aload_0", 25: "aload_1", 26: "aload_2",
	27: "aload_3", 28: "sload_0", 29: "sload_1", 30: "sload_2", 31: "sload_3", 32: "iload_0", 33: "iload_1",
	34: "iload_2", 35: "iload_3", 37: "baload", 38: "saload", 39: "iaload", 58: "iastore", 41: "sstore", 42: "istore", 47: "sstore_0",
	48: "sstore_1", 49: "sstore_2", 50: "sstore_3", 51: "istore_0", 52: "istore_1", 53: "istore_2",
	54: "istore_3", 56: "bastore", 57: "sastore", 59: "pop", 60: "pop2", 65: "sadd", 66: "iadd", 67: "ssub",
	68: "isub", 69: "smul", 70: "imul", 71: "sdiv", 72: "idiv", 73: "srem", 74: "irem", 75: "sneg", 76: "ineg", 77: "sshl", 78: "ishl", 79: "sshr",
	80: "ishr", 81: "sushr", 82: "iushr", 83: "sand", 84: "iand", 85: "sor", 86: "ior", 87: "sxor",
	88: "ixor", 89: "sinc", 90: "iinc", 91: "s2b", 92: "s2i", 93: "i2b", 94: "i2s", 95: "icmp",
	120: "sreturn", 121: "ireturn", 122: "return", 123: "getstatic_a", 141: "invokestatic",
	152: "ifeq_w", 153: "ifne_w", 154: "iflt_w", 155: "ifge_w", 156: "ifgt_w", 157: "ifle_w",
	162: "if_scmpeq_w", 163: "if_scmpne_w", 164: "if_scmplt_w", 165: "if_scmpge_w", 166: "if_scmpgt_w",
	167: "if_scmple_w", 168: "goto_w",
}

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
	switch {
	case in.Op == opLabel:
		return 0
	case in.Op == opBspush || in.Op == opBipush || in.Op == opAload || in.Op == opSload ||
		in.Op == opIload || in.Op == opSstore || in.Op == opIstore:
		return 2
	case in.Op == opSspush || in.Op == opSipush || in.Op == opSinc || in.Op == opIinc ||
		in.Op == opGetstaticA || in.Op == opInvokestatic || in.Op >= opIfeqW && in.Op <= opGotoW:
		return 3
	case in.Op == opIipush:
		return 5
	}
	return 1
}
