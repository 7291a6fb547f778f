package mos6502

import (
	"fmt"

	"github.com/lowent/lowentc/ir"
)

// instr emits the interpreter ops of one IR instruction (size mode).
func (g *wgen) instr(in *ir.Instr) {
	if g.w.err != nil {
		return // the module is refused: nothing more is emitted
	}
	var r *ir.Value
	n := 0
	if len(in.Results) > 0 {
		r = in.Results[0]
		n = typeBytes(r.Type)
	}
	args := in.Args
	switch in.Op {
	case ir.OpConst, ir.OpTrace, ir.OpYield:
		// Constants live in the pool; a yield's copies belong to its if or for.
	case ir.OpLen:
		if !in.Arr.IsSlice() {
			g.loc[r] = g.w.konst(uint64(in.Arr.Len), n)
			return
		}
		g.op("zext", wb(n), ww(g.val(r)), wzp(g.slen[in.Arr]), wb(2))
	case ir.OpCopy, ir.OpTrunc:
		g.mov(n, g.val(r), g.val(args[0]))
	case ir.OpZext:
		if na := typeBytes(args[0].Type); na < n {
			g.op("zext", wb(n), ww(g.val(r)), ww(g.val(args[0])), wb(na))
		} else {
			g.mov(n, g.val(r), g.val(args[0]))
		}
	case ir.OpMul:
		// A constant multiplier may be branched on (mulk); a product of
		// two values takes the branch-free mul.
		a, b := args[0], args[1]
		if _, ok := g.constOf(b); ok {
			a, b = b, a
		}
		name := "mul"
		if _, ok := g.constOf(a); ok {
			name = "mulk"
		}
		g.op(name, wb(n), ww(g.val(r)), ww(g.val(a)), ww(g.val(b)))
	case ir.OpMulW:
		// Both halves of the double-width product in one op (mulw).
		k := typeBytes(args[0].Type)
		if k > 8 {
			g.unsupported(in)
			return
		}
		g.op("mulw", wb(k), ww(g.dest(in.Results[0])), ww(g.dest(in.Results[1])), ww(g.val(args[0])), ww(g.val(args[1])))
	case ir.OpXor, ir.OpAnd, ir.OpOr, ir.OpAdd, ir.OpSub, ir.OpDivU, ir.OpRemU:
		name := map[ir.Op]string{ir.OpXor: "xor", ir.OpAnd: "and", ir.OpOr: "or", ir.OpAdd: "add",
			ir.OpSub: "sub", ir.OpDivU: "divu", ir.OpRemU: "remu"}[in.Op]
		g.op(name, wb(n), ww(g.val(r)), ww(g.val(args[0])), ww(g.val(args[1])))
	case ir.OpNot:
		ones := r.Type.Mask()
		g.op("xor", wb(n), ww(g.val(r)), ww(g.val(args[0])), ww(g.w.konst(ones, n)))
	case ir.OpNeg:
		g.op("sub", wb(n), ww(g.val(r)), ww(g.w.konst(0, n)), ww(g.val(args[0])))
	case ir.OpShl, ir.OpShr, ir.OpRotl, ir.OpRotr:
		g.shift(in)
	case ir.OpEq, ir.OpNe, ir.OpUlt, ir.OpUle:
		name := map[ir.Op]string{ir.OpEq: "eq", ir.OpNe: "ne", ir.OpUlt: "ult", ir.OpUle: "ule"}[in.Op]
		g.op(name, wb(typeBytes(args[0].Type)), ww(g.val(r)), ww(g.val(args[0])), ww(g.val(args[1])))
	case ir.OpSelect:
		g.op("sel", wb(n), ww(g.val(r)), ww(g.val(args[1])), ww(g.val(args[2])), ww(g.val(args[0])))
	case ir.OpLoad, ir.OpLoadLE, ir.OpLoadBE:
		g.mem(in, r, args[0])
	case ir.OpStore, ir.OpStoreLE, ir.OpStoreBE:
		g.mem(in, args[1], args[0])
	case ir.OpClmulLo, ir.OpClmulHi:
		g.w.need["clmul"] = true
		if g.lastClmul == nil || g.lastClmul[0] != args[0] || g.lastClmul[1] != args[1] {
			g.mov(8, "ha", g.val(args[0]))
			g.mov(8, "hb", g.val(args[1]))
			g.op("call", ww("clmul"))
			g.lastClmul = []*ir.Value{args[0], args[1]}
		}
		src := "hp"
		if in.Op == ir.OpClmulHi {
			src = "hp+8"
		}
		g.mov(8, g.val(r), src)
	case ir.OpAESEnc, ir.OpAESEncLast:
		g.w.need["aes"] = true
		for i, d := range []string{"as", "as+8", "ak", "ak+8"} {
			g.mov(8, d, g.val(args[i]))
		}
		if in.Op == ir.OpAESEnc {
			g.op("call", ww("aesenc"))
		} else {
			g.op("call", ww("aeslast"))
		}
		g.lastClmul = nil
		g.mov(8, g.val(in.Results[0]), "as")
		g.mov(8, g.val(in.Results[1]), "as+8")
	case ir.OpCheck:
		if c, ok := g.constOf(args[0]); ok && c != 0 {
			return
		}
		g.op("chk", ww(g.val(args[0])), wb(g.w.trapID(in.Check)))
	case ir.OpCall:
		g.call(in)
	case ir.OpIf:
		g.ifOp(in)
	case ir.OpFor:
		g.forOp(in)
	case ir.OpReturn:
		for i, a := range args {
			g.mov(typeBytes(g.f.Results[i]), g.res[i], g.val(a))
		}
		g.op("ret")
	default:
		g.unsupported(in)
	}
}

// shift emits shl, shr, rotl and rotr. By a constant: whole bytes moved
// by one op, then at most 4 single-bit steps (rotates go the short way);
// by a run-time amount: one op (vsl vsr vrl vrr).
func (g *wgen) shift(in *ir.Instr) {
	x, r := in.Args[0], in.Results[0]
	k64, ok := g.constOf(in.Args[1])
	n := typeBytes(r.Type)
	if !ok {
		// A run-time amount: copy, then that many 1-bit steps.
		name := map[ir.Op]string{ir.OpShl: "vsl", ir.OpShr: "vsr", ir.OpRotl: "vrl", ir.OpRotr: "vrr"}[in.Op]
		amt := in.Args[1]
		g.op(name, wb(n), ww(g.val(r)), ww(g.val(x)), ww(g.val(amt)), wb(typeBytes(amt.Type)))
		return
	}
	bits := uint64(r.Type.Bits())
	d, a := g.val(r), g.val(x)
	byteOp := func(name string, kb int) {
		if kb%n == 0 {
			g.mov(n, d, a)
		} else {
			g.op(name, wb(n), ww(d), ww(a), wb(kb%n))
		}
	}
	bitOp := func(name string, kr int) {
		if kr > 0 {
			g.op(name, wb(n), ww(d), wb(kr))
		}
	}
	switch in.Op {
	case ir.OpShl, ir.OpShr:
		if k64 >= bits {
			g.mov(n, d, g.w.konst(0, n))
			return
		}
		k := int(k64)
		if in.Op == ir.OpShl {
			byteOp("sbl", k/8)
			bitOp("bsl", k%8)
		} else {
			byteOp("sbr", k/8)
			bitOp("bsr", k%8)
		}
	default:
		k := int(k64 % bits)
		if in.Op == ir.OpRotr {
			k = int((bits - uint64(k)) % bits)
		}
		if k%8 <= 4 {
			byteOp("rby", k/8)
			bitOp("brl", k%8)
		} else {
			byteOp("rby", k/8+1)
			bitOp("brr", 8-k%8)
		}
	}
}

// arrBase returns the base operand and the sk flag of arr: a label, or
// the address of its zero-page pointer with bit 7 set.
func (g *wgen) arrBase(arr *ir.Array) (wf, int) {
	info, ok := g.arrs[arr]
	if !ok {
		panic(fmt.Sprintf("BUG: mos6502: %s: array %s has no storage", g.f.Name, arr.Name))
	}
	if info.label != "" {
		return ww(info.label), 0
	}
	return wzp(info.ptr), 0x80
}

// mem emits a load or store of value v at index idx.
func (g *wgen) mem(in *ir.Instr, v, idx *ir.Value) {
	esz := elemBytes(in.Arr)
	n := esz
	name := map[ir.Op]string{ir.OpLoad: "ld", ir.OpLoadLE: "ld", ir.OpLoadBE: "ldr",
		ir.OpStore: "st", ir.OpStoreLE: "st", ir.OpStoreBE: "str"}[in.Op]
	if in.Op != ir.OpLoad && in.Op != ir.OpStore {
		if esz != 1 {
			g.unsupported(in)
			return
		}
		n = int(in.Aux) / 8
		if n == 1 {
			name = name[:2]
		}
	}
	base, sk := g.arrBase(in.Arr)
	g.op(name, wb(n), wb(sk|g.log2(esz)), base, ww(g.val(idx)), ww(g.val(v)))
}

// call copies the arguments into the callee's frame (array regions as
// pointers), calls it and copies its results out.
func (g *wgen) call(in *ir.Instr) {
	fr := g.w.frames[in.Callee]
	ns := len(in.Args) - 2*len(in.Arrs)
	if ns != len(fr.scalars) || len(in.Arrs) != len(fr.arrays) || len(in.Results) != len(fr.results) {
		panic(fmt.Sprintf("BUG: mos6502: call of %s does not match its frame", in.Callee.Name))
	}
	for i := 0; i < ns; i++ {
		g.mov(typeBytes(in.Args[i].Type), fr.scalars[i], g.val(in.Args[i]))
	}
	for i, arr := range in.Arrs {
		off, ln := in.Args[ns+2*i], in.Args[ns+2*i+1]
		base, sk := g.arrBase(arr)
		g.op("ptr", wb(fr.arrays[i].ptr), wb(sk|g.log2(elemBytes(arr))), base, ww(g.val(off)))
		if l := fr.arrays[i].len; l != 0 {
			g.mov(2, fmt.Sprintf("$%04x", l), g.val(ln))
		}
	}
	g.op("call", ww(fr.label))
	g.lastClmul = nil
	for i, r := range in.Results {
		if g.lv.uses[r] > 0 {
			g.mov(typeBytes(r.Type), g.val(r), fr.results[i])
		}
	}
}

// ifOp emits `if c {..} else {..}`, each branch copying what it yields
// into the results.
func (g *wgen) ifOp(in *ir.Instr) {
	yield := func(blk *ir.Block) {
		t := blk.Term()
		for i, r := range in.Results {
			g.mov(typeBytes(r.Type), g.val(r), g.val(t.Args[i]))
		}
	}
	if c, ok := g.constOf(in.Args[0]); ok {
		blk := in.Blocks[1]
		if c != 0 {
			blk = in.Blocks[0]
		}
		g.block(blk)
		yield(blk)
		return
	}
	le, lx := g.newLabel(), g.newLabel()
	g.op("jz", ww(g.val(in.Args[0])), wtarget(le))
	g.block(in.Blocks[0])
	yield(in.Blocks[0])
	g.op("jmp", wtarget(lx))
	g.label(le)
	g.block(in.Blocks[1])
	yield(in.Blocks[1])
	g.label(lx)
}

// forOp emits a counted loop: the test at the top, the body, the
// loop-carried values copied from what the body yields, the index
// incremented.
func (g *wgen) forOp(in *ir.Instr) {
	body := in.Blocks[0]
	k := len(in.Results)
	nidx := len(body.Params) - k
	if nidx != 1 {
		g.unsupported(in)
		return
	}
	lo, hi, inits := in.Args[0], in.Args[1], in.Args[2:]
	idx, iters := body.Params[0], body.Params[1:]
	ni := typeBytes(idx.Type)
	g.mov(ni, g.val(idx), g.val(lo))
	for i, v := range inits {
		g.mov(typeBytes(v.Type), g.val(iters[i]), g.val(v))
	}
	top, end := g.newLabel(), g.newLabel()
	g.label(top)
	g.op("jge", wb(ni), wtarget(end), ww(g.val(idx)), ww(g.val(hi)))
	g.block(body)
	g.parallelCopy(iters, body.Term().Args)
	g.op("inc", wb(ni), ww(g.val(idx)))
	g.op("jmp", wtarget(top))
	g.label(end)
}

// parallelCopy copies srcs into dsts as if all were read before any is
// written: a source that is another pair's destination goes through the
// temporary area yt first.
func (g *wgen) parallelCopy(dsts, srcs []*ir.Value) {
	isDst := map[string]bool{}
	for i, d := range dsts {
		if g.val(srcs[i]) != g.val(d) {
			isDst[g.val(d)] = true
		}
	}
	tmp := map[*ir.Value]string{}
	nt := 0
	for i, s := range srcs {
		if g.val(s) == g.val(dsts[i]) {
			continue
		}
		if _, done := tmp[s]; !done && isDst[g.val(s)] {
			t := fmt.Sprintf("yt+%d", nt)
			nt += typeBytes(s.Type)
			g.mov(typeBytes(s.Type), t, g.val(s))
			tmp[s] = t
		}
	}
	g.w.ytmp = max(g.w.ytmp, nt)
	for i, s := range srcs {
		if g.val(s) == g.val(dsts[i]) {
			continue
		}
		src := g.val(s)
		if t, ok := tmp[s]; ok {
			src = t
		}
		g.mov(typeBytes(s.Type), g.val(dsts[i]), src)
	}
}
