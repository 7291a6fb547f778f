package arm64

import (
	"fmt"

	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

// The selection of `have F` and of the builtins. A crypto variant maps
// each builtin to the Armv8 Cryptography Extensions so that the result is
// the builtin's one meaning (sem: the x86 instructions' semantics):
//
//   - aes_enc: AESE with a zero key (SubBytes and ShiftRows; AESE adds its
//     key before them, x86's AESENC after MixColumns), AESMC, then EOR
//     with the round key; aes_enclast: AESE with a zero key, EOR.
//   - clmul_lo/clmul_hi: one PMULL of the two words (both halves of one
//     product share it).
//   - sha256_msg1: SHA256SU0, which is SHA256MSG1 lane for lane.
//   - sha256_msg2: SHA256SU1 with its second operand zero and lane 0 of
//     its third zero (SHA256SU1 adds W[t-7] itself; SHA256MSG2 leaves that
//     to the caller): then it is SHA256MSG2.
//   - sha256_rnds2: two rounds on the ABEF/CDGH halves. SHA256H and
//     SHA256H2 do four rounds on ABCD/EFGH; after four rounds ABCD holds
//     (a4, a3, a2, a1) and EFGH (e4, e3, e2, e1), so the state after two
//     rounds is in lanes 2 and 3 of each, whatever the third and fourth
//     round's words. The new ABEF is (e1, e2, a1, a2). Two sha256_rnds2
//     that make four consecutive rounds (as SHA-256 is written for the x86
//     instructions) are one SHA256H and one SHA256H2 (rnds4).
//
// A computed variant has no crypto instruction at all: clmul and the AES
// rounds are backend/llvm's computed forms (constant time, no tables),
// and `have F` is false, so the SHA-256 builtins (always inside `if have
// sha`) are never emitted.

var (
	v16i8 = types.NewVector(16, types.I8)
	v2i64 = types.NewVector(2, types.I64)
	v4i32 = types.NewVector(4, types.I32)
)

// clmulPair is the product of two words in one block.
type clmulPair struct {
	lo, hi value.Value
	blk    *llir.Block
}

// fgen is the AArch64 instruction selection of one variant of one
// function.
type fgen struct {
	*llvm.Func
	v     variant
	soft  *llvm.SoftAES // the computed AES of a computed variant
	pairs map[[2]value.Value]clmulPair
	// The sha256_rnds2 pairs of a crypto variant: the first's second, the
	// seconds, and the result of a second emitted with its first.
	pair   map[*ir.Instr]*ir.Instr
	paired map[*ir.Instr]bool
	fused  map[*ir.Instr][4]value.Value
}

// Have answers `have f`: true in a crypto variant for every feature.
func (g *fgen) Have(f sem.Feature) bool {
	switch f {
	case sem.FeatAES, sem.FeatPCLMUL, sem.FeatSHA:
		return g.v.crypto
	}
	return false
}

// Plan groups the AES rounds of a block of a computed variant for the
// bitsliced circuit, and pairs the SHA-256 double rounds of a crypto
// variant's block (planRounds).
func (g *fgen) Plan(b *ir.Block) any {
	if g.soft == nil {
		g.planRounds(b)
		return nil
	}
	return g.soft.Plan(b)
}

// Select emits the AES rounds of a computed variant and the paired
// SHA-256 rounds of a crypto variant.
func (g *fgen) Select(in *ir.Instr, plan any) bool {
	if p, ok := plan.(*llvm.AESPlan); ok {
		return g.soft.Select(g.Func, in, p)
	}
	if in.Op != ir.OpSHA256Rnds2 {
		return false
	}
	if res, ok := g.fused[in]; ok {
		for i, r := range in.Results {
			g.Vals[r] = res[i]
		}
		return true
	}
	if second, ok := g.pair[in]; ok {
		return g.rnds4(in, second)
	}
	return false
}

// Pairs of sha256_rnds2 that make four consecutive rounds: the second
// takes the first's result as its ABEF and the first's ABEF as its CDGH
// (the way SHA-256 is written with SHA256RNDS2), and nothing between them
// reads the first's result. Each may sit alone in the `have sha` branch of
// an if (pass features). The pair is one SHA256H and one SHA256H2,
// emitted at the first with the second's round words (rnds4).

// rounds2 returns the sha256_rnds2 that in is, or that in's then-branch
// holds alone, and the values that carry its result in the block.
func rounds2(in *ir.Instr) (*ir.Instr, []*ir.Value) {
	if in.Op == ir.OpSHA256Rnds2 {
		return in, in.Results
	}
	if in.Op != ir.OpIf || len(in.Blocks) == 0 || len(in.Blocks[0].Instrs) != 2 {
		return nil, nil
	}
	r, y := in.Blocks[0].Instrs[0], in.Blocks[0].Instrs[1]
	if r.Op != ir.OpSHA256Rnds2 || y.Op != ir.OpYield || len(y.Args) != 4 || len(in.Results) != 4 {
		return nil, nil
	}
	for i, a := range y.Args {
		if a != r.Results[i] {
			return nil, nil
		}
	}
	return r, in.Results
}

// planRounds records the pairs of block b.
func (g *fgen) planRounds(b *ir.Block) {
	for i, x := range b.Instrs {
		first, res := rounds2(x)
		if first == nil || g.paired[first] {
			continue
		}
		for _, y := range b.Instrs[i+1:] {
			if second, _ := rounds2(y); second != nil && follows(first, res, second) {
				g.pair[first], g.paired[second] = second, true
				break
			}
			if ir.Reads(y, res...) || ir.Reads(y, first.Results...) {
				break
			}
		}
	}
}

// follows says whether second does the two rounds after first's, whose
// result is res.
func follows(first *ir.Instr, res []*ir.Value, second *ir.Instr) bool {
	for i := 0; i < 4; i++ {
		if second.Args[i] != first.Args[4+i] || second.Args[4+i] != res[i] {
			return false
		}
	}
	return true
}

// early returns v's LLVM value, emitting now the constants and additions
// it is made of when they come later in the block (the second round
// pair's words, W + K): the later emission repeats them, and LLVM merges
// the two. False when v is made of anything else.
func (g *fgen) early(v *ir.Value, depth int) (value.Value, bool) {
	if x, ok := g.Vals[v]; ok {
		return x, true
	}
	d := v.Def
	if d == nil || depth > 3 {
		return nil, false
	}
	switch d.Op {
	case ir.OpConst:
		return llvm.Cint(llvm.ValueType(v.Type), d.Aux), true
	case ir.OpAdd:
		x, ok1 := g.early(d.Args[0], depth+1)
		y, ok2 := g.early(d.Args[1], depth+1)
		if ok1 && ok2 {
			return g.Cur.NewAdd(x, y), true
		}
	}
	return nil, false
}

// rnds4 emits first and second as four rounds, if second's round words
// can be had now: the state after the four is in lanes 0 and 1 of ABCD
// and EFGH, the state after two in lanes 2 and 3. It sets first's results
// and keeps second's for its turn.
func (g *fgen) rnds4(first, second *ir.Instr) bool {
	w2, ok2 := g.early(second.Args[8], 0)
	w3, ok3 := g.early(second.Args[9], 0)
	if !ok2 || !ok3 {
		return false
	}
	a := make([]value.Value, len(first.Args))
	for i, x := range first.Args {
		a[i] = g.Val(x)
	}
	abcd := g.vec4(a[7], a[6], a[3], a[2])
	efgh := g.vec4(a[5], a[4], a[1], a[0])
	wk := g.vec4(a[8], a[9], w2, w3)
	x := g.Cur.NewCall(g.Intrinsic("llvm.aarch64.crypto.sha256h", v4i32, v4i32, v4i32, v4i32), abcd, efgh, wk)
	y := g.Cur.NewCall(g.Intrinsic("llvm.aarch64.crypto.sha256h2", v4i32, v4i32, v4i32, v4i32), efgh, abcd, wk)
	var later [4]value.Value
	for i, lane := range []int{3, 2, 3, 2} {
		src := value.Value(y)
		if i >= 2 {
			src = x
		}
		g.Vals[first.Results[i]] = g.lane32(src, lane)
		later[i] = g.lane32(src, lane-2)
	}
	g.fused[second] = later
	return true
}

// Builtin emits the builtins left to the scalar selection.
func (g *fgen) Builtin(in *ir.Instr) error {
	switch in.Op {
	case ir.OpClmulLo, ir.OpClmulHi:
		lo, hi := g.clmul(g.Val(in.Args[0]), g.Val(in.Args[1]))
		if in.Op == ir.OpClmulHi {
			g.Vals[in.Results[0]] = hi
		} else {
			g.Vals[in.Results[0]] = lo
		}
		return nil
	case ir.OpAESEnc, ir.OpAESEncLast:
		if !g.v.crypto {
			return fmt.Errorf("BUG: arm64: %s: AES round left to the scalar selection of a computed variant", g.F.Name)
		}
		g.aes(in)
		return nil
	case ir.OpSHA256Rnds2, ir.OpSHA256Msg1, ir.OpSHA256Msg2:
		if !g.v.crypto {
			return fmt.Errorf("BUG: arm64: %s: %s outside `if have sha` in variant %s", g.F.Name, in.Op, g.v.name)
		}
		g.sha(in)
		return nil
	}
	return fmt.Errorf("BUG: arm64: %s is not a builtin", in.Op)
}

// clmul returns the carry-less product of a and b, computed once per
// block for both halves.
func (g *fgen) clmul(a, b value.Value) (lo, hi value.Value) {
	key := [2]value.Value{a, b}
	if p, ok := g.pairs[key]; ok && p.blk == g.Cur {
		return p.lo, p.hi
	}
	if g.v.crypto {
		fn := g.Intrinsic("llvm.aarch64.neon.pmull64", v16i8, types.I64, types.I64)
		prod := g.Cur.NewBitCast(g.Cur.NewCall(fn, a, b), v2i64)
		lo, hi = g.Lane(prod, 0), g.Lane(prod, 1)
	} else {
		lo, hi = g.SoftClmul(a, b)
	}
	g.pairs[key] = clmulPair{lo, hi, g.Cur}
	return lo, hi
}

// aes emits an AES round with AESE (and AESMC).
func (g *fgen) aes(in *ir.Instr) {
	st := g.Cur.NewBitCast(g.Vec2(g.Val(in.Args[0]), g.Val(in.Args[1])), v16i8)
	aese := g.Intrinsic("llvm.aarch64.crypto.aese", v16i8, v16i8, v16i8)
	var r value.Value = g.Cur.NewCall(aese, st, constant.NewZeroInitializer(v16i8))
	if in.Op == ir.OpAESEnc {
		r = g.Cur.NewCall(g.Intrinsic("llvm.aarch64.crypto.aesmc", v16i8, v16i8), r)
	}
	key := g.Vec2(g.Val(in.Args[2]), g.Val(in.Args[3]))
	out := g.Cur.NewXor(g.Cur.NewBitCast(r, v2i64), key)
	g.Vals[in.Results[0]] = g.Lane(out, 0)
	g.Vals[in.Results[1]] = g.Lane(out, 1)
}

// vec4 packs four i32 values into a vector, lane 0 first.
func (g *fgen) vec4(xs ...value.Value) value.Value {
	v := value.Value(constant.NewUndef(v4i32))
	for i, x := range xs {
		v = g.Cur.NewInsertElement(v, x, llvm.Cint(types.I32, uint64(i)))
	}
	return v
}

func (g *fgen) lane32(v value.Value, i int) value.Value {
	return g.Cur.NewExtractElement(v, llvm.Cint(types.I32, uint64(i)))
}

// sha emits a SHA-256 builtin (see the mapping above).
func (g *fgen) sha(in *ir.Instr) {
	a := make([]value.Value, len(in.Args))
	for i, x := range in.Args {
		a[i] = g.Val(x)
	}
	zero := llvm.Cint(types.I32, 0)
	var res [4]value.Value
	switch in.Op {
	case ir.OpSHA256Rnds2:
		// a[0:4] = (h, g, d, c), a[4:8] = (f, e, b, a).
		abcd := g.vec4(a[7], a[6], a[3], a[2])
		efgh := g.vec4(a[5], a[4], a[1], a[0])
		wk := g.vec4(a[8], a[9], zero, zero)
		x := g.Cur.NewCall(g.Intrinsic("llvm.aarch64.crypto.sha256h", v4i32, v4i32, v4i32, v4i32), abcd, efgh, wk)
		y := g.Cur.NewCall(g.Intrinsic("llvm.aarch64.crypto.sha256h2", v4i32, v4i32, v4i32, v4i32), efgh, abcd, wk)
		res = [4]value.Value{g.lane32(y, 3), g.lane32(y, 2), g.lane32(x, 3), g.lane32(x, 2)}
	case ir.OpSHA256Msg1:
		fn := g.Intrinsic("llvm.aarch64.crypto.sha256su0", v4i32, v4i32, v4i32)
		r := g.Cur.NewCall(fn, g.vec4(a[0:4]...), g.vec4(a[4:8]...))
		for i := range res {
			res[i] = g.lane32(r, i)
		}
	case ir.OpSHA256Msg2:
		fn := g.Intrinsic("llvm.aarch64.crypto.sha256su1", v4i32, v4i32, v4i32, v4i32)
		r := g.Cur.NewCall(fn, g.vec4(a[0:4]...), constant.NewZeroInitializer(v4i32), g.vec4(zero, zero, a[6], a[7]))
		for i := range res {
			res[i] = g.lane32(r, i)
		}
	}
	for i, r := range in.Results {
		g.Vals[r] = res[i]
	}
}
