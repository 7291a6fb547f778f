package amd64

import (
	"fmt"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

// `have FEATURE` and the SHA-256 builtins. The IR keeps `have` for this
// backend (ir.Options.KeepHave), and every SHA-256 builtin sits in the
// `have sha` branch of an if whose other branch computes it (pass
// features), so each variant emits exactly one branch: SHA256RNDS2,
// SHA256MSG1 and SHA256MSG2 where the variant has the SHA extensions,
// the arithmetic elsewhere.

var v4i32 = types.NewVector(4, types.I32)

// Have answers `have f` for the variant being emitted.
func (g *fgen) Have(f sem.Feature) bool {
	switch f {
	case sem.FeatSHA:
		return g.v.sha
	case sem.FeatIFMA:
		return g.v.ifma
	case sem.FeatAES, sem.FeatPCLMUL:
		return g.v.hw
	}
	return false
}

// vec4 packs four i32 values into an xmm value (lane 0 first); nil lanes
// are left undefined.
func (g *fgen) vec4(xs ...value.Value) value.Value {
	v := value.Value(constant.NewUndef(v4i32))
	for i, x := range xs {
		if x != nil {
			v = g.Cur.NewInsertElement(v, x, llvm.Cint(types.I32, uint64(i)))
		}
	}
	return v
}

// sha emits a SHA-256 builtin as its instruction.
func (g *fgen) sha(in *ir.Instr) error {
	if !g.v.sha {
		return fmt.Errorf("BUG: amd64: %s: %s outside `if have sha` in variant %s", g.F.Name, in.Op, g.v.name)
	}
	a := make([]value.Value, len(in.Args))
	for i, x := range in.Args {
		a[i] = g.Val(x)
	}
	var r value.Value
	switch in.Op {
	case ir.OpSHA256Rnds2:
		fn := g.Intrinsic("llvm.x86.sha256rnds2", v4i32, v4i32, v4i32, v4i32)
		r = g.Cur.NewCall(fn, g.vec4(a[0:4]...), g.vec4(a[4:8]...), g.vec4(a[8], a[9], nil, nil))
	case ir.OpSHA256Msg1, ir.OpSHA256Msg2:
		name := "llvm.x86.sha256msg1"
		if in.Op == ir.OpSHA256Msg2 {
			name = "llvm.x86.sha256msg2"
		}
		fn := g.Intrinsic(name, v4i32, v4i32, v4i32)
		r = g.Cur.NewCall(fn, g.vec4(a[0:4]...), g.vec4(a[4:8]...))
	default:
		return fmt.Errorf("BUG: amd64: %s is not a SHA-256 builtin", in.Op)
	}
	for i, res := range in.Results {
		g.Vals[res] = g.Cur.NewExtractElement(r, llvm.Cint(types.I32, uint64(i)))
	}
	return nil
}
