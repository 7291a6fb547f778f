package amd64

import (
	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/ir"
)

// Emission of the bitsliced computed AES (backend/llvm/soft_slice.go) in the computed
// variants. Runs of up to eight AES rounds with one round key on
// independent states (rounds8's inner loop, unrolled) form a group: their
// states are bitsliced into eight <2 x i64> planes (SSE2, part of every
// x86-64), one call of the module's round function does the round for all
// of them, and the planes are turned back into words. When the next group
// takes exactly the previous group's results in the same order (the next
// round), it takes the planes instead, so a chain of rounds is bitsliced
// once at its start and once at its end (LLVM deletes the unused
// conversions in between). Round keys are bitsliced where they are used;
// that code depends on the key only, so LLVM hoists it out of loops.

// sliceGroup is a group of up to eight AES states held as planes.
type sliceGroup struct {
	planes [8]value.Value
	n      int
}

// sliceRef says a value is word slot (2j + h: word h of state j) of grp.
type sliceRef struct {
	grp  *sliceGroup
	slot int
}

// vecOps emits llvm.WordOps on <2 x i64> values.
type vecOps struct{ b **llir.Block }

func splat(x uint64) constant.Constant {
	c := llvm.Cint(types.I64, x)
	return constant.NewVector(v2i64, c, c)
}

func (o vecOps) cur() *llir.Block                 { return *o.b }
func (o vecOps) C(x uint64) value.Value           { return splat(x) }
func (o vecOps) Xor(a, b value.Value) value.Value { return o.cur().NewXor(a, b) }
func (o vecOps) And(a, b value.Value) value.Value { return o.cur().NewAnd(a, b) }
func (o vecOps) Or(a, b value.Value) value.Value  { return o.cur().NewOr(a, b) }
func (o vecOps) Mul(a, b value.Value) value.Value {
	panic("BUG: amd64: no vector multiply in soft AES")
}
func (o vecOps) Shl(a value.Value, k uint) value.Value {
	return o.cur().NewShl(a, splat(uint64(k)))
}
func (o vecOps) Shr(a value.Value, k uint) value.Value {
	return o.cur().NewLShr(a, splat(uint64(k)))
}

// rotr rotates each lane right by a multiple of 16 as a shuffle of
// 16-bit elements (PSHUFLW/PSHUFHW or PSHUFD).
func (o vecOps) Rotr(a value.Value, k uint) value.Value {
	if k%16 != 0 {
		return o.Or(o.Shr(a, k), o.Shl(a, 64-k))
	}
	v8 := types.NewVector(8, types.I16)
	x := o.cur().NewBitCast(a, v8)
	idx := make([]int, 8)
	for i := range idx {
		idx[i] = i/4*4 + (i%4+int(k/16))%4
	}
	return o.cur().NewBitCast(o.cur().NewShuffleVector(x, constant.NewUndef(v8), mask(idx...)), v2i64)
}

func (o vecOps) Bswap(a value.Value) value.Value { panic("BUG: amd64: no vector bswap in soft AES") }

// planSoft plans the AES groups of a block of a computed variant.
func (g *fgen) planSoft(b *ir.Block) *blockPlan {
	p := &blockPlan{aesSkip: map[*ir.Instr]bool{}, aesGroup: map[*ir.Instr][]*ir.Instr{}}
	g.planAESGroups(b, p, 8, true)
	return p
}

// softInstr emits the AES rounds of a computed variant; it reports false
// for every other instruction.
func (g *fgen) softInstr(in *ir.Instr, p *blockPlan) bool {
	if g.v.hw || (in.Op != ir.OpAESEnc && in.Op != ir.OpAESEncLast) {
		return false
	}
	if p.aesSkip[in] {
		return true
	}
	grp, ok := p.aesGroup[in]
	if !ok {
		grp = []*ir.Instr{in}
	}
	g.softAES(grp)
	return true
}

// softAES emits one bitsliced round for a group of at most eight states.
func (g *fgen) softAES(group []*ir.Instr) {
	o := vecOps{b: &g.Cur}
	planes, ok := g.slicedInput(group)
	if !ok {
		var w [8]value.Value
		for i := range w {
			b, h := i/2, i%2
			w[i] = g.vec2(g.stateWord(group, b, h), g.stateWord(group, b+4, h))
		}
		planes = llvm.Pack4[value.Value](o, w)
	}
	k0, k1 := g.Val(group[0].Args[2]), g.Val(group[0].Args[3])
	var kw [8]value.Value
	kv0, kv1 := g.vec2(k0, k0), g.vec2(k1, k1)
	for i := range kw {
		kw[i] = kv0
		if i%2 == 1 {
			kw[i] = kv1
		}
	}
	key := llvm.Pack4[value.Value](o, kw)
	args := append(planes[:], key[:]...)
	r := g.Cur.NewCall(modGen{g.Module}.sliceRoundFunc(group[0].Op == ir.OpAESEncLast), args...)
	out := &sliceGroup{n: len(group)}
	for i := range out.planes {
		out.planes[i] = g.Cur.NewExtractValue(r, uint64(i))
	}
	w := llvm.Unpack4[value.Value](o, out.planes)
	for j, in := range group {
		for h := 0; h < 2; h++ {
			res := in.Results[h]
			g.Vals[res] = g.lane(w[2*(j%4)+h], j/4)
			g.sliced[res] = sliceRef{out, 2*j + h}
		}
	}
}

// stateWord is word h of state j of the group (zero past its end).
func (g *fgen) stateWord(group []*ir.Instr, j, h int) value.Value {
	if j >= len(group) {
		return llvm.Cint(types.I64, 0)
	}
	return g.Val(group[j].Args[h])
}

// slicedInput returns the planes of the previous group when group's states
// are exactly its results, in order.
func (g *fgen) slicedInput(group []*ir.Instr) ([8]value.Value, bool) {
	var src *sliceGroup
	for j, in := range group {
		for h := 0; h < 2; h++ {
			ref, ok := g.sliced[in.Args[h]]
			if !ok || ref.slot != 2*j+h || (src != nil && ref.grp != src) {
				return [8]value.Value{}, false
			}
			src = ref.grp
		}
	}
	if src.n != len(group) {
		return [8]value.Value{}, false
	}
	return src.planes, true
}

var slicePlanes = types.NewStruct(v2i64, v2i64, v2i64, v2i64, v2i64, v2i64, v2i64, v2i64)

// sliceRoundFunc returns the module's bitsliced round function (state
// planes, key planes -> state planes): one out-of-line copy per kind, since
// a cipher calls it ten times per group.
func (g modGen) sliceRoundFunc(last bool) *llir.Func {
	name := "lowentc.soft.round"
	if last {
		name = "lowentc.soft.lastround"
	}
	if f, ok := g.Decls[name]; ok {
		return f
	}
	ps := make([]*llir.Param, 16)
	for i := range ps {
		ps[i] = llir.NewParam("", v2i64)
	}
	f := g.Out.NewFunc(name, slicePlanes, ps...)
	f.Linkage = enum.LinkageInternal
	f.FuncAttrs = append(f.FuncAttrs, enum.FuncAttrNoUnwind, enum.FuncAttrReadNone, enum.FuncAttrNoInline)
	g.Decls[name] = f
	blk := f.NewBlock("entry")
	o := vecOps{b: &blk}
	var s, k [8]value.Value
	for i := 0; i < 8; i++ {
		s[i], k[i] = ps[i], ps[8+i]
	}
	s = llvm.SliceRound[value.Value](o, last, s, k)
	var r value.Value = constant.NewUndef(slicePlanes)
	for i, x := range s {
		r = blk.NewInsertValue(r, x, uint64(i))
	}
	blk.NewRet(r)
	return f
}
