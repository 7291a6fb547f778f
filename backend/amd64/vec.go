package amd64

import (
	"fmt"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/ir"
)

// Vector instruction selection over limb pairs (hardware variants only).
//
// At W=64 a 128-bit AES block or GF(2^128) element is two u64 values. The
// builtins want them in one XMM register, so moving each word through a
// general register (insert, extract, scalar xor, insert again) would cost
// more than the AESENC or PCLMULQDQ itself. Instead every u64 value that is
// known to sit in one lane of a <2 x i64> vector gets a laneRef:
//
//   - the results of aes_enc/aes_enclast and of a clmul_lo/clmul_hi pair;
//   - two adjacent 64-bit loads from the same array (one 16-byte load; a
//     big-endian pair as in GHASH is one load and one byte reversal);
//   - a bitwise op (xor, and, or) of two values in the same lane of two
//     vectors: one vector op, whose other lane costs nothing.
//
// A consumer that wants a pair (an AES state or key, a 16-byte store) or a
// single operand (PCLMULQDQ picks either lane by its immediate) takes the
// vector when there is one. The scalar of every such value is still
// emitted (an extractelement), and LLVM deletes whichever form is unused.
//
// Under the wide variant, runs of AES rounds with the same round key on
// independent states become one 256-bit VAESENC per two blocks (512-bit
// per four under AVX-512), and runs of 16-byte stores at consecutive
// addresses one 256-bit (512-bit) store, so that CTR's keystream is xored
// into the message and stored a whole register at a time (LLVM folds the
// matching 16-byte loads into the xor: one VPXORQ from memory, one store).

// laneRef says a u64 value is lane `lane` of the <2 x i64> vector vec.
type laneRef struct {
	vec  value.Value
	lane int
}

// wordAcc is a 64-bit memory access of the pair form (ir.WordAccessOf).
type wordAcc struct {
	ir.Access
	unit int64
	be   bool
}

// blockPlan is what the pre-pass decided for one IR block.
type blockPlan struct {
	loadFirst map[*ir.Instr][2]*ir.Instr // first load of a pair -> (lower, higher address)
	storeSkip map[*ir.Instr]bool         // first store of a pair: emitted with the second
	storePair map[*ir.Instr][2]*ir.Instr // second store -> (lower, higher address)
	aesSkip   map[*ir.Instr]bool         // an AES round emitted with its group's last
	aesGroup  map[*ir.Instr][]*ir.Instr  // last round of a group -> the group
	laneArith bool                       // word ops stay in vectors (vec_lanes.go)
	// Wide variants: runs of 2 (4) store pairs at consecutive addresses
	// are one 256-bit (512-bit) store at the last pair's place.
	storeRunSkip map[*ir.Instr]bool           // second store of a pair stored with its run
	storeRun     map[*ir.Instr][][2]*ir.Instr // second store of a run's last pair -> the run
	z            *zPlan                       // wide carry-less products (vec_clmul.go), or nil
}

// wordAccess describes in if it is a 64-bit load or store of the pair
// form.
func wordAccess(in *ir.Instr) (wordAcc, bool) {
	a, ok := ir.WordAccessOf(in)
	return wordAcc{a.Access, a.Unit, a.BE}, ok
}

// planBlock plans the 128-bit values of b in pair form (ir.FindPairs128:
// a load pair is one vector load at the first load, a store pair one
// vector store at the second store, and under the wide variants runs of
// store pairs are wider stores) and the groups of its AES rounds.
func (g *fgen) planBlock(b *ir.Block) *blockPlan {
	p := &blockPlan{loadFirst: map[*ir.Instr][2]*ir.Instr{}, storeSkip: map[*ir.Instr]bool{},
		storePair: map[*ir.Instr][2]*ir.Instr{}, aesSkip: map[*ir.Instr]bool{}, aesGroup: map[*ir.Instr][]*ir.Instr{},
		storeRunSkip: map[*ir.Instr]bool{}, storeRun: map[*ir.Instr][][2]*ir.Instr{}}
	// The 128-bit values in pair form (ir.FindPairs128), by the C ABI's
	// aliasing (it refuses overlapping buffers).
	pairs := ir.FindPairs128(b, ir.DistinctParams)
	for _, pr := range pairs.Loads {
		p.loadFirst[pr.At] = [2]*ir.Instr{pr.Lo, pr.Hi}
	}
	for _, pr := range pairs.Stores {
		p.storeSkip[pr.Skip] = true
		p.storePair[pr.At] = [2]*ir.Instr{pr.Lo, pr.Hi}
	}
	for _, ch := range pairs.StoreChains {
		g.planStoreRuns(p, ch)
	}
	p.laneArith = hasClmul(b) && !hasAES(b)
	p.z = g.planClmulGroups(b, p)
	if g.v.wide {
		size := 2
		if g.v.zmm {
			size = 4
		}
		g.planAESGroups(b, p, size, false)
	}
	return p
}

// planStoreRuns splits a chain of store pairs at consecutive addresses
// into runs of two (four under AVX-512) stored as one 256-bit (512-bit)
// vector at the place of the run's last store; nothing between the stores
// of a chain touches their array. Only the wide variants use runs.
func (g *fgen) planStoreRuns(p *blockPlan, chain []ir.Pair128) {
	if !g.v.wide {
		return
	}
	size := 2
	if g.v.zmm {
		size = 4
	}
	for len(chain) >= size {
		run := chain[:size]
		for _, pr := range run[:size-1] {
			p.storeRunSkip[pr.At] = true
		}
		var pairs [][2]*ir.Instr
		for _, pr := range run {
			pairs = append(pairs, [2]*ir.Instr{pr.Lo, pr.Hi})
		}
		p.storeRun[run[size-1].At] = pairs
		chain = chain[size:]
	}
}

// planAESGroups finds the groups of AES rounds of b (llvm.PlanAESGroups).
func (g *fgen) planAESGroups(b *ir.Block, p *blockPlan, size int, any bool) {
	llvm.PlanAESGroups(b, &llvm.AESPlan{Skip: p.aesSkip, Group: p.aesGroup}, size, any)
}

var (
	v16i8  = types.NewVector(16, types.I8)
	i32c   = func(x int) constant.Constant { return constant.NewInt(types.I32, int64(x)) }
	undef2 = constant.NewUndef(v2i64)
)

// mask builds a shufflevector mask.
func mask(idx ...int) constant.Constant {
	cs := make([]constant.Constant, len(idx))
	for i, x := range idx {
		cs[i] = i32c(x)
	}
	return constant.NewVector(types.NewVector(uint64(len(idx)), types.I32), cs...)
}

// setLanes records that rs[i] is lane i of v and defines their scalars.
func (g *fgen) setLanes(v value.Value, rs ...*ir.Value) {
	for i, r := range rs {
		g.lanes[r] = laneRef{v, i}
		g.Vals[r] = g.Cur.NewExtractElement(v, i32c(i))
	}
}

// pairVec returns the <2 x i64> vector (x, y), from their vectors when they
// have them.
func (g *fgen) pairVec(x, y *ir.Value) value.Value {
	lx, okx := g.lanes[x]
	ly, oky := g.lanes[y]
	switch {
	case okx && oky && lx.vec == ly.vec && lx.lane == 0 && ly.lane == 1:
		return lx.vec
	case okx && oky:
		return g.Cur.NewShuffleVector(lx.vec, ly.vec, mask(lx.lane, 2+ly.lane))
	case okx && lx.lane == 0:
		return g.Cur.NewInsertElement(lx.vec, g.Val(y), i32c(1))
	case oky && ly.lane == 1:
		return g.Cur.NewInsertElement(ly.vec, g.Val(x), i32c(0))
	case okx || oky:
		return g.vec2(g.Val(x), g.Val(y))
	}
	if v := g.pairOp(x, y, pairBudget); v != nil {
		return v
	}
	return g.vec2(g.Val(x), g.Val(y))
}

// free reports whether the pair (x, y) costs nothing per iteration as a
// vector: both constants, one vector's two lanes, or both defined outside
// the innermost loop (LLVM hoists the inserts).
func (g *fgen) free(x, y *ir.Value) bool {
	if lx, ok := g.lanes[x]; ok {
		ly, ok := g.lanes[y]
		return ok && lx.vec == ly.vec && lx.lane == 0 && ly.lane == 1
	}
	if isConst(x) && isConst(y) {
		return true
	}
	return g.Depth > 0 && g.DefDepth[x] < g.Depth && g.DefDepth[y] < g.Depth
}

func isConst(v *ir.Value) bool { return v.Def != nil && v.Def.Op == ir.OpConst }

// pairOp forms (x, y) as a vector op on two pairs when x and y come from
// the same add/xor/or/and (or one of them does and the other is taken as
// that op with the identity), and one of the two operand pairs is free:
// the counter blocks (n0, w + j<<56) ^ (k0, k1) become one vector add and
// one xor on hoisted vectors. It returns nil when that does not apply.
func (g *fgen) pairOp(x, y *ir.Value, budget int) value.Value {
	if budget == 0 || x.Type != ir.U64 || y.Type != ir.U64 {
		return nil
	}
	var op ir.Op
	switch {
	case x.Def != nil && isPairOp(x.Def.Op):
		op = x.Def.Op
	case y.Def != nil && isPairOp(y.Def.Op):
		op = y.Def.Op
	default:
		return nil
	}
	xa, xb, okx := g.opArgs(x, op)
	ya, yb, oky := g.opArgs(y, op)
	if !okx || !oky {
		return nil
	}
	try := func(a0, b0, a1, b1 *ir.Value) value.Value {
		var va, vb value.Value
		switch {
		case g.free(a0, b0):
			va, vb = g.pairVec(a0, b0), g.subPair(a1, b1, budget)
		case g.free(a1, b1):
			va, vb = g.subPair(a0, b0, budget), g.pairVec(a1, b1)
		default:
			return nil
		}
		switch op {
		case ir.OpAdd:
			return g.Cur.NewAdd(va, vb)
		case ir.OpXor:
			return g.Cur.NewXor(va, vb)
		case ir.OpOr:
			return g.Cur.NewOr(va, vb)
		}
		return g.Cur.NewAnd(va, vb)
	}
	if v := try(xa, ya, xb, yb); v != nil {
		return v
	}
	return try(xa, yb, xb, ya)
}

// subPair is pairVec with the recursion budget of pairOp.
func (g *fgen) subPair(x, y *ir.Value, budget int) value.Value {
	if g.free(x, y) {
		return g.pairVec(x, y)
	}
	if v := g.pairOp(x, y, budget-1); v != nil {
		return v
	}
	return g.pairVec(x, y)
}

func isPairOp(op ir.Op) bool {
	return op == ir.OpAdd || op == ir.OpXor || op == ir.OpOr || op == ir.OpAnd
}

// identities holds, per op, the constant v such that x op v = x.
var identities = map[ir.Op]uint64{ir.OpAdd: 0, ir.OpXor: 0, ir.OpOr: 0, ir.OpAnd: ^uint64(0)}

// opArgs returns v's operands as the op `op`: its own when v is that op,
// else (v, identity).
func (g *fgen) opArgs(v *ir.Value, op ir.Op) (*ir.Value, *ir.Value, bool) {
	if v.Def != nil && v.Def.Op == op {
		return v.Def.Args[0], v.Def.Args[1], true
	}
	return v, g.constValue(identities[op]), true
}

// constValue is a synthetic u64 constant value (with an LLVM constant).
func (g *fgen) constValue(c uint64) *ir.Value {
	if v, ok := g.consts[c]; ok {
		return v
	}
	v := &ir.Value{ID: -1, Type: ir.U64, Def: &ir.Instr{Op: ir.OpConst, Aux: c}}
	v.Def.Results = []*ir.Value{v}
	g.Vals[v] = llvm.Cint(types.I64, c)
	g.consts[c] = v
	return v
}

// vecLoad emits the 16-byte load of a planned pair at the first of the two
// loads (first) and records both results' lanes.
func (g *fgen) vecLoad(first *ir.Instr, pair [2]*ir.Instr) {
	lo, hi := pair[0], pair[1]
	acc, _ := wordAccess(first)
	p := g.Elem(first.Arr, g.Val(first.Args[0]))
	if first == hi {
		var t types.Type = types.I8
		if acc.unit == 1 {
			t = types.I64
		}
		p = g.Cur.NewGetElementPtr(t, p, constant.NewInt(types.I64, -1*acc.unit))
	}
	if acc.be {
		ld := g.Cur.NewLoad(v16i8, g.Cur.NewBitCast(p, types.NewPointer(v16i8)))
		ld.Align = 1
		rev := make([]int, 16)
		for i := range rev {
			rev[i] = 15 - i
		}
		v := g.Cur.NewBitCast(g.Cur.NewShuffleVector(ld, constant.NewUndef(v16i8), mask(rev...)), v2i64)
		// Reversing all 16 bytes puts the higher word, byte-swapped, in lane 0.
		g.setLanes(v, hi.Results[0], lo.Results[0])
		return
	}
	ld := g.Cur.NewLoad(v2i64, g.Cur.NewBitCast(p, types.NewPointer(v2i64)))
	ld.Align = 1
	g.setLanes(ld, lo.Results[0], hi.Results[0])
}

// vecStore emits a planned store pair (lower, higher address) as one
// 16-byte store when both values sit in vectors, else as the two scalar
// stores.
func (g *fgen) vecStore(pair [2]*ir.Instr) {
	lo, hi := pair[0], pair[1]
	_, okx := g.lanes[lo.Args[1]]
	_, oky := g.lanes[hi.Args[1]]
	if !okx || !oky {
		g.scalarStore(lo)
		g.scalarStore(hi)
		return
	}
	v := g.pairVec(lo.Args[1], hi.Args[1])
	p := g.Elem(lo.Arr, g.Val(lo.Args[0]))
	st := g.Cur.NewStore(v, g.Cur.NewBitCast(p, types.NewPointer(v2i64)))
	st.Align = 1
}

// vecOp records a vector made by laneOp: op on vectors a and b.
type vecOp struct {
	op   ir.Op
	a, b value.Value
}

// bitOp emits xor, and or or on two vectors.
func (g *fgen) bitOp(op ir.Op, a, b value.Value) value.Value {
	switch op {
	case ir.OpXor:
		return g.Cur.NewXor(a, b)
	case ir.OpAnd:
		return g.Cur.NewAnd(a, b)
	}
	return g.Cur.NewOr(a, b)
}

// concat joins two or four <2 x i64> vectors into one.
func (g *fgen) concat(vs []value.Value) value.Value {
	v := g.Cur.NewShuffleVector(vs[0], vs[1], mask(0, 1, 2, 3))
	if len(vs) == 4 {
		hi := g.Cur.NewShuffleVector(vs[2], vs[3], mask(0, 1, 2, 3))
		v = g.Cur.NewShuffleVector(v, hi, mask(0, 1, 2, 3, 4, 5, 6, 7))
	}
	return v
}

// vecStoreRun emits a run of store pairs at consecutive addresses as one
// wide store when every word sits in a vector, else pair by pair.
func (g *fgen) vecStoreRun(run [][2]*ir.Instr) {
	for _, pr := range run {
		_, okx := g.lanes[pr[0].Args[1]]
		_, oky := g.lanes[pr[1].Args[1]]
		if !okx || !oky {
			for _, pr := range run {
				g.vecStore(pr)
			}
			return
		}
	}
	pairs := make([]value.Value, len(run))
	for i, pr := range run {
		pairs[i] = g.pairVec(pr[0].Args[1], pr[1].Args[1])
	}
	// When every pair is one bitwise op on two vectors (CTR: message xor
	// keystream), the op is done once on the joined operands: LLVM turns
	// the joined loads into one wide load and the joined AES halves into
	// the VAESENC register, where it would not reassociate the joined ops.
	var v value.Value
	op, ok := g.laneOps[pairs[0]]
	as, bs := []value.Value{}, []value.Value{}
	for _, pv := range pairs {
		o, has := g.laneOps[pv]
		ok = ok && has && o.op == op.op
		as, bs = append(as, o.a), append(bs, o.b)
	}
	if ok {
		v = g.bitOp(op.op, g.concat(as), g.concat(bs))
	} else {
		v = g.concat(pairs)
	}
	vt := types.NewVector(uint64(2*len(run)), types.I64)
	p := g.Elem(run[0][0].Arr, g.Val(run[0][0].Args[0]))
	st := g.Cur.NewStore(v, g.Cur.NewBitCast(p, types.NewPointer(vt)))
	st.Align = 1
}

// laneOp emits a bitwise op on two values in the same lane of two vectors
// as a vector op; it reports false when they are not.
func (g *fgen) laneOp(in *ir.Instr) bool {
	la, oka := g.lanes[in.Args[0]]
	lb, okb := g.lanes[in.Args[1]]
	if !oka || !okb || la.lane != lb.lane {
		return false
	}
	// The two words of a pair are two IR ops on the same two vectors: one
	// vector op serves both (in this block).
	key := vecOp{in.Op, la.vec, lb.vec}
	v, ok := g.laneOpVec[key]
	if !ok || g.laneOpBlock[key] != g.Cur {
		v = g.bitOp(in.Op, la.vec, lb.vec)
		g.laneOps[v] = key
		g.laneOpVec[key], g.laneOpBlock[key] = v, g.Cur
	}
	g.lanes[in.Results[0]] = laneRef{v, la.lane}
	g.Vals[in.Results[0]] = g.Cur.NewExtractElement(v, i32c(la.lane))
	return true
}

// clmulOperand returns a vector holding a and the lane it is in. The
// Karatsuba middle operand x0 ^ x1 of a pair (x0, x1) in one vector is
// that vector xored with its halves swapped.
func (g *fgen) clmulOperand(a *ir.Value) (value.Value, int) {
	if l, ok := g.lanes[a]; ok {
		return l.vec, l.lane
	}
	if d := a.Def; d != nil && d.Op == ir.OpXor {
		lp, okp := g.lanes[d.Args[0]]
		lq, okq := g.lanes[d.Args[1]]
		if okp && okq && lp.vec == lq.vec && lp.lane != lq.lane {
			sw := g.Cur.NewShuffleVector(lp.vec, undef2, mask(1, 0))
			return g.Cur.NewXor(lp.vec, sw), 0
		}
	}
	return g.Cur.NewInsertElement(undef2, g.Val(a), i32c(0)), 0
}

// hwClmul emits clmul_lo/clmul_hi as one PCLMULQDQ per operand pair, both
// halves of the product recorded as its lanes.
func (g *fgen) hwClmul(in *ir.Instr) {
	key := [2]*ir.Value{in.Args[0], in.Args[1]}
	r, ok := g.clmulPairs[key]
	if !ok || g.clmulBlock[key] != g.Cur {
		va, la := g.clmulOperand(in.Args[0])
		vb, lb := g.clmulOperand(in.Args[1])
		fn := g.Intrinsic("llvm.x86.pclmulqdq", v2i64, v2i64, v2i64, types.I8)
		r = g.Cur.NewCall(fn, va, vb, constant.NewInt(types.I8, int64(la|lb<<4)))
		g.clmulPairs[key], g.clmulBlock[key] = r, g.Cur
	}
	lane := 0
	if in.Op == ir.OpClmulHi {
		lane = 1
	}
	g.lanes[in.Results[0]] = laneRef{r, lane}
	g.Vals[in.Results[0]] = g.Cur.NewExtractElement(r, i32c(lane))
}

// hwAES emits AES rounds: one AESENC on 128 bits, or for a group of two one
// VAESENC on 256 bits.
func (g *fgen) hwAES(group []*ir.Instr) {
	last := group[0].Op == ir.OpAESEncLast
	key := g.pairVec(group[0].Args[2], group[0].Args[3])
	if len(group) == 1 {
		name := "llvm.x86.aesni.aesenc"
		if last {
			name = "llvm.x86.aesni.aesenclast"
		}
		in := group[0]
		r := g.Cur.NewCall(g.Intrinsic(name, v2i64, v2i64, v2i64), g.pairVec(in.Args[0], in.Args[1]), key)
		g.setLanes(r, in.Results...)
		return
	}
	n := 2 * len(group) // i64 lanes
	vt := types.NewVector(uint64(n), types.I64)
	name := fmt.Sprintf("llvm.x86.aesni.aesenc.%d", 64*n)
	if last {
		name = fmt.Sprintf("llvm.x86.aesni.aesenclast.%d", 64*n)
	}
	// The states as one register: built whole when the blocks' words are
	// one shape (wideVec), else joined pair by pair.
	xs, ys := make([]*ir.Value, len(group)), make([]*ir.Value, len(group))
	for i, in := range group {
		xs[i], ys[i] = in.Args[0], in.Args[1]
	}
	s := g.wideVec(xs, ys, pairBudget)
	if s == nil {
		pairs := make([]value.Value, len(group))
		for i, in := range group {
			pairs[i] = g.pairVec(in.Args[0], in.Args[1])
		}
		s = g.concat(pairs)
	}
	ks := make([]int, n)
	for i := range ks {
		ks[i] = i & 1
	}
	k := g.Cur.NewShuffleVector(key, undef2, mask(ks...))
	r := g.Cur.NewCall(g.Intrinsic(name, vt, vt, vt), s, k)
	for i, in := range group {
		half := g.Cur.NewShuffleVector(r, constant.NewUndef(vt), mask(2*i, 2*i+1))
		g.setLanes(half, in.Results...)
	}
}

// vecInstr emits in with the vector selection of a hardware variant; it
// reports false when in is left to the scalar selection.
func (g *fgen) vecInstr(in *ir.Instr, p *blockPlan) bool {
	if !g.v.hw {
		return false
	}
	if p.z != nil && g.zInstr(in, p.z) {
		return true
	}
	if pair, ok := p.loadFirst[in]; ok {
		g.vecLoad(in, pair)
		return true
	}
	if _, ok := g.lanes[firstResult(in)]; ok && isLoad(in.Op) {
		return true // the second load of a pair: its lane is already set
	}
	if p.storeSkip[in] || p.storeRunSkip[in] {
		return true
	}
	if run, ok := p.storeRun[in]; ok {
		g.vecStoreRun(run)
		return true
	}
	if pair, ok := p.storePair[in]; ok {
		g.vecStore(pair)
		return true
	}
	switch in.Op {
	case ir.OpXor, ir.OpAnd, ir.OpOr:
		return g.laneOp(in) || (p.laneArith && g.laneArith(in))
	case ir.OpShl, ir.OpShr, ir.OpFshl, ir.OpFshr:
		return p.laneArith && g.laneArith(in)
	case ir.OpCopy:
		if l, ok := g.lanes[in.Args[0]]; ok {
			g.lanes[in.Results[0]] = l
		}
		return false
	case ir.OpClmulLo, ir.OpClmulHi:
		g.hwClmul(in)
		return true
	case ir.OpAESEnc, ir.OpAESEncLast:
		if p.aesSkip[in] {
			return true
		}
		if grp, ok := p.aesGroup[in]; ok {
			g.hwAES(grp)
		} else {
			g.hwAES([]*ir.Instr{in})
		}
		return true
	}
	return false
}

func firstResult(in *ir.Instr) *ir.Value {
	if len(in.Results) == 0 {
		return nil
	}
	return in.Results[0]
}

// scalarStore emits one store with the scalar selection.
func (g *fgen) scalarStore(in *ir.Instr) {
	if err := g.Instr(in); err != nil {
		panic("BUG: amd64: " + err.Error())
	}
}

// isLoad and isStore classify the memory ops.
func isLoad(op ir.Op) bool  { return op == ir.OpLoad || op == ir.OpLoadLE || op == ir.OpLoadBE }
func isStore(op ir.Op) bool { return op == ir.OpStore || op == ir.OpStoreLE || op == ir.OpStoreBE }

// pairBudget bounds pairOp's recursion (counter block, key xor, counter add).
const pairBudget = 3
