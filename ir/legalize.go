// Pass legalize rewrites the module for a target whose registers are W bits
// (Options.W: 64, 32, 16 or 8). Every value wider than W becomes a group of
// W-bit limbs, least significant limb first:
//
//   - add/sub become addc/subb carry (borrow) chains; neg is 0 - x;
//   - and/or/xor/not/select work limb by limb;
//   - shifts and rotates by a constant move whole limbs (a rotate by a
//     multiple of W is only a renaming) and funnel-shift (fshl/fshr)
//     neighbouring limbs; by a run-time amount they become a barrel of
//     constant shifts chosen by select;
//   - mul is schoolbook over mulw (W×W→2W) products; divu/remu become a
//     shift-and-subtract loop;
//   - comparisons: eq/ne limb by limb, ult/ule as the borrow out of a subb chain;
//   - zext/trunc add or drop limbs;
//   - arrays of wide words become arrays of limbs (element i's limb j at
//     index i*Per+j; Array.Per records Per); constant tables are split too;
//   - loads/stores of wide elements become one per limb;
//   - a byte-order load/store wider than W becomes one per limb of W bits
//     (plain byte loads/stores at W=8), so the ones left are at most W bits;
//   - indexes, offsets, lengths and loop bounds are IndexType (u32) values
//     and so limb groups at W < 32; a loop whose constant bounds fit W gets
//     a W-bit index;
//   - clmul_lo/hi and aes_enc/enclast keep their 64-bit meaning: their
//     operands and results become limb groups (backends decide how to
//     compute them).
//
// Function parameters and results are split the same way; Function.Sig keeps
// the source-level signature, and Run converts between the two. A call that
// inline kept passes the limb groups of its scalar arguments (one argument
// per limb parameter of the legalized callee) and, for each array argument,
// the limb groups of the region's offset and length, still counted in
// source elements (the region is limbs [off*Per, (off+len)*Per) of an array
// whose Per is the callee parameter's); its results are the limbs of the
// callee's results.
//
// Requires: nothing (calls may remain). Preserves: the meaning; afterwards
// m.W = W and no value is wider than W.
package ir

import (
	"fmt"
	"math/bits"
)

func legalize(m *Module, o *Options) error {
	if m.W != 0 {
		return fmt.Errorf("module is already legalized (W=%d)", m.W)
	}
	w := o.W
	for _, g := range m.Globals {
		splitArray(g, w)
	}
	for _, f := range m.Funcs {
		lz := &legalizer{m: m, f: f, w: w, wt: WordType(w), limbs: map[*Value]limbs{}, b: &Builder{F: f}}
		lz.function()
	}
	m.W = w
	return nil
}

// splitArray turns an array of words wider than w into an array of limbs.
func splitArray(a *Array, w int) {
	k := limbsOf(w, a.Elem)
	if k == 1 {
		return
	}
	if a.Data != nil {
		a.Data = toLimbs(a.Data, k, w)
	}
	a.Elem, a.Per = WordType(w), k
	if a.Len > 0 {
		a.Len *= k
	}
}

type legalizer struct {
	m     *Module
	f     *Function
	w     int
	wt    Type // the limb type
	limbs map[*Value]limbs
	b     *Builder // appends to the block being rewritten
}

func (lz *legalizer) n(t Type) int { return limbsOf(lz.w, t) }

// lt returns the type of t's limbs.
func (lz *legalizer) lt(t Type) Type {
	if lz.n(t) == 1 {
		return t
	}
	return lz.wt
}

// get returns the limbs of an already legalized value.
func (lz *legalizer) get(v *Value) limbs {
	l, ok := lz.limbs[v]
	if !ok {
		panic(fmt.Sprintf("BUG: legalize: %s uses %%?%d before its definition", lz.f.Name, v.ID))
	}
	return l
}

// groups concatenates the limbs of several values.
func (lz *legalizer) groups(vs []*Value) limbs {
	var out limbs
	for _, v := range vs {
		out = append(out, lz.get(v)...)
	}
	return out
}

// fresh makes the limb values standing for v (v itself when it fits).
func (lz *legalizer) fresh(v *Value) limbs {
	k := lz.n(v.Type)
	if k == 1 {
		lz.limbs[v] = limbs{v}
		return lz.limbs[v]
	}
	out := make(limbs, k)
	for i := range out {
		out[i] = lz.f.NewValue(lz.wt)
		out[i].Def = v.Def
	}
	lz.limbs[v] = out
	return out
}

func (lz *legalizer) function() {
	f := lz.f
	for _, a := range f.Locals {
		splitArray(a, lz.w)
	}
	var params []*Param
	for _, p := range f.Params {
		if p.Arr != nil {
			splitArray(p.Arr, lz.w)
			params = append(params, p)
			continue
		}
		ls := lz.fresh(p.Val)
		if len(ls) == 1 {
			params = append(params, p)
			continue
		}
		for i, l := range ls {
			params = append(params, &Param{Name: fmt.Sprintf("%s.%d", p.Name, i), Val: l})
		}
	}
	f.Params = params
	var results []Type
	for _, t := range f.Results {
		for i := 0; i < lz.n(t); i++ {
			results = append(results, lz.lt(t))
		}
	}
	f.Results = results
	lz.block(f.Body)
}

func (lz *legalizer) block(b *Block) {
	saved := lz.b.Blk
	out := &Block{}
	lz.b.Blk = out
	for _, in := range b.Instrs {
		lz.b.Pos = in.Pos
		lz.instr(in)
	}
	b.Instrs = out.Instrs
	lz.b.Blk = saved
}

// set records the limbs computed for a single-result instruction.
func (lz *legalizer) set(in *Instr, ls limbs) { lz.limbs[in.Results[0]] = ls }

// keep emits in unchanged but for its arguments (each must be one limb).
func (lz *legalizer) keep(in *Instr) {
	for i, a := range in.Args {
		in.Args[i] = lz.get(a)[0]
	}
	for _, r := range in.Results {
		lz.limbs[r] = limbs{r}
	}
	lz.b.Emit(in)
}

func (lz *legalizer) instr(in *Instr) {
	if in.Op == OpIf || in.Op == OpFor {
		lz.structured(in)
		return
	}
	if lz.fits(in) {
		lz.keep(in)
		return
	}
	args := make([]limbs, len(in.Args))
	for i, a := range in.Args {
		args[i] = lz.get(a)
	}
	var t Type
	if len(in.Results) > 0 {
		t = in.Results[0].Type
	}
	switch op := in.Op; op {
	case OpConst:
		lz.set(in, lz.constL(t, in.Aux))
	case OpCopy:
		lz.set(in, args[0])
	case OpAdd:
		lz.set(in, lz.addL(args[0], args[1]))
	case OpSub:
		d, _ := lz.subL(args[0], args[1])
		lz.set(in, d)
	case OpNeg:
		d, _ := lz.subL(lz.zeros(lz.wt, len(args[0])), args[0])
		lz.set(in, d)
	case OpMul:
		lz.set(in, lz.mulL(args[0], args[1]))
	case OpDivU, OpRemU:
		lz.set(in, lz.divL(args[0], args[1], op == OpRemU))
	case OpAnd, OpOr, OpXor:
		lz.set(in, lz.mapL(op, args[0], args[1]))
	case OpNot:
		out := make(limbs, len(args[0]))
		for i, a := range args[0] {
			out[i] = lz.b.Op(OpNot, a.Type, a)
		}
		lz.set(in, out)
	case OpShl, OpShr, OpRotl, OpRotr:
		lz.shift(in, args)
	case OpFshl, OpFshr:
		// A wide funnel shift: (hi << n) | (lo >> (bits-n)), or the mirror.
		bitsT := t.Bits()
		n := in.Aux
		var x, y limbs
		if op == OpFshl {
			x, y = lz.shiftConstL(OpShl, args[0], n, bitsT), lz.shiftConstL(OpShr, args[1], uint64(bitsT)-n, bitsT)
		} else {
			x, y = lz.shiftConstL(OpShr, args[1], n, bitsT), lz.shiftConstL(OpShl, args[0], uint64(bitsT)-n, bitsT)
		}
		lz.set(in, lz.mapL(OpOr, x, y))
	case OpEq:
		lz.set(in, limbs{lz.eqL(args[0], args[1])})
	case OpNe:
		lz.set(in, limbs{lz.b.Op(OpNot, Bool, lz.eqL(args[0], args[1]))})
	case OpUlt:
		lz.set(in, limbs{lz.ultL(args[0], args[1])})
	case OpUle:
		lz.set(in, limbs{lz.b.Op(OpNot, Bool, lz.ultL(args[1], args[0]))})
	case OpZext:
		lz.zext(in, args[0], t)
	case OpTrunc:
		lz.trunc(in, args[0], t)
	case OpSelect:
		lz.set(in, lz.selectL(args[0][0], args[1], args[2]))
	case OpAddC, OpSubB:
		lz.carryChain(in, args)
	case OpMulW:
		// The full product of k-limb operands is the low 2k limbs of the
		// product of their zero extensions to 2k limbs.
		k := len(args[0])
		x := append(append(limbs{}, args[0]...), lz.zeros(lz.wt, k)...)
		y := append(append(limbs{}, args[1]...), lz.zeros(lz.wt, k)...)
		p := lz.mulL(x, y)
		lz.limbs[in.Results[0]] = p[:k]
		lz.limbs[in.Results[1]] = p[k:]
	case OpClmulLo, OpClmulHi, OpAESEnc, OpAESEncLast, OpTrace, OpYield, OpReturn, OpCall:
		in.Args = lz.groups(in.Args)
		var rs limbs
		for _, r := range in.Results {
			rs = append(rs, lz.fresh(r)...)
		}
		in.Results = rs
		lz.b.Emit(in)
	case OpLoad, OpStore:
		lz.memory(in, args)
	case OpLen:
		rs := lz.fresh(in.Results[0])
		in.Results = rs
		lz.b.Emit(in)
	case OpLoadLE, OpLoadBE, OpStoreLE, OpStoreBE:
		lz.byteOrder(in, args)
	case OpCheck:
		lz.keep(in)
	default:
		panic(fmt.Sprintf("BUG: legalize: cannot legalize %s", op))
	}
}

// fits reports whether in needs no change: its values fit W and it has no
// index operands that are limb groups at this W.
func (lz *legalizer) fits(in *Instr) bool {
	switch in.Op {
	case OpLoad, OpStore, OpLen, OpLoadLE, OpLoadBE, OpStoreLE, OpStoreBE:
		if lz.n(IndexType) > 1 || (in.Arr != nil && in.Arr.Per > 1) {
			return false
		}
		if in.Op >= OpLoadLE && int(in.Aux) > lz.w {
			return false
		}
	case OpClmulLo, OpClmulHi, OpAESEnc, OpAESEncLast:
		return lz.n(U64) == 1
	}
	for _, a := range in.Args {
		if lz.n(a.Type) > 1 {
			return false
		}
	}
	for _, r := range in.Results {
		if lz.n(r.Type) > 1 {
			return false
		}
	}
	return true
}

func (lz *legalizer) shift(in *Instr, args []limbs) {
	x := in.Args[0]
	bitsT := x.Type.Bits()
	amt := args[1]
	amtType := in.Args[1].Type
	if lz.n(x.Type) == 1 {
		// Only the amount is wide: its first limb decides, and a shift by
		// 2^W or more (which the first limb cannot see) gives zero.
		r := lz.b.Op(in.Op, x.Type, args[0][0], amt[0])
		if in.Op == OpShl || in.Op == OpShr {
			r = lz.b.Op(OpSelect, x.Type, lz.bigAmount(amt, amtType, bitsT), lz.b.Const(x.Type, 0), r)
		}
		lz.set(in, limbs{r})
		return
	}
	if s, ok := constGroup(amt, lz.w); ok {
		if lz.n(amtType) == 1 {
			s, _ = ConstOf(amt[0])
		}
		if (in.Op == OpShl || in.Op == OpShr) && s >= uint64(bitsT) {
			lz.set(in, lz.zeros(lz.wt, len(args[0])))
			return
		}
		lz.set(in, lz.shiftConstL(in.Op, args[0], s, bitsT))
		return
	}
	lz.set(in, lz.shiftVarL(in.Op, args[0], amt, amtType, bitsT))
}

func (lz *legalizer) zext(in *Instr, a limbs, t Type) {
	k := lz.n(t)
	out := make(limbs, 0, k)
	if len(a) == 1 && a[0].Type != lz.wt {
		out = append(out, lz.b.Op(OpZext, lz.wt, a[0]))
	} else {
		out = append(out, a...)
	}
	out = append(out, lz.zeros(lz.wt, k-len(out))...)
	lz.set(in, out)
}

func (lz *legalizer) trunc(in *Instr, a limbs, t Type) {
	k := lz.n(t)
	if k > 1 {
		lz.set(in, append(limbs{}, a[:k]...))
		return
	}
	if t == a[0].Type {
		lz.set(in, limbs{a[0]})
		return
	}
	lz.set(in, limbs{lz.b.Op(OpTrunc, t, a[0])})
}

// carryChain legalizes a wide addc/subb (not made by lowering, but legal IR).
func (lz *legalizer) carryChain(in *Instr, args []limbs) {
	c := args[2][0]
	out := make(limbs, len(args[0]))
	for i := range out {
		out[i], c = lz.b.Pair(in.Op, args[0][i], args[1][i], c)
	}
	lz.limbs[in.Results[0]] = out
	lz.limbs[in.Results[1]] = limbs{c}
}

// elemIndex returns the limb-array index of limb j of element idx.
func (lz *legalizer) elemIndex(idx limbs, per, j int) limbs {
	if per == 1 {
		return idx
	}
	base := lz.shiftConstL(OpShl, idx, uint64(bits.TrailingZeros(uint(per))), IndexType.Bits())
	if j == 0 {
		return base
	}
	out := append(limbs{}, base...)
	out[0] = lz.b.Bin(OpOr, base[0], lz.b.Const(base[0].Type, uint64(j)))
	return out
}

func (lz *legalizer) memory(in *Instr, args []limbs) {
	a := in.Arr
	per := a.Per
	if in.Op == OpLoad {
		out := make(limbs, per)
		for j := range out {
			ld := lz.f.newInstr(OpLoad, []Type{a.Elem}, lz.elemIndex(args[0], per, j)...)
			ld.Arr, ld.Pos = a, in.Pos
			lz.b.Emit(ld)
			out[j] = ld.Results[0]
		}
		lz.set(in, out)
		return
	}
	val := args[1]
	for j := 0; j < per; j++ {
		st := &Instr{Op: OpStore, Arr: a, Pos: in.Pos, Args: append(append(limbs{}, lz.elemIndex(args[0], per, j)...), val[j])}
		lz.b.Emit(st)
	}
}

// byteOrder splits a byte-order access wider than W into W-bit accesses
// (byte loads/stores at W=8) at the right offsets for the byte order.
func (lz *legalizer) byteOrder(in *Instr, args []limbs) {
	nbits := int(in.Aux)
	store := in.Op == OpStoreLE || in.Op == OpStoreBE
	big := in.Op == OpLoadBE || in.Op == OpStoreBE
	off := args[0]
	if nbits <= lz.w {
		in.Args = append(limbs{}, off...)
		if store {
			in.Args = append(in.Args, args[1][0])
		} else {
			lz.limbs[in.Results[0]] = limbs{in.Results[0]}
		}
		lz.b.Emit(in)
		return
	}
	k := nbits / lz.w
	step := uint64(lz.w / 8)
	var out limbs
	var val limbs
	if store {
		val = args[1]
	}
	for j := 0; j < k; j++ {
		pos := uint64(j)
		if big {
			pos = uint64(k - 1 - j)
		}
		o := off
		if pos > 0 {
			o = lz.addL(off, lz.constL(IndexType, pos*step))
		}
		var acc *Instr
		switch {
		case lz.w == 8 && store:
			acc = &Instr{Op: OpStore, Args: append(append(limbs{}, o...), val[j])}
		case lz.w == 8:
			acc = lz.f.newInstr(OpLoad, []Type{U8}, o...)
		case store:
			acc = &Instr{Op: in.Op, Aux: uint64(lz.w), Args: append(append(limbs{}, o...), val[j])}
		default:
			acc = lz.f.newInstr(in.Op, []Type{lz.wt}, o...)
			acc.Aux = uint64(lz.w)
		}
		acc.Arr, acc.Pos = in.Arr, in.Pos
		lz.b.Emit(acc)
		if !store {
			out = append(out, acc.Results[0])
		}
	}
	if !store {
		lz.set(in, out)
	}
}

// structured legalizes an if or a for: its results, block parameters and
// the yields of its blocks become limb groups.
func (lz *legalizer) structured(in *Instr) {
	var newArgs limbs
	if in.Op == OpIf {
		newArgs = limbs{lz.get(in.Args[0])[0]}
	} else {
		body := in.Blocks[0]
		k := len(in.Results)
		n := len(body.Params) - k
		if n != 1 {
			panic("BUG: legalize: loop index is already split")
		}
		lo, hi := lz.get(in.Args[0]), lz.get(in.Args[1])
		idx := body.Params[0]
		var params limbs
		c1, ok1 := constGroup(lo, lz.w)
		c2, ok2 := constGroup(hi, lz.w)
		if len(lo) > 1 && ok1 && ok2 && c1 <= lz.wt.Mask() && c2 <= lz.wt.Mask() {
			// Every index value fits one limb: count with a W-bit index.
			p := lz.f.NewValue(lz.wt)
			params = limbs{p}
			in.Type = lz.wt
			lz.limbs[idx] = append(limbs{p}, lz.zeros(lz.wt, len(lo)-1)...)
			newArgs = limbs{lz.b.Const(lz.wt, c1), lz.b.Const(lz.wt, c2)}
		} else {
			params = lz.fresh(idx)
			newArgs = append(append(limbs{}, lo...), hi...)
		}
		for _, p := range body.Params[n:] {
			params = append(params, lz.fresh(p)...)
		}
		body.Params = params
		newArgs = append(newArgs, lz.groups(in.Args[2*n:])...)
	}
	saved := in.Results
	var rs limbs
	for _, r := range saved {
		rs = append(rs, lz.fresh(r)...)
	}
	for _, r := range rs {
		r.Def = in
	}
	for _, b := range in.Blocks {
		lz.block(b)
	}
	in.Args, in.Results = newArgs, rs
	lz.b.Emit(in)
}
