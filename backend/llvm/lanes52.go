package llvm

import (
	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/ir"
)

// Lane loops on eight 64-bit lanes, with 52-bit multiply-adds.
//
// A lane loop is `for l in 0..8` whose body is straight-line u64
// arithmetic on rows of eight words: every u64 array it touches is read
// and written at element k*8 + l for constant rows k (a [3][8]u64
// accumulator, a [5][8]u64 table of powers), and a byte array is read as
// the two little-endian words of lane l's 16-byte block, at byte base +
// 16 l and base + 16 l + 8 (base the same for the loop). Such a loop is
// emitted as two steps on <4 x i64> values, one for lanes 0..3 and one
// for lanes 4..7, lane l of each vector being its value in iteration l:
// a row is two vector loads or stores, a u64 value defined before the
// loop is splatted, and the eight words of each 64-byte half of the
// block are two 32-byte loads split into their even and odd words by
// two-source shuffles, not gathered. (256-bit vectors, not 512: a
// 512-bit VPMADD52 lowers the core's clock for the code around it, which
// cost the AEAD's ChaCha20 10%; laneLoopInstr.)
//
// A mulw of operands proven below 2^52 (each an `x & C` with C < 2^52, or a
// constant below 2^52) whose halves are used only as
//
//	lo & (2^52 - 1)              the low 52 bits of the product
//	(hi << 12) | (lo >> 52)      its bits 52..103
//
// is selected to VPMADD52LUQ and VPMADD52HUQ (the product of the operands'
// low 52 bits, its low or high 52 bits added to a third vector); when such
// a half is used only by an add, the add is that instruction's addition.
// An operand's mask of exactly 2^52 - 1 is dropped: the instructions read
// only bits 0..51. Anything else in the body (a call, a branch, a check,
// another index, a store to a byte array or to an array that is not the
// function's own, a mulw half used otherwise) leaves the loop to the
// scalar emission.
//
// The unroll pass keeps such loops rolled only where `have ifma` holds
// (ir/unroll.go), and only a variant whose selector says LanesIFMA emits
// them so; every other variant and target gets the scalar code.

// LaneVectorizer is implemented by a Selector whose variant has AVX-512
// IFMA: LanesIFMA reports whether lane loops are selected (lanes52.go).
type LaneVectorizer interface {
	LanesIFMA() bool
}

// m52 is 2^52 - 1.
const m52 = 1<<52 - 1

// laneIdx is an index as c * l + off (+ base, a value defined before the
// loop, when base is not nil).
type laneIdx struct {
	c, off int64
	base   *ir.Value
	ok     bool
}

// laneLoop is what the analysis found of a lane loop.
type laneLoop struct {
	idx     map[*ir.Value]laneIdx // the u32 values of the body: indexes
	lo52    map[*ir.Value]*ir.Instr
	hi52    map[*ir.Value]*ir.Instr // the or of a high half -> its mulw
	skip    map[*ir.Instr]bool      // mulw and the shifts of a high half: emitted with the halves
	fused   map[*ir.Value]bool      // a half whose only use is an add: emitted by the add
	msgBase map[*ir.Array]laneIdx   // byte arrays: the block's base
}

// analyzeLaneLoop reports whether loop in is a lane loop, and how.
func analyzeLaneLoop(in *ir.Instr) (*laneLoop, bool) {
	if len(in.Results) != 0 || len(in.Args) != 2 {
		return nil, false
	}
	if lo, ok := constOf(in.Args[0]); !ok || lo != 0 {
		return nil, false
	}
	if hi, ok := constOf(in.Args[1]); !ok || hi != 8 {
		return nil, false
	}
	body := in.Blocks[0]
	if len(body.Params) != 1 || body.Params[0].Type != ir.U32 {
		return nil, false
	}
	l := body.Params[0]
	inBody := map[*ir.Value]bool{l: true}
	uses := map[*ir.Value][]*ir.Instr{}
	for _, x := range body.Instrs {
		for _, r := range x.Results {
			inBody[r] = true
		}
		for _, a := range x.Args {
			uses[a] = append(uses[a], x)
		}
	}
	ll := &laneLoop{idx: map[*ir.Value]laneIdx{l: {c: 1, ok: true}}, lo52: map[*ir.Value]*ir.Instr{},
		hi52: map[*ir.Value]*ir.Instr{}, skip: map[*ir.Instr]bool{}, fused: map[*ir.Value]bool{}, msgBase: map[*ir.Array]laneIdx{}}
	idxOf := func(v *ir.Value) laneIdx {
		if a, ok := ll.idx[v]; ok {
			return a
		}
		if c, ok := constOf(v); ok {
			return laneIdx{off: int64(int32(uint32(c))), ok: true}
		}
		if !inBody[v] && v.Type == ir.U32 {
			return laneIdx{base: v, ok: true}
		}
		return laneIdx{}
	}
	below52 := func(v *ir.Value) bool {
		if c, ok := constOf(v); ok {
			return c <= m52
		}
		d := def(v)
		if d == nil || d.Op != ir.OpAnd {
			return false
		}
		for _, a := range d.Args {
			if c, ok := constOf(a); ok && c <= m52 {
				return true
			}
		}
		return false
	}
	stored := map[*ir.Array][]laneIdx{}
	msgOffs := map[*ir.Array]map[int64]bool{}
	for _, x := range body.Instrs {
		switch x.Op {
		case ir.OpYield:
			if len(x.Args) != 0 {
				return nil, false
			}
			continue
		case ir.OpConst:
			continue
		}
		// u32 values are indexes only.
		if len(x.Results) == 1 && x.Results[0].Type == ir.U32 {
			if len(x.Args) != 2 {
				return nil, false
			}
			a, b := idxOf(x.Args[0]), idxOf(x.Args[1])
			if !a.ok || !b.ok {
				return nil, false
			}
			var r laneIdx
			switch x.Op {
			case ir.OpAdd:
				if a.base != nil && b.base != nil {
					return nil, false
				}
				r = laneIdx{c: a.c + b.c, off: a.off + b.off, base: a.base, ok: true}
				if r.base == nil {
					r.base = b.base
				}
			case ir.OpSub:
				if b.base != nil {
					return nil, false
				}
				r = laneIdx{c: a.c - b.c, off: a.off - b.off, base: a.base, ok: true}
			case ir.OpMul, ir.OpShl:
				if a.base != nil || b.base != nil || b.c != 0 || b.off < 0 || b.off > 16 {
					return nil, false
				}
				k := b.off
				if x.Op == ir.OpShl {
					k = 1 << k
				}
				r = laneIdx{c: a.c * k, off: a.off * k, ok: true}
			default:
				return nil, false
			}
			ll.idx[x.Results[0]] = r
			continue
		}
		for _, r := range x.Results {
			if r.Type != ir.U64 {
				return nil, false
			}
		}
		switch x.Op {
		case ir.OpLoad, ir.OpStore:
			a := idxOf(x.Args[0])
			if x.Arr.Elem != ir.U64 || x.Arr.Per != 1 || x.Arr.IsSlice() || !a.ok || a.c != 1 || a.base != nil ||
				a.off < 0 || a.off%8 != 0 || a.off+8 > int64(x.Arr.Len) {
				return nil, false
			}
			if x.Op == ir.OpStore {
				if x.Arr.Kind != ir.ArrLocal || x.Args[1].Type != ir.U64 {
					return nil, false
				}
				stored[x.Arr] = append(stored[x.Arr], a)
			}
		case ir.OpLoadLE:
			a := idxOf(x.Args[0])
			if x.Aux != 64 || x.Arr.Elem != ir.U8 || x.Arr.Per != 1 || !a.ok || a.c != 16 || (a.off != 0 && a.off != 8) {
				return nil, false
			}
			if m, ok := ll.msgBase[x.Arr]; ok && m.base != a.base {
				return nil, false
			}
			ll.msgBase[x.Arr] = laneIdx{base: a.base, ok: true}
			if msgOffs[x.Arr] == nil {
				msgOffs[x.Arr] = map[int64]bool{}
			}
			msgOffs[x.Arr][a.off] = true
		case ir.OpAdd, ir.OpSub, ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpMul:
		case ir.OpNot:
		case ir.OpShl, ir.OpShr:
			if c, ok := constOf(x.Args[1]); !ok || c >= 64 {
				return nil, false
			}
		case ir.OpMulW:
			if !below52(x.Args[0]) || !below52(x.Args[1]) {
				return nil, false
			}
			lo, hi := x.Results[0], x.Results[1]
			// lo: one `lo & M52` and one `lo >> 52`; hi: one `hi << 12`,
			// the shifts joined by one or.
			var and, shr, shl, or *ir.Instr
			for _, u := range uses[lo] {
				c, ok := constOf(otherArg(u, lo))
				switch {
				case ok && u.Op == ir.OpAnd && c == m52 && and == nil:
					and = u
				case ok && u.Op == ir.OpShr && u.Args[0] == lo && c == 52 && shr == nil:
					shr = u
				default:
					return nil, false
				}
			}
			if hu := uses[hi]; len(hu) == 1 && hu[0].Op == ir.OpShl && hu[0].Args[0] == hi {
				if c, ok := constOf(hu[0].Args[1]); ok && c == 12 {
					shl = hu[0]
				}
			}
			if shl == nil && len(uses[hi]) != 0 || (shl == nil) != (shr == nil) {
				return nil, false
			}
			if shl != nil {
				us, ur := uses[shl.Results[0]], uses[shr.Results[0]]
				if len(us) != 1 || len(ur) != 1 || us[0] != ur[0] || us[0].Op != ir.OpOr {
					return nil, false
				}
				or = us[0]
				ll.hi52[or.Results[0]] = x
				ll.skip[shl], ll.skip[shr] = true, true
			}
			if and != nil {
				ll.lo52[and.Results[0]] = x
			}
			ll.skip[x] = true
		default:
			return nil, false
		}
	}
	// The halves used only by an add are that add's accumulation.
	for _, m := range []map[*ir.Value]*ir.Instr{ll.lo52, ll.hi52} {
		for v := range m {
			if us := uses[v]; len(us) == 1 && us[0].Op == ir.OpAdd {
				ll.fused[v] = true
			}
		}
	}
	// The 16-byte blocks are read whole: both words of each.
	for a, offs := range msgOffs {
		if !offs[0] || !offs[8] {
			return nil, false
		}
		if stored[a] != nil {
			return nil, false
		}
	}
	return ll, true
}

// otherArg is the argument of the two-operand x that is not v.
func otherArg(x *ir.Instr, v *ir.Value) *ir.Value {
	if len(x.Args) != 2 {
		return nil
	}
	if x.Args[0] == v {
		return x.Args[1]
	}
	return x.Args[0]
}

// laneLoopInstr emits for loop in as one step on eight lanes when the
// variant selects lane loops and the loop is one; ok is false when it
// emitted nothing.
func (g *Func) laneLoopInstr(in *ir.Instr) bool {
	lv, isLV := g.sel.(LaneVectorizer)
	if !isLV || !lv.LanesIFMA() {
		return false
	}
	ll, ok := analyzeLaneLoop(in)
	if !ok {
		return false
	}
	b := g.Cur
	// Each half of the lanes is one <4 x i64> step (ymm): a 512-bit
	// VPMADD52 puts the core in its lowest AVX-512 clock (its "heavy"
	// license) for some time after, and a ChaCha20 run next to it (the
	// AEAD's) ran 10% slower for it; the 256-bit form does not, and with
	// port 1 open to 256-bit work costs the lane loop little.
	for h := int64(0); h < laneCount/laneWidth; h++ {
		g.laneHalf(b, in, ll, h)
	}
	return true
}

// laneCount is the lanes of a lane loop; laneWidth the lanes of one
// vector of its emission.
const (
	laneCount = 8
	laneWidth = 4
)

// laneHalf emits half h of lane loop in: lanes laneWidth*h up to
// laneWidth*(h+1), one vector each value.
func (g *Func) laneHalf(b *llir.Block, in *ir.Instr, ll *laneLoop, h int64) {
	first := laneWidth * h
	vt := types.NewVector(laneWidth, types.I64)
	vp := types.NewPointer(vt)
	splatConst := func(x uint64) value.Value {
		elems := make([]constant.Constant, laneWidth)
		for i := range elems {
			elems[i] = constant.NewInt(types.I64, int64(x))
		}
		return constant.NewVector(vt, elems...)
	}
	vals := map[*ir.Value]value.Value{}
	vec := func(v *ir.Value) value.Value {
		if x, ok := vals[v]; ok {
			return x
		}
		var x value.Value
		if c, ok := constOf(v); ok {
			x = splatConst(c)
		} else {
			ins := b.NewInsertElement(constant.NewUndef(vt), g.Val(v), constant.NewInt(types.I32, 0))
			x = b.NewShuffleVector(ins, constant.NewUndef(vt), constant.NewZeroInitializer(types.NewVector(laneWidth, types.I32)))
		}
		vals[v] = x
		return x
	}
	rowPtr := func(a *ir.Array, off int64) value.Value {
		return b.NewBitCast(g.elemIn(b, a, constant.NewInt(types.I32, off+first)), vp)
	}
	// The message blocks: even and odd words of the half's 16 laneWidth
	// bytes at base.
	type words struct{ even, odd value.Value }
	blocks := map[*ir.Array]words{}
	blockOf := func(a *ir.Array) words {
		if w, ok := blocks[a]; ok {
			return w
		}
		base := value.Value(constant.NewInt(types.I32, 16*first))
		if m := ll.msgBase[a]; m.base != nil {
			base = b.NewAdd(g.Val(m.base), base)
		}
		var part [2]value.Value
		for k := range part {
			p := g.elemIn(b, a, b.NewAdd(base, constant.NewInt(types.I32, int64(8*laneWidth*k))))
			ld := b.NewLoad(vt, b.NewBitCast(p, vp))
			ld.Align = 1
			part[k] = ld
		}
		mask := func(first int64) value.Value {
			elems := make([]constant.Constant, laneWidth)
			for i := range elems {
				elems[i] = constant.NewInt(types.I32, first+2*int64(i))
			}
			return constant.NewVector(types.NewVector(laneWidth, types.I32), elems...)
		}
		w := words{b.NewShuffleVector(part[0], part[1], mask(0)), b.NewShuffleVector(part[0], part[1], mask(1))}
		blocks[a] = w
		return w
	}
	madd := func(hi bool, acc value.Value, m *ir.Instr) value.Value {
		name := "llvm.x86.avx512.vpmadd52l.uq.256"
		if hi {
			name = "llvm.x86.avx512.vpmadd52h.uq.256"
		}
		op := func(v *ir.Value) value.Value {
			// The instruction reads bits 0..51: a mask of exactly those
			// changes nothing.
			if d := def(v); d != nil && d.Op == ir.OpAnd {
				for i, a := range d.Args {
					if c, ok := constOf(a); ok && c == m52 {
						return vec(d.Args[1-i])
					}
				}
			}
			return vec(v)
		}
		return b.NewCall(g.Intrinsic(name, vt, vt, vt, vt), acc, op(m.Args[0]), op(m.Args[1]))
	}
	half := func(v *ir.Value, acc value.Value) (value.Value, bool) {
		if m, ok := ll.lo52[v]; ok {
			return madd(false, acc, m), true
		}
		if m, ok := ll.hi52[v]; ok {
			return madd(true, acc, m), true
		}
		return nil, false
	}
	zero := constant.NewZeroInitializer(vt)
	for _, x := range in.Blocks[0].Instrs {
		if x.Op == ir.OpYield || x.Op == ir.OpConst || ll.skip[x] {
			continue
		}
		if len(x.Results) == 1 && x.Results[0].Type == ir.U32 {
			continue // an index
		}
		if len(x.Results) == 1 {
			if ll.fused[x.Results[0]] {
				continue
			}
			if h, ok := half(x.Results[0], zero); ok {
				vals[x.Results[0]] = h
				continue
			}
		}
		switch x.Op {
		case ir.OpLoad:
			ld := b.NewLoad(vt, rowPtr(x.Arr, ll.idx[x.Args[0]].off))
			ld.Align = 8
			vals[x.Results[0]] = ld
		case ir.OpStore:
			st := b.NewStore(vec(x.Args[1]), rowPtr(x.Arr, ll.idx[x.Args[0]].off))
			st.Align = 8
		case ir.OpLoadLE:
			w := blockOf(x.Arr)
			if ll.idx[x.Args[0]].off == 0 {
				vals[x.Results[0]] = w.even
			} else {
				vals[x.Results[0]] = w.odd
			}
		case ir.OpAdd:
			var r value.Value
			for i, a := range x.Args {
				if ll.fused[a] {
					other := x.Args[1-i]
					acc := value.Value(nil)
					if ll.fused[other] {
						acc, _ = half(other, zero)
					} else {
						acc = vec(other)
					}
					r, _ = half(a, acc)
					break
				}
			}
			if r == nil {
				r = b.NewAdd(vec(x.Args[0]), vec(x.Args[1]))
			}
			vals[x.Results[0]] = r
		case ir.OpSub:
			vals[x.Results[0]] = b.NewSub(vec(x.Args[0]), vec(x.Args[1]))
		case ir.OpAnd:
			vals[x.Results[0]] = b.NewAnd(vec(x.Args[0]), vec(x.Args[1]))
		case ir.OpOr:
			vals[x.Results[0]] = b.NewOr(vec(x.Args[0]), vec(x.Args[1]))
		case ir.OpXor:
			vals[x.Results[0]] = b.NewXor(vec(x.Args[0]), vec(x.Args[1]))
		case ir.OpMul:
			vals[x.Results[0]] = b.NewMul(vec(x.Args[0]), vec(x.Args[1]))
		case ir.OpNot:
			vals[x.Results[0]] = b.NewXor(vec(x.Args[0]), splatConst(^uint64(0)))
		case ir.OpShl, ir.OpShr:
			c, _ := constOf(x.Args[1])
			if x.Op == ir.OpShl {
				vals[x.Results[0]] = b.NewShl(vec(x.Args[0]), splatConst(c))
			} else {
				vals[x.Results[0]] = b.NewLShr(vec(x.Args[0]), splatConst(c))
			}
		}
	}
}
