package amd64

import (
	"fmt"
	"sort"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/ir"
)

// Wide carry-less products (the VPCLMULQDQ variants).
//
// GHASH's long step (ghash.lw's step16) multiplies sixteen blocks, each
// read as two big-endian words, by sixteen powers of H and sums the
// Karatsuba products of all the blocks in six xor chains before one
// reduction. On 128 bits that is one 16-byte load, one byte reversal and
// three PCLMULQDQ per block. When a block of the IR has that shape, four
// consecutive blocks (two with AVX2) are instead
//
//   - one 64-byte (32-byte) load and one VPSHUFB reversing each 16 bytes,
//     so that 128-bit lane i holds block i as a field element;
//   - three VPCLMULQDQ on the whole register: the low words times a
//     register of the low words of the H powers, the high words times
//     the high words, and the Karatsuba middle (the two words xored, one
//     VPSHUFD and one VPXOR) times the powers' middle words; the H
//     registers only depend on values defined outside the loop, so LLVM
//     hoists them;
//
// and each of the six chains becomes vertical xors of the groups'
// products and one horizontal fold of the lanes at the end (two extracts
// and two xors on 512 bits). A product that is not a block times a
// loop-invariant power (GHASH's running value times H^16, the reduction)
// keeps the 128-bit selection, so the loop-carried chain stays on 128
// bits. The grouping is all or nothing per IR block: unless every chain
// that sums grouped products sums all of them and nothing else (until
// its last grouped term), the block keeps the 128-bit selection. The
// grouped loads are those before the block's first nested control flow,
// call or check, from arrays not stored to before it (GCM's stitched seal
// hashes the previous step's ciphertext, then encrypts in a branch).

// zGroup is a run of n blocks at consecutive 16-byte addresses.
type zGroup struct {
	arr   *ir.Array
	base  *ir.Value
	off   int64          // byte offset of the first block from base
	pairs [][2]*ir.Instr // per block: the loads of bytes 0..7 and 8..15
	vec   value.Value    // the loaded, byte-reversed register once emitted
}

// zProd is one wide product: block i of grp (operand class cls: 0 the
// word at bytes 8..15, 1 the word at bytes 0..7, 2 their xor) times b[i].
type zProd struct {
	grp *zGroup
	cls int
	b   []*ir.Value
}

// zPlan is the wide-product plan of one IR block.
type zPlan struct {
	n      int // blocks per register: 4 (512 bits) or 2 (256 bits)
	loadOf map[*ir.Instr]*zGroup
	skip   map[*ir.Instr]bool   // grouped products and the inner xors of their chains
	root   map[*ir.Instr][2]int // a chain's sum of every grouped product -> (class, word)
	prods  []*zProd
	sums   [3]value.Value // per class, the folded sum once emitted
}

// planClmulGroups makes the wide-product plan of b, or returns nil when b
// does not have the shape described above.
func (g *fgen) planClmulGroups(b *ir.Block, p *blockPlan) *zPlan {
	if !g.v.wide || !p.laneArith || g.Depth == 0 {
		return nil
	}
	n := 2
	if g.v.zmm {
		n = 4
	}
	// The blocks are loaded before the block's first nested control flow,
	// call or check (the cut), from arrays the block does not store to
	// before it: GCM's stitched seal hashes the previous step's ciphertext
	// first, then encrypts in a branch that stores the next one.
	uses := map[*ir.Value]int{}
	countUses(b, uses)
	stored := map[*ir.Array]bool{}
	before := map[*ir.Instr]bool{}
	for _, in := range b.Instrs {
		if len(in.Blocks) > 0 || in.Op == ir.OpCall || in.Op == ir.OpCheck {
			break
		}
		before[in] = true
		if isStore(in.Op) {
			stored[in.Arr] = true
		}
	}
	// Blocks: big-endian load pairs of unstored arrays, keyed by their
	// array, base and offset.
	type key struct {
		arr  *ir.Array
		base *ir.Value
	}
	blocks := map[key]map[int64][2]*ir.Instr{}
	for _, pr := range p.loadFirst {
		lo, _ := wordAccess(pr[0])
		if !lo.be || stored[lo.Arr] || !before[pr[0]] || !before[pr[1]] {
			continue
		}
		k := key{lo.Arr, lo.Base}
		if blocks[k] == nil {
			blocks[k] = map[int64][2]*ir.Instr{}
		}
		blocks[k][int64(lo.Off)] = pr
	}
	z := &zPlan{n: n, loadOf: map[*ir.Instr]*zGroup{}, skip: map[*ir.Instr]bool{}, root: map[*ir.Instr][2]int{}}
	// lane says which group, block and word a loaded value is.
	type place struct {
		grp      *zGroup
		blk, cls int
	}
	lane := map[*ir.Value]place{}
	var groups []*zGroup
	keys := make([]key, 0, len(blocks))
	for k := range blocks {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return firstOff(blocks[keys[i]]) < firstOff(blocks[keys[j]]) })
	for _, k := range keys {
		m := blocks[k]
		offs := make([]int64, 0, len(m))
		for o := range m {
			offs = append(offs, o)
		}
		slices64(offs)
		for i := 0; i < len(offs); {
			o := offs[i]
			ok := true
			for j := 1; j < n; j++ {
				if _, has := m[o+16*int64(j)]; !has {
					ok = false
				}
			}
			if !ok {
				i++
				continue
			}
			grp := &zGroup{arr: k.arr, base: k.base, off: o}
			for j := 0; j < n; j++ {
				pr := m[o+16*int64(j)]
				grp.pairs = append(grp.pairs, pr)
				lane[pr[1].Results[0]] = place{grp, j, 0}
				lane[pr[0].Results[0]] = place{grp, j, 1}
			}
			groups = append(groups, grp)
			for i < len(offs) && offs[i] < o+16*int64(n) {
				i++
			}
		}
	}
	if len(groups) == 0 {
		return nil
	}
	// Products: clmul pairs whose first operand is a word of a grouped
	// block (or the xor of its two words) and whose second is invariant.
	type prodKey struct {
		grp *zGroup
		cls int
	}
	prods := map[prodKey]*zProd{}
	bad := map[*zGroup]bool{}
	leafSlot := map[*ir.Value][2]int{} // leaf -> (class, word)
	leafGrp := map[*ir.Value]*zGroup{}
	var leafInstrs []*ir.Instr
	for _, in := range b.Instrs {
		if in.Op != ir.OpClmulLo && in.Op != ir.OpClmulHi {
			continue
		}
		a, h := in.Args[0], in.Args[1]
		pl, ok := lane[a]
		if !ok {
			if d := a.Def; d != nil && d.Op == ir.OpXor {
				p0, ok0 := lane[d.Args[0]]
				p1, ok1 := lane[d.Args[1]]
				if ok0 && ok1 && p0.grp == p1.grp && p0.blk == p1.blk && p0.cls != p1.cls {
					pl, ok = place{p0.grp, p0.blk, 2}, true
				}
			}
		}
		if !ok {
			continue
		}
		if !g.invariant(h, 3) {
			bad[pl.grp] = true
			continue
		}
		pk := prodKey{pl.grp, pl.cls}
		pd := prods[pk]
		if pd == nil {
			pd = &zProd{grp: pl.grp, cls: pl.cls, b: make([]*ir.Value, n)}
			prods[pk] = pd
		}
		if pd.b[pl.blk] != nil && pd.b[pl.blk] != h {
			bad[pl.grp] = true
			continue
		}
		pd.b[pl.blk] = h
		word := 0
		if in.Op == ir.OpClmulHi {
			word = 1
		}
		leafSlot[in.Results[0]] = [2]int{pl.cls, word}
		leafGrp[in.Results[0]] = pl.grp
		leafInstrs = append(leafInstrs, in)
	}
	var good []*zGroup
	for _, grp := range groups {
		for cls := 0; cls < 3; cls++ {
			pd := prods[prodKey{grp, cls}]
			if pd == nil {
				bad[grp] = true
				break
			}
			for _, h := range pd.b {
				if h == nil {
					bad[grp] = true
				}
			}
		}
		if !bad[grp] {
			good = append(good, grp)
		}
	}
	if len(good) == 0 {
		return nil
	}
	// Chains: xor trees of single-use leaves and nodes of one slot.
	count := map[*ir.Value]int{}
	slot := map[*ir.Value][2]int{}
	for v, s := range leafSlot {
		if bad[leafGrp[v]] {
			continue
		}
		if uses[v] != 1 {
			return nil
		}
		count[v], slot[v] = 1, s
	}
	total := len(good) * n
	perSlot := map[[2]int]int{}
	for _, s := range slot {
		perSlot[s]++
	}
	for _, c := range perSlot {
		if c != total {
			return nil
		}
	}
	var nodes []*ir.Instr
	roots := map[[2]int]*ir.Instr{}
	for _, in := range b.Instrs {
		if in.Op != ir.OpXor {
			continue
		}
		x, y := in.Args[0], in.Args[1]
		cx, okx := count[x]
		cy, oky := count[y]
		if !okx || !oky || slot[x] != slot[y] || uses[x] != 1 || uses[y] != 1 || x == y {
			continue
		}
		r := in.Results[0]
		count[r], slot[r] = cx+cy, slot[x]
		if cx+cy == total {
			roots[slot[x]] = in
		} else {
			nodes = append(nodes, in)
		}
	}
	if len(roots) != 6 {
		return nil
	}
	for s, in := range roots {
		z.root[in] = s
	}
	// Every non-root node must feed its chain's root (single use, so it
	// either does or feeds a node that is dropped: then a leaf is lost).
	for _, in := range nodes {
		z.skip[in] = true
	}
	for _, in := range leafInstrs {
		if !bad[leafGrp[in.Results[0]]] {
			z.skip[in] = true
		}
	}
	for _, grp := range good {
		for _, pr := range grp.pairs {
			z.loadOf[pr[0]], z.loadOf[pr[1]] = grp, grp
		}
		for cls := 0; cls < 3; cls++ {
			z.prods = append(z.prods, prods[prodKey{grp, cls}])
		}
	}
	return z
}

// countUses counts the uses of each value in b and its nested blocks.
func countUses(b *ir.Block, uses map[*ir.Value]int) {
	for _, in := range b.Instrs {
		for _, a := range in.Args {
			uses[a]++
		}
		for _, nb := range in.Blocks {
			countUses(nb, uses)
		}
	}
}

func firstOff(m map[int64][2]*ir.Instr) int64 {
	first := true
	var o int64
	for k := range m {
		if first || k < o {
			o, first = k, false
		}
	}
	return o
}

func slices64(xs []int64) { sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] }) }

// invariant reports whether v is the same in every iteration of the
// innermost loop: a constant, defined outside it, or a bitwise op (depth
// levels deep at most) of such values.
func (g *fgen) invariant(v *ir.Value, depth int) bool {
	if isConst(v) {
		return true
	}
	if d, ok := g.DefDepth[v]; ok && d < g.Depth {
		return true
	}
	if depth == 0 || v.Def == nil || !isPairOp(v.Def.Op) {
		return false
	}
	for _, a := range v.Def.Args {
		if !g.invariant(a, depth-1) {
			return false
		}
	}
	return true
}

// zType is the <2n x i64> vector of a group.
func (z *zPlan) zType() *types.VectorType { return types.NewVector(uint64(2*z.n), types.I64) }

// zLoad emits grp's blocks as one wide load and one byte reversal within
// each 16 bytes, and records every loaded word's lane.
func (g *fgen) zLoad(z *zPlan, grp *zGroup) {
	nb := uint64(16 * z.n)
	bt := types.NewVector(nb, types.I8)
	var idx value.Value
	if grp.base == nil {
		idx = constant.NewInt(types.I32, grp.off)
	} else {
		idx = g.Val(grp.base)
	}
	p := g.Elem(grp.arr, idx)
	if grp.base != nil && grp.off != 0 {
		p = g.Cur.NewGetElementPtr(types.I8, p, constant.NewInt(types.I64, grp.off))
	}
	ld := g.Cur.NewLoad(bt, g.Cur.NewBitCast(p, types.NewPointer(bt)))
	ld.Align = 1
	rev := make([]int, nb)
	for i := range rev {
		rev[i] = i&^15 + 15 - i&15
	}
	grp.vec = g.Cur.NewBitCast(g.Cur.NewShuffleVector(ld, constant.NewUndef(bt), mask(rev...)), z.zType())
	for j, pr := range grp.pairs {
		half := g.Cur.NewShuffleVector(grp.vec, constant.NewUndef(z.zType()), mask(2*j, 2*j+1))
		// Reversing 16 bytes puts the word at bytes 8..15 in lane 0.
		g.setLanes(half, pr[1].Results[0], pr[0].Results[0])
	}
}

// zSums emits every wide product and each class's sum folded to 128 bits.
func (g *fgen) zSums(z *zPlan) {
	zt := z.zType()
	fn := g.Intrinsic(fmt.Sprintf("llvm.x86.pclmulqdq.%d", 128*z.n), zt, zt, zt, types.I8)
	swap := make([]int, 2*z.n)
	for i := range swap {
		swap[i] = i ^ 1
	}
	var acc [3]value.Value
	for _, pd := range z.prods {
		a := pd.grp.vec
		imm := 0
		switch pd.cls {
		case 1:
			imm = 1 // the block's word in lane 1, the power's in lane 0
		case 2:
			a = g.Cur.NewXor(a, g.Cur.NewShuffleVector(a, constant.NewUndef(zt), mask(swap...)))
		}
		var h value.Value = constant.NewUndef(zt)
		for i, b := range pd.b {
			h = g.Cur.NewInsertElement(h, g.Val(b), i32c(2*i))
		}
		r := g.Cur.NewCall(fn, a, h, constant.NewInt(types.I8, int64(imm)))
		if acc[pd.cls] == nil {
			acc[pd.cls] = r
		} else {
			acc[pd.cls] = g.Cur.NewXor(acc[pd.cls], r)
		}
	}
	for cls, s := range acc {
		for w := 2 * z.n; w > 2; w /= 2 {
			lo := make([]int, w/2)
			hi := make([]int, w/2)
			for i := range lo {
				lo[i], hi[i] = i, w/2+i
			}
			s = g.Cur.NewXor(g.Cur.NewShuffleVector(s, s, mask(lo...)), g.Cur.NewShuffleVector(s, s, mask(hi...)))
		}
		z.sums[cls] = s
	}
}

// zInstr emits in under the wide-product plan; it reports false when the
// plan does not cover in.
func (g *fgen) zInstr(in *ir.Instr, z *zPlan) bool {
	if grp, ok := z.loadOf[in]; ok {
		if grp.vec == nil {
			g.zLoad(z, grp)
		}
		return true
	}
	if z.skip[in] {
		return true
	}
	if s, ok := z.root[in]; ok {
		if z.sums[0] == nil {
			g.zSums(z)
		}
		r := in.Results[0]
		g.lanes[r] = laneRef{z.sums[s[0]], s[1]}
		g.Vals[r] = g.Cur.NewExtractElement(z.sums[s[0]], i32c(s[1]))
		return true
	}
	return false
}

// wideVec builds the <2n x i64> vector of the n word pairs (xs[i], ys[i])
// directly, when they are one shape: the same pair n times (one
// broadcast), constants or loop-invariant values (LLVM hoists the
// inserts), or one add, xor, or or and per word of such operands. CTR's
// sixteen counter blocks (bswap(hi), bswap(lo) + j<<56) ^ round key 0,
// four to a VAESENC register, are then one broadcast, one add of a
// constant register and one xor, where pair by pair they took a general
// register add and an insert per block and three shuffles per register.
// It returns nil when the pairs have no such shape.
func (g *fgen) wideVec(xs, ys []*ir.Value, budget int) value.Value {
	n := len(xs)
	vt := types.NewVector(uint64(2*n), types.I64)
	same := true
	for i := range xs {
		same = same && xs[i] == xs[0] && ys[i] == ys[0]
	}
	if same {
		ks := make([]int, 2*n)
		for i := range ks {
			ks[i] = i & 1
		}
		return g.Cur.NewShuffleVector(g.pairVec(xs[0], ys[0]), undef2, mask(ks...))
	}
	inv, cst := true, true
	for i := range xs {
		for _, v := range []*ir.Value{xs[i], ys[i]} {
			c := isConst(v)
			cst = cst && c
			inv = inv && (c || g.Depth > 0 && g.DefDepth[v] < g.Depth && v.Type == ir.U64)
		}
	}
	if cst {
		cs := make([]constant.Constant, 0, 2*n)
		for i := range xs {
			cs = append(cs, constant.NewInt(types.I64, int64(xs[i].Def.Aux)), constant.NewInt(types.I64, int64(ys[i].Def.Aux)))
		}
		return constant.NewVector(vt, cs...)
	}
	if inv {
		var v value.Value = constant.NewUndef(vt)
		for i := range xs {
			v = g.Cur.NewInsertElement(v, g.Val(xs[i]), i32c(2*i))
			v = g.Cur.NewInsertElement(v, g.Val(ys[i]), i32c(2*i+1))
		}
		return v
	}
	if budget == 0 {
		return nil
	}
	var ops []ir.Op
	for i := range xs {
		for _, v := range []*ir.Value{xs[i], ys[i]} {
			if v.Type == ir.U64 && v.Def != nil && isPairOp(v.Def.Op) && !slicesContains(ops, v.Def.Op) {
				ops = append(ops, v.Def.Op)
			}
		}
	}
	for _, op := range ops {
		xa, xb := make([]*ir.Value, n), make([]*ir.Value, n)
		ya, yb := make([]*ir.Value, n), make([]*ir.Value, n)
		for i := range xs {
			xa[i], xb[i], _ = g.opArgs(xs[i], op)
			ya[i], yb[i], _ = g.opArgs(ys[i], op)
		}
		va := g.wideVec(xa, ya, budget-1)
		if va == nil {
			continue
		}
		vb := g.wideVec(xb, yb, budget-1)
		if vb == nil {
			continue
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
	return nil
}

func slicesContains(ops []ir.Op, op ir.Op) bool {
	for _, o := range ops {
		if o == op {
			return true
		}
	}
	return false
}
