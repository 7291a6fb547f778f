package amd64

import (
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/ir"
)

// Lane arithmetic in blocks that multiply (hardware variants only).
//
// GHASH's reduction works on the four words of a product with shifts,
// funnel shifts and xors between words that sit in different lanes of
// PCLMULQDQ results, and feeds the results back to PCLMULQDQ. Done on
// general registers, every word crosses between the register files twice
// (about three cycles each way) on the loop-carried path. In a block with
// clmul ops these word ops therefore stay in vectors: an operand in the
// other lane is swapped over with one shuffle (one cycle), shifts by a
// constant shift both lanes. That is for latency: GHASH alone is bound by
// its loop-carried chain (+25% measured). Blocks that also run AES rounds
// (the GCM seal loop) are bound by shuffle-port throughput instead, where
// the extra shuffles cost more than the crossings (measured ~7% slower), and
// blocks without clmul keep the scalar selection (BLAKE2b's word pairs are
// not worth a shuffle).

// hasClmul reports whether b itself (not nested blocks) multiplies.
func hasClmul(b *ir.Block) bool {
	return hasOp(b, ir.OpClmulLo, ir.OpClmulHi)
}

// hasAES reports whether b itself runs AES rounds.
func hasAES(b *ir.Block) bool {
	return hasOp(b, ir.OpAESEnc, ir.OpAESEncLast)
}

func hasOp(b *ir.Block, ops ...ir.Op) bool {
	for _, in := range b.Instrs {
		for _, op := range ops {
			if in.Op == op {
				return true
			}
		}
	}
	return false
}

// inLane returns a vector holding v in lane `lane` (swapping the halves of
// v's vector when it is in the other one).
func (g *fgen) inLane(l laneRef, lane int) value.Value {
	if l.lane == lane {
		return l.vec
	}
	return g.Cur.NewShuffleVector(l.vec, undef2, mask(1, 0))
}

// splat2 is the <2 x i64> constant with c in both lanes.
func splat2(c uint64) constant.Constant {
	return constant.NewVector(v2i64, llvm.Cint(types.I64, c), llvm.Cint(types.I64, c))
}

// laneArith emits a bitwise op of two values in different lanes, a shift
// by a constant or a funnel shift of lane values as vector ops; it reports
// false when in is none of those.
func (g *fgen) laneArith(in *ir.Instr) bool {
	set := func(v value.Value, lane int) bool {
		r := in.Results[0]
		g.lanes[r] = laneRef{v, lane}
		g.Vals[r] = g.Cur.NewExtractElement(v, i32c(lane))
		return true
	}
	if in.Results == nil || in.Results[0].Type != ir.U64 {
		return false
	}
	switch in.Op {
	case ir.OpXor, ir.OpAnd, ir.OpOr:
		la, oka := g.lanes[in.Args[0]]
		lb, okb := g.lanes[in.Args[1]]
		if !oka || !okb {
			return false
		}
		a, b := la.vec, g.inLane(lb, la.lane)
		switch in.Op {
		case ir.OpXor:
			return set(g.Cur.NewXor(a, b), la.lane)
		case ir.OpAnd:
			return set(g.Cur.NewAnd(a, b), la.lane)
		}
		return set(g.Cur.NewOr(a, b), la.lane)
	case ir.OpShl, ir.OpShr:
		la, ok := g.lanes[in.Args[0]]
		d := in.Args[1].Def
		if !ok || d == nil || d.Op != ir.OpConst || d.Aux >= 64 {
			return false
		}
		if in.Op == ir.OpShl {
			return set(g.Cur.NewShl(la.vec, splat2(d.Aux)), la.lane)
		}
		return set(g.Cur.NewLShr(la.vec, splat2(d.Aux)), la.lane)
	case ir.OpFshl, ir.OpFshr:
		lh, okh := g.lanes[in.Args[0]]
		ll, okl := g.lanes[in.Args[1]]
		k := in.Aux
		if !okh || !okl || k == 0 || k >= 64 {
			return false
		}
		hi, lo := lh.vec, g.inLane(ll, lh.lane)
		if in.Op == ir.OpFshl {
			return set(g.Cur.NewOr(g.Cur.NewShl(hi, splat2(k)), g.Cur.NewLShr(lo, splat2(64-k))), lh.lane)
		}
		return set(g.Cur.NewOr(g.Cur.NewLShr(lo, splat2(k)), g.Cur.NewShl(hi, splat2(64-k))), lh.lane)
	}
	return false
}

// Loop-carried pairs (backend/llvm.PairCarrier).
//
// GHASH's running value y is two u64 values carried from one step of a
// hash loop to the next. Each step feeds them to carry-less products and
// computes the next y with lane arithmetic, so both ends are vectors; as
// two scalar phis, every step moved y out to general registers and back
// (three to four shuffle-port uops per word on the loop-carried chain).
// Carried as one <2 x i64> phi, y stays in a vector register.

// CarriedPairs picks, in a hardware variant, the loops whose body block
// multiplies and runs no AES rounds (the blocks laneArith serves), and in
// them each two consecutive u64 loop-carried values that both reach a
// carry-less product directly or through one xor.
func (g *fgen) CarriedPairs(in *ir.Instr) [][2]int {
	body := in.Blocks[0]
	if !g.v.hw || !hasClmul(body) || hasAES(body) {
		return nil
	}
	feeds := map[*ir.Value]bool{}
	for _, x := range body.Instrs {
		if x.Op == ir.OpClmulLo || x.Op == ir.OpClmulHi {
			for _, a := range x.Args {
				feeds[a] = true
			}
		}
	}
	for _, x := range body.Instrs {
		if x.Op == ir.OpXor && feeds[x.Results[0]] {
			for _, a := range x.Args {
				feeds[a] = true
			}
		}
	}
	carried := body.Params[1:]
	var pairs [][2]int
	for i := 0; i+1 < len(carried) && i+1 < len(in.Results); i++ {
		x, y := carried[i], carried[i+1]
		if x.Type == ir.U64 && y.Type == ir.U64 && feeds[x] && feeds[y] {
			pairs = append(pairs, [2]int{i, i + 1})
			i++
		}
	}
	return pairs
}

// PairVec is pairVec for backend/llvm.
func (g *fgen) PairVec(x, y *ir.Value) value.Value { return g.pairVec(x, y) }

// BindPair records x and y as lanes 0 and 1 of v and defines their scalars.
func (g *fgen) BindPair(v value.Value, x, y *ir.Value) { g.setLanes(v, x, y) }
