package llvm

import (
	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// IntOps emits WordOps as LLVM instructions on i64 at the end of a block:
// the computed builtins (soft.go, soft_slice.go) in scalar registers.
type IntOps struct {
	M *Module
	B **llir.Block // the current block of the function being emitted
}

func (o IntOps) cur() *llir.Block                 { return *o.B }
func (o IntOps) C(x uint64) value.Value           { return Cint(types.I64, x) }
func (o IntOps) Xor(a, b value.Value) value.Value { return o.cur().NewXor(a, b) }
func (o IntOps) And(a, b value.Value) value.Value { return o.cur().NewAnd(a, b) }
func (o IntOps) Or(a, b value.Value) value.Value  { return o.cur().NewOr(a, b) }
func (o IntOps) Mul(a, b value.Value) value.Value { return o.cur().NewMul(a, b) }
func (o IntOps) Shl(a value.Value, k uint) value.Value {
	return o.cur().NewShl(a, Cint(types.I64, uint64(k)))
}
func (o IntOps) Shr(a value.Value, k uint) value.Value {
	return o.cur().NewLShr(a, Cint(types.I64, uint64(k)))
}
func (o IntOps) Bswap(a value.Value) value.Value {
	return o.cur().NewCall(o.M.Intrinsic("llvm.bswap.i64", types.I64, types.I64), a)
}
