package llvm

import (
	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/ir"
)

// Emission of the bitsliced computed AES (soft_slice.go) for a target
// without AES instructions (a computed variant). Runs of up to eight AES rounds with one round key on
// independent states (rounds8's inner loop, unrolled) form a group: their
// states are bitsliced into eight <2 x i64> planes (SSE2 on x86-64, NEON on
// arm64), one call of the module's round function does the round for all
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

// vecOps emits wordOps on <2 x i64> values.
type vecOps struct{ b **llir.Block }

func splat(x uint64) constant.Constant {
	c := Cint(types.I64, x)
	return constant.NewVector(v2i64, c, c)
}

func (o vecOps) cur() *llir.Block                 { return *o.b }
func (o vecOps) c(x uint64) value.Value           { return splat(x) }
func (o vecOps) xor(a, b value.Value) value.Value { return o.cur().NewXor(a, b) }
func (o vecOps) and(a, b value.Value) value.Value { return o.cur().NewAnd(a, b) }
func (o vecOps) or(a, b value.Value) value.Value  { return o.cur().NewOr(a, b) }
func (o vecOps) mul(a, b value.Value) value.Value {
	panic("BUG: llvm: no vector multiply in soft AES")
}
func (o vecOps) shl(a value.Value, k uint) value.Value {
	return o.cur().NewShl(a, splat(uint64(k)))
}
func (o vecOps) shr(a value.Value, k uint) value.Value {
	return o.cur().NewLShr(a, splat(uint64(k)))
}

// rotr rotates each lane right by a multiple of 16 as a shuffle of
// 16-bit elements (PSHUFLW/PSHUFHW or PSHUFD on x86, REV32/EXT on arm64).
func (o vecOps) rotr(a value.Value, k uint) value.Value {
	if k%16 != 0 {
		return o.or(o.shr(a, k), o.shl(a, 64-k))
	}
	v8 := types.NewVector(8, types.I16)
	x := o.cur().NewBitCast(a, v8)
	idx := make([]int, 8)
	for i := range idx {
		idx[i] = i/4*4 + (i%4+int(k/16))%4
	}
	return o.cur().NewBitCast(o.cur().NewShuffleVector(x, constant.NewUndef(v8), shuffleMask(idx...)), v2i64)
}

// rotr16 rotates each 16-bit lane right by k (0 < k < 16): two shifts of
// <8 x i16> (PSRLW/PSLLW on x86, USHR/SHL .8h on arm64) and an or.
func (o vecOps) rotr16(a value.Value, k uint) value.Value {
	v8 := types.NewVector(8, types.I16)
	x := o.cur().NewBitCast(a, v8)
	sp := func(n uint) constant.Constant {
		c := Cint(types.I16, uint64(n))
		return constant.NewVector(v8, c, c, c, c, c, c, c, c)
	}
	r := o.cur().NewOr(o.cur().NewLShr(x, sp(k)), o.cur().NewShl(x, sp(16-k)))
	return o.cur().NewBitCast(r, v2i64)
}

func (o vecOps) bswap(a value.Value) value.Value { panic("BUG: llvm: no vector bswap in soft AES") }

// SoftAES emits the AES rounds of one function of a computed variant as
// the bitsliced circuit: Plan finds the groups of a block, Emit emits a
// group. It remembers which values are held in a group's planes.
//
// Its planes are <2 x i64> vectors holding eight states (a target with
// 128-bit vector registers: SSE2, NEON), or, from NewScalarSoftAES, i64
// words holding four (a target without them: wasm32 without simd128,
// where a vector would only be split into its lanes again).
type SoftAES struct {
	sliced map[*ir.Value]sliceRef
	scalar bool
}

// NewSoftAES returns the computed AES emitter of one function, on
// <2 x i64> planes.
func NewSoftAES() *SoftAES { return &SoftAES{sliced: map[*ir.Value]sliceRef{}} }

// NewScalarSoftAES returns the computed AES emitter of one function, on
// i64 planes.
func NewScalarSoftAES() *SoftAES {
	return &SoftAES{sliced: map[*ir.Value]sliceRef{}, scalar: true}
}

// states is how many AES states a group holds.
func (s *SoftAES) states() int {
	if s.scalar {
		return 4
	}
	return 8
}

// AESPlan is the grouping of a block's AES rounds: each group is emitted
// at its last round (Group), the others of the group are skipped (Skip).
type AESPlan struct {
	Skip  map[*ir.Instr]bool
	Group map[*ir.Instr][]*ir.Instr
}

// Plan groups the AES rounds of b in groups of up to eight (four on i64
// planes).
func (s *SoftAES) Plan(b *ir.Block) *AESPlan {
	p := &AESPlan{Skip: map[*ir.Instr]bool{}, Group: map[*ir.Instr][]*ir.Instr{}}
	PlanAESGroups(b, p, s.states(), true)
	return p
}

// Select emits in when it is an AES round (with the rest of its group at
// its last round; a skipped round emits nothing) and reports whether it
// was one.
func (s *SoftAES) Select(f *Func, in *ir.Instr, p *AESPlan) bool {
	if in.Op != ir.OpAESEnc && in.Op != ir.OpAESEncLast {
		return false
	}
	if p.Skip[in] {
		return true
	}
	grp, ok := p.Group[in]
	if !ok {
		grp = []*ir.Instr{in}
	}
	s.emit(f, grp)
	return true
}

// PlanAESGroups finds runs of up to size AES rounds of the same kind with
// the same round key on independent states, adjacent in b, and records
// them in p. Unless any, a run is cut to an even length (or 4 or 2).
func PlanAESGroups(b *ir.Block, p *AESPlan, size int, any bool) {
	var open []*ir.Instr
	var results []*ir.Value
	flush := func() {
		n := len(open) &^ 1
		if len(open) == 4 || len(open) == 2 || any {
			n = len(open)
		}
		if n >= 2 || (any && n == 1) {
			for _, in := range open[:n-1] {
				p.Skip[in] = true
			}
			p.Group[open[n-1]] = append([]*ir.Instr(nil), open[:n]...)
		}
		open, results = nil, nil
	}
	for _, in := range b.Instrs {
		isAES := in.Op == ir.OpAESEnc || in.Op == ir.OpAESEncLast
		if len(open) > 0 && isAES && in.Op == open[0].Op && in.Args[2] == open[0].Args[2] &&
			in.Args[3] == open[0].Args[3] && !ir.Reads(in, results...) {
			open = append(open, in)
			results = append(results, in.Results...)
			if len(open) == size {
				flush()
			}
			continue
		}
		if len(open) > 0 && (isAES || ir.Reads(in, results...) || len(in.Blocks) > 0) {
			flush()
		}
		if isAES {
			open = []*ir.Instr{in}
			results = append([]*ir.Value(nil), in.Results...)
		}
	}
	flush()
}

// shuffleMask builds a shufflevector mask.
func shuffleMask(idx ...int) constant.Constant {
	cs := make([]constant.Constant, len(idx))
	for i, x := range idx {
		cs[i] = Cint(types.I32, uint64(x))
	}
	return constant.NewVector(types.NewVector(uint64(len(idx)), types.I32), cs...)
}

var v2i64 = types.NewVector(2, types.I64)

// Vec2 packs two words into a <2 x i64> (lane 0 = x).
func (g *Func) Vec2(x, y value.Value) value.Value {
	v := g.Cur.NewInsertElement(constant.NewUndef(v2i64), x, Cint(types.I32, 0))
	return g.Cur.NewInsertElement(v, y, Cint(types.I32, 1))
}

// Lane is lane i of the <2 x i64> v.
func (g *Func) Lane(v value.Value, i int) value.Value {
	return g.Cur.NewExtractElement(v, Cint(types.I32, uint64(i)))
}

// emit emits one bitsliced round for a group of at most eight states
// (four on i64 planes).
func (s *SoftAES) emit(g *Func, group []*ir.Instr) {
	var o wordOps[value.Value] = vecOps{b: &g.Cur}
	if s.scalar {
		o = llOps{g: g.Module, b: &g.Cur}
	}
	planes, ok := s.slicedInput(group)
	if !ok {
		var w [8]value.Value
		for i := range w {
			b, h := i/2, i%2
			if s.scalar {
				w[i] = stateWord(g, group, b, h)
			} else {
				w[i] = g.Vec2(stateWord(g, group, b, h), stateWord(g, group, b+4, h))
			}
		}
		planes = pack4(o, w)
	}
	k0, k1 := g.Val(group[0].Args[2]), g.Val(group[0].Args[3])
	var kw [8]value.Value
	kv0, kv1 := k0, k1
	if !s.scalar {
		kv0, kv1 = g.Vec2(k0, k0), g.Vec2(k1, k1)
	}
	for i := range kw {
		kw[i] = kv0
		if i%2 == 1 {
			kw[i] = kv1
		}
	}
	key := pack4(o, kw)
	args := append(planes[:], key[:]...)
	r := g.Cur.NewCall(g.Module.sliceRoundFunc(group[0].Op == ir.OpAESEncLast, s.scalar), args...)
	out := &sliceGroup{n: len(group)}
	for i := range out.planes {
		out.planes[i] = g.Cur.NewExtractValue(r, uint64(i))
	}
	w := unpack4(o, out.planes)
	for j, in := range group {
		for h := 0; h < 2; h++ {
			res := in.Results[h]
			if s.scalar {
				g.Vals[res] = w[2*j+h]
			} else {
				g.Vals[res] = g.Lane(w[2*(j%4)+h], j/4)
			}
			s.sliced[res] = sliceRef{out, 2*j + h}
		}
	}
}

// stateWord is word h of state j of the group (zero past its end).
func stateWord(g *Func, group []*ir.Instr, j, h int) value.Value {
	if j >= len(group) {
		return Cint(types.I64, 0)
	}
	return g.Val(group[j].Args[h])
}

// slicedInput returns the planes of the previous group when group's states
// are exactly its results, in order.
func (s *SoftAES) slicedInput(group []*ir.Instr) ([8]value.Value, bool) {
	var src *sliceGroup
	for j, in := range group {
		for h := 0; h < 2; h++ {
			ref, ok := s.sliced[in.Args[h]]
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

var (
	slicePlanes       = types.NewStruct(v2i64, v2i64, v2i64, v2i64, v2i64, v2i64, v2i64, v2i64)
	slicePlanesScalar = types.NewStruct(types.I64, types.I64, types.I64, types.I64, types.I64, types.I64, types.I64, types.I64)
)

// sliceRoundFunc returns the module's bitsliced round function (state
// planes, key planes -> state planes) on <2 x i64> or i64 (scalar) planes:
// one out-of-line copy per kind, since a cipher calls it ten times per
// group.
func (g *Module) sliceRoundFunc(last, scalar bool) *llir.Func {
	name := "lowentc.soft.round"
	if last {
		name = "lowentc.soft.lastround"
	}
	var plane types.Type = v2i64
	planes := slicePlanes
	if scalar {
		name += ".i64"
		plane, planes = types.I64, slicePlanesScalar
	}
	if f, ok := g.Decls[name]; ok {
		return f
	}
	ps := make([]*llir.Param, 16)
	for i := range ps {
		ps[i] = llir.NewParam("", plane)
	}
	f := g.Out.NewFunc(name, planes, ps...)
	f.Linkage = enum.LinkageInternal
	f.FuncAttrs = append(f.FuncAttrs, enum.FuncAttrNoUnwind, enum.FuncAttrReadNone, enum.FuncAttrNoInline)
	g.Decls[name] = f
	blk := f.NewBlock("entry")
	var o wordOps[value.Value] = vecOps{b: &blk}
	if scalar {
		o = llOps{g: g, b: &blk}
	}
	var s, k [8]value.Value
	for i := 0; i < 8; i++ {
		s[i], k[i] = ps[i], ps[8+i]
	}
	s = sliceRound(o, last, s, k)
	var r value.Value = constant.NewUndef(planes)
	for i, x := range s {
		r = blk.NewInsertValue(r, x, uint64(i))
	}
	blk.NewRet(r)
	return f
}
