package ir

import (
	"math/bits"

	"github.com/lowent/lowentc/sem"
)

// The meaning of every pure op on constant operands, shared by the
// interpreter and the constant folder so they can never disagree.

// eval1 computes a single-result pure op whose result has type t; at is the
// type of the first argument; x, y, z are the arguments (masked to their types).
// The ops that are Lowent's word operators mean what sem says they do
// (semBinary, semUnary); what is left is the IR's own.
func eval1(op Op, t, at Type, aux, x, y, z uint64) uint64 {
	if so := semBinary[op]; so != sem.OpNone {
		if r, ok := sem.EvalBinary(so, at.Bits(), x, y); ok {
			return r
		}
		// A zero divisor: the program has checked it before (OpCheck),
		// the IR still gives the division a value.
		if op == OpDivU {
			return t.Mask()
		}
		return x
	}
	if so := semUnary[op]; so != 0 {
		return sem.EvalUnary(so, t.Bits(), x)
	}
	n := uint64(t.Bits())
	m := t.Mask()
	switch op {
	case OpConst:
		return aux
	case OpCopy, OpZext:
		return x
	case OpTrunc:
		return x & m
	case OpFshl:
		return (x<<aux | y>>(n-aux)) & m
	case OpFshr:
		return (y>>aux | x<<(n-aux)) & m
	case OpSelect:
		if x != 0 {
			return y
		}
		return z
	}
	panic("BUG: eval1 of " + op.String())
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// eval2 computes the two-result limb ops addc, subb and mulw on n-bit words.
func eval2(op Op, t Type, x, y, c uint64) (uint64, uint64) {
	n := t.Bits()
	m := t.Mask()
	switch op {
	case OpAddC:
		if n == 64 {
			s, co := bits.Add64(x, y, c)
			return s, co
		}
		s := x + y + c
		return s & m, s >> uint(n)
	case OpSubB:
		if n == 64 {
			d, bo := bits.Sub64(x, y, c)
			return d, bo
		}
		return (x - y - c) & m, b2u(x < y+c)
	case OpMulW:
		if n == 64 {
			hi, lo := bits.Mul64(x, y)
			return lo, hi
		}
		p := x * y
		return p & m, p >> uint(n)
	}
	panic("BUG: eval2 of " + op.String())
}

// evalBuiltin computes the u64 builtins on whole (not limb) operands.
func evalBuiltin(op Op, a []uint64) []uint64 {
	switch op {
	case OpClmulLo:
		return []uint64{sem.ClmulLo(a[0], a[1])}
	case OpClmulHi:
		return []uint64{sem.ClmulHi(a[0], a[1])}
	case OpAESEnc:
		x, y := sem.AESEnc(a[0], a[1], a[2], a[3])
		return []uint64{x, y}
	case OpAESEncLast:
		x, y := sem.AESEncLast(a[0], a[1], a[2], a[3])
		return []uint64{x, y}
	case OpSHA256Rnds2, OpSHA256Msg1, OpSHA256Msg2:
		r := sem.SHA256Builtin(shaBuiltin[op], a)
		return r[:]
	}
	panic("BUG: evalBuiltin of " + op.String())
}

// joinLimbs combines little-endian limbs of width w into one word.
func joinLimbs(limbs []uint64, w int) uint64 {
	var x uint64
	for i, l := range limbs {
		x |= l << uint(i*w)
	}
	return x
}

// splitLimbs writes the n little-endian w-bit limbs of x into out.
func splitLimbs(x uint64, w int, out []uint64) {
	m := WordType(w).Mask()
	for i := range out {
		out[i] = x >> uint(i*w) & m
	}
}
