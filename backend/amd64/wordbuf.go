package amd64

import (
	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/ir"
)

// Word buffers (hardware variants only).
//
// A word buffer is a local byte array that the function accesses only as
// 64-bit little-endian words (store_le64, load_le64) at constant offsets:
// the source's way of staging words in memory, as SHA-512's W_t + K_t is
// under `have aes` (stdlib/sha512.lw), written two words at a time and
// read by the rounds sixteen rounds later. Lowent's sroa keeps such an
// array in memory (it is accessed by byte-order ops), but LLVM's SROA and
// GVN would turn it back into SSA values, and the words would then stay
// live in registers from their store to their load (spilled, in SHA-512's
// case) while the stores that seed LLVM's SLP vectorizer are gone.
//
// So the buffer is kept in memory: before a load that follows a store to
// the same buffer, the selection emits an empty asm statement that takes
// the buffer's address and clobbers memory (a compiler fence, no
// instruction). LLVM then cannot forward the stored value to the load,
// keeps the stores, and folds each load into its use (one `add` from the
// stack); the words stored side by side are computed as vector pairs
// (wordPair below). The array's zeroing (the declaration's byte stores,
// and the memset of the frame's copy) is not emitted: no load reads it.
//
// The fence has no effect on the program's meaning: it only orders memory
// accesses in the compiler, which the program orders the same way.

// wordBufs finds the word buffers of the function being emitted (once):
// local byte arrays whose accesses all sit in one block, in this order:
// the declaration's zeroing (byte stores of 0 at constant indexes), then
// 64-bit little-endian stores and loads at constant offsets, each load at
// the offset of an earlier store. The loads therefore never read the
// zeroing, which the selection drops (zeroStore).
func (g *fgen) wordBufs() map[*ir.Array]bool {
	if g.wbufs != nil {
		return g.wbufs
	}
	st := map[*ir.Array]*wordBufState{}
	for _, a := range g.F.Locals {
		if a.Kind == ir.ArrLocal && a.Elem == ir.U8 {
			st[a] = &wordBufState{written: map[uint64]bool{}}
		}
	}
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		for _, in := range b.Instrs {
			for _, a := range in.Arrs {
				delete(st, a)
			}
			if s, ok := st[in.Arr]; ok && in.Arr != nil {
				if s.blk == nil {
					s.blk = b
				}
				if !s.access(in, b) {
					delete(st, in.Arr)
				}
			}
			for _, blk := range in.Blocks {
				walk(blk)
			}
		}
	}
	walk(g.F.Body)
	g.wbufs = map[*ir.Array]bool{}
	for a, s := range st {
		if s.words {
			g.wbufs[a] = true
		}
	}
	return g.wbufs
}

// fenceWordBuf emits the fence before a load from a word buffer stored to
// since the last fence, and records stores to word buffers.
func (g *fgen) fenceWordBuf(in *ir.Instr) {
	if !g.v.hw || in.Arr == nil || (!isLoad(in.Op) && !isStore(in.Op)) || !g.wordBufs()[in.Arr] {
		return
	}
	if g.dirty == nil {
		g.dirty = map[*ir.Array]bool{}
	}
	if isStore(in.Op) {
		g.dirty[in.Arr] = true
		return
	}
	if !g.dirty[in.Arr] {
		return
	}
	delete(g.dirty, in.Arr)
	fence := llir.NewInlineAsm(types.NewPointer(types.NewFunc(types.Void, types.I8Ptr)), "", "r,~{memory}")
	fence.SideEffect = true
	g.Cur.NewCall(fence, g.Cur.NewBitCast(g.Elem(in.Arr, i32c(0)), types.I8Ptr))
}

// wordBufState is what wordBufs knows of one candidate so far.
type wordBufState struct {
	blk     *ir.Block       // the block of its first access
	words   bool            // a word access was seen
	written map[uint64]bool // offsets of the word stores so far
}

// access reports whether in, in block b, keeps the array a word buffer.
func (s *wordBufState) access(in *ir.Instr, b *ir.Block) bool {
	if b != s.blk {
		return false
	}
	if isZeroStore(in) {
		return !s.words
	}
	if (in.Op != ir.OpStoreLE && in.Op != ir.OpLoadLE) || in.Aux != 64 {
		return false
	}
	off, ok := ir.ConstOf(in.Args[0])
	if !ok {
		return false
	}
	s.words = true
	if in.Op == ir.OpStoreLE {
		s.written[off] = true
		return true
	}
	return s.written[off]
}

// isZeroStore reports whether in stores a constant 0 at a constant index.
func isZeroStore(in *ir.Instr) bool {
	if in.Op != ir.OpStore {
		return false
	}
	_, idx := ir.ConstOf(in.Args[0])
	v, val := ir.ConstOf(in.Args[1])
	return idx && val && v == 0
}

// Unzeroed: a word buffer's initial contents are never read
// (backend/llvm allocates it without zeroing).
func (g *fgen) Unzeroed(a *ir.Array) bool { return g.v.hw && g.wordBufs()[a] }

// zeroStore reports whether in is the zeroing of a word buffer, which no
// load reads: the selection emits nothing for it.
func (g *fgen) zeroStore(in *ir.Instr) bool {
	return g.v.hw && in.Op == ir.OpStore && g.wordBufs()[in.Arr] && isZeroStore(in)
}

// Word pairs.
//
// The two words a word buffer receives at consecutive offsets are often
// computed alike (SHA-512's W_{t+16} + K_{t+16} and W_{t+17} + K_{t+17}),
// and LLVM's SLP vectorizer takes such trees only when its cost model
// says so, which depends on the rest of the function (it took SHA-512's
// schedule in a function of the schedule and rounds alone, not inside the
// export with its hash state in registers). The selection therefore forms
// the pair itself: the two values' expression trees, op by op while both
// are the same op (add, xor, and, or; shifts and rotates by the same
// constant), become <2 x i64> ops, whose leaves are constants, the lanes
// of earlier pairs (W_{t-2}, W_{t-7}, W_{t-15}, W_{t-16} are words of
// the pairs before), or two scalars put into one vector. The pair is one
// 16-byte store. The scalar ops stay emitted for any other user; LLVM
// deletes those that have none.

// maxPairDepth bounds how deep wordPair follows a tree past the values it
// has already paired.
const maxPairDepth = 12

// wordPair returns the vector (x, y). Pairs formed and lanes recorded
// are reused only in the LLVM block that made them (a block that does not
// dominate a later one, such as the other branch of an if, would not do).
func (g *fgen) wordPair(x, y *ir.Value, depth int) value.Value {
	if g.wpairs == nil || g.wblock != g.Cur {
		g.wpairs = map[[2]*ir.Value]value.Value{}
		g.wlanes = map[*ir.Value]laneRef{}
		g.wblock = g.Cur
	}
	key := [2]*ir.Value{x, y}
	if v, ok := g.wpairs[key]; ok {
		return v
	}
	v := g.wordPairOp(x, y, depth)
	g.wpairs[key] = v
	for i, r := range key {
		if _, ok := g.wlanes[r]; !ok {
			g.wlanes[r] = laneRef{v, i}
		}
	}
	return v
}

// wordPairOp forms (x, y) from their lanes, as constants, as one vector
// op on pairs of their operands, or from the two scalars.
func (g *fgen) wordPairOp(x, y *ir.Value, depth int) value.Value {
	lx, okx := g.wlanes[x]
	ly, oky := g.wlanes[y]
	if !okx || !oky {
		lx, okx = g.lanes[x]
		ly, oky = g.lanes[y]
	}
	switch {
	case okx && oky && lx.vec == ly.vec && lx.lane == 0 && ly.lane == 1:
		return lx.vec
	case okx && oky:
		return g.Cur.NewShuffleVector(lx.vec, ly.vec, mask(lx.lane, 2+ly.lane))
	case isConst(x) && isConst(y):
		return constant.NewVector(v2i64, llvm.Cint(types.I64, x.Def.Aux), llvm.Cint(types.I64, y.Def.Aux))
	}
	dx, dy := x.Def, y.Def
	if depth == 0 || dx == nil || dy == nil || dx.Op != dy.Op || x.Type != ir.U64 || y.Type != ir.U64 ||
		len(dx.Results) != 1 || len(dy.Results) != 1 {
		return g.vec2(g.Val(x), g.Val(y))
	}
	sub := func(i int) value.Value { return g.wordPair(dx.Args[i], dy.Args[i], depth-1) }
	switch dx.Op {
	case ir.OpAdd:
		return g.Cur.NewAdd(sub(0), sub(1))
	case ir.OpXor:
		return g.Cur.NewXor(sub(0), sub(1))
	case ir.OpAnd:
		return g.Cur.NewAnd(sub(0), sub(1))
	case ir.OpOr:
		return g.Cur.NewOr(sub(0), sub(1))
	case ir.OpShl, ir.OpShr, ir.OpRotl, ir.OpRotr:
		kx, okx := ir.ConstOf(dx.Args[1])
		ky, oky := ir.ConstOf(dy.Args[1])
		if !okx || !oky || kx != ky {
			break
		}
		a := sub(0)
		switch dx.Op {
		case ir.OpShl, ir.OpShr:
			if kx >= 64 {
				return constant.NewZeroInitializer(v2i64)
			}
			if dx.Op == ir.OpShl {
				return g.Cur.NewShl(a, splat2(kx))
			}
			return g.Cur.NewLShr(a, splat2(kx))
		case ir.OpRotl:
			return g.vecFunnel("llvm.fshl.v2i64", a, a, kx&63)
		}
		return g.vecFunnel("llvm.fshr.v2i64", a, a, kx&63)
	case ir.OpFshl, ir.OpFshr:
		if dx.Aux != dy.Aux {
			break
		}
		name := "llvm.fshl.v2i64"
		if dx.Op == ir.OpFshr {
			name = "llvm.fshr.v2i64"
		}
		return g.vecFunnel(name, sub(0), sub(1), dx.Aux)
	}
	return g.vec2(g.Val(x), g.Val(y))
}

// vecFunnel is the funnel shift intrinsic name on <2 x i64> by k.
func (g *fgen) vecFunnel(name string, hi, lo value.Value, k uint64) value.Value {
	return g.Cur.NewCall(g.Intrinsic(name, v2i64, v2i64, v2i64, v2i64), hi, lo, splat2(k))
}

// wordBufAccess emits the memory accesses of word buffers in a hardware
// variant: a planned store pair (or run of pairs) as 16-byte stores of
// wordPair vectors, a load as one scalar load (the rounds fold it into an
// add; a 16-byte load of two words would cost an extraction). It reports
// false for anything else.
func (g *fgen) wordBufAccess(in *ir.Instr, p *blockPlan) bool {
	if !g.v.hw || in.Arr == nil || !g.wordBufs()[in.Arr] {
		return false
	}
	switch {
	case isLoad(in.Op):
		if err := g.Instr(in); err != nil {
			panic("BUG: amd64: " + err.Error())
		}
		return true
	case p.storeSkip[in] || p.storeRunSkip[in]:
		return true // emitted with its pair
	case p.storeRun[in] != nil:
		for _, pr := range p.storeRun[in] {
			g.storeWordPair(pr)
		}
		return true
	case p.storePair[in] != [2]*ir.Instr{}:
		g.storeWordPair(p.storePair[in])
		return true
	}
	return false
}

// storeWordPair emits a store pair (lower, higher address) of a word
// buffer as one 16-byte store.
func (g *fgen) storeWordPair(pair [2]*ir.Instr) {
	lo, hi := pair[0], pair[1]
	v := g.wordPair(lo.Args[1], hi.Args[1], maxPairDepth)
	ptr := g.Elem(lo.Arr, g.Val(lo.Args[0]))
	st := g.Cur.NewStore(v, g.Cur.NewBitCast(ptr, types.NewPointer(v2i64)))
	st.Align = 1
}
