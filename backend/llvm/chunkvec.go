package llvm

import (
	"fmt"
	"strconv"

	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/ir"
)

// Chunk loops across vector lanes.
//
// A loop over the chunks of a message (`for s, d in chunks(src, dst, 64)`)
// whose body is straight-line u32 arithmetic on 32-bit little-endian words
// of the chunk, such as ChaCha20's, is emitted with L iterations at a time,
// one per lane of <L x i32> vectors: every u32 value of the body becomes a
// vector whose lane l is its value in iteration j+l. The words come in and
// go out as whole vectors: lane l's chunk is loaded as W/L vectors of L
// consecutive words, each group of L such vectors transposed with log2(L)
// stages of two-source shuffles so that vector w holds word w of every
// lane, and the results transposed back the same way before L contiguous
// stores. LLVM's own loop vectorizer finds these loops too, but moves the
// words with gathers and scatters of single lanes, which cost about as
// much as the rounds themselves.
//
// The iterations that do not fill L lanes, and the whole loop when the
// arrays overlap in a way that could make a store reach a later iteration's
// load (the vector step loads L chunks before it stores any), run in the
// ordinary loop after it.

// ChunkVectorizer is implemented by a Selector whose variant runs chunk
// loops L lanes wide; ChunkLanes returns L (4, 8 or 16), or 0 for none.
type ChunkVectorizer interface {
	ChunkLanes() int
}

// ChunkRotator is implemented by a ChunkVectorizer whose variant rotates
// 64-bit lanes outside the shuffle unit (AVX-512's VPROLQ runs on another
// port than its shuffles); RotatesPairs reports whether it does. The
// first stage of a transpose then takes rotates and blends instead of
// shuffles, which moves a quarter of the transpose off the shuffle port.
type ChunkRotator interface {
	RotatesPairs() bool
}

// chunkLoop is what the analysis found of a loop it can vectorize.
type chunkLoop struct {
	stride int64             // bytes per iteration of every access
	loads  []*ir.Array       // the arrays read, each read whole, in the body's order
	stores []*ir.Array       // the arrays written, each written whole, in the body's order
	step   map[int]*ir.Value // loop-carried value i: its increment per iteration (absent: unchanged)
}

// affine is an index as c * idx + off.
type affine struct {
	c, off int64
	ok     bool
}

// analyzeChunkLoop reports whether for loop in can be vectorized L lanes
// wide, and how.
func analyzeChunkLoop(in *ir.Instr, L int) (*chunkLoop, bool) {
	body := in.Blocks[0]
	if len(body.Params) < 1 || body.Params[0].Type != ir.U32 {
		return nil, false
	}
	idx := body.Params[0]
	inBody := map[*ir.Value]bool{}
	for _, p := range body.Params {
		inBody[p] = true
		if p.Type != ir.U32 {
			return nil, false
		}
	}
	aff := map[*ir.Value]affine{idx: {c: 1, ok: true}}
	affOf := func(v *ir.Value) affine {
		if a, ok := aff[v]; ok {
			return a
		}
		if c, ok := constOf(v); ok && !inBody[v] {
			return affine{off: int64(c), ok: true}
		}
		return affine{}
	}
	cl := &chunkLoop{step: map[int]*ir.Value{}}
	loadWords := map[*ir.Array]map[int64]bool{}
	storeWords := map[*ir.Array]map[int64]bool{}
	access := func(x *ir.Instr, words map[*ir.Array]map[int64]bool) bool {
		if x.Aux != 32 || x.Arr.Elem != ir.U8 {
			return false
		}
		a := affOf(x.Args[0])
		if !a.ok || a.c <= 0 || a.off < 0 || a.off%4 != 0 || a.off+4 > a.c {
			return false
		}
		if cl.stride == 0 {
			cl.stride = a.c
		}
		if a.c != cl.stride {
			return false
		}
		if words[x.Arr] == nil {
			words[x.Arr] = map[int64]bool{}
			if x.Op == ir.OpLoadLE {
				cl.loads = append(cl.loads, x.Arr)
			} else {
				cl.stores = append(cl.stores, x.Arr)
			}
		}
		if words[x.Arr][a.off] {
			return false
		}
		words[x.Arr][a.off] = true
		return true
	}
	var term *ir.Instr
	for _, x := range body.Instrs {
		for _, r := range x.Results {
			inBody[r] = true
		}
		switch x.Op {
		case ir.OpYield:
			term = x
		case ir.OpConst:
			aff[x.Results[0]] = affine{off: int64(x.Aux), ok: true}
			continue
		case ir.OpCopy:
			if a := affOf(x.Args[0]); a.ok {
				aff[x.Results[0]] = a
			}
		case ir.OpAdd:
			if a, b := affOf(x.Args[0]), affOf(x.Args[1]); a.ok && b.ok {
				aff[x.Results[0]] = affine{c: a.c + b.c, off: a.off + b.off, ok: true}
			}
		case ir.OpShl:
			k, ok := constOf(x.Args[1])
			if !ok || k >= 32 {
				return nil, false
			}
			if a := affOf(x.Args[0]); a.ok && k < 16 {
				aff[x.Results[0]] = affine{c: a.c << k, off: a.off << k, ok: true}
			}
		case ir.OpShr:
			if k, ok := constOf(x.Args[1]); !ok || k >= 32 {
				return nil, false
			}
		case ir.OpSub, ir.OpXor, ir.OpAnd, ir.OpOr, ir.OpNot, ir.OpRotl, ir.OpRotr:
		case ir.OpLoadLE:
			if !access(x, loadWords) {
				return nil, false
			}
			continue
		case ir.OpStoreLE:
			if x.Args[1].Type != ir.U32 || !access(x, storeWords) {
				return nil, false
			}
			continue
		default:
			return nil, false
		}
		if x.Op != ir.OpYield && (len(x.Results) != 1 || x.Results[0].Type != ir.U32) {
			return nil, false
		}
		for _, a := range x.Args {
			if a.Type != ir.U32 {
				return nil, false
			}
		}
	}
	if term == nil || cl.stride == 0 || cl.stride%(4*int64(L)) != 0 || len(storeWords) == 0 {
		return nil, false
	}
	// Each array is read (written) whole, every word of every chunk once,
	// and none is both read and written.
	for a, ws := range loadWords {
		if int64(len(ws))*4 != cl.stride || storeWords[a] != nil {
			return nil, false
		}
	}
	for _, ws := range storeWords {
		if int64(len(ws))*4 != cl.stride {
			return nil, false
		}
	}
	// The loop-carried values: unchanged, or incremented by a value
	// defined before the loop.
	for i, y := range term.Args {
		p := body.Params[1+i]
		if y == p {
			continue
		}
		d := y.Def
		if d == nil || d.Op != ir.OpAdd {
			return nil, false
		}
		invariant := func(v *ir.Value) bool {
			_, isConst := constOf(v)
			return isConst || !inBody[v]
		}
		switch {
		case d.Args[0] == p && invariant(d.Args[1]):
			cl.step[i] = d.Args[1]
		case d.Args[1] == p && invariant(d.Args[0]):
			cl.step[i] = d.Args[0]
		default:
			return nil, false
		}
	}
	return cl, true
}

// vecChunkLoops emits the vector loops before for loop in (when the
// variant has lanes and the loop qualifies): L lanes wide, then L/2 and
// so on down to 4 for the iterations each leaves, and the last one to
// three of those, when there are two or three, as one more 4-lane step
// on copies (vecChunkLoop's partial). It returns the index and loop-carried values the ordinary
// loop continues from, which are lo and inits when it emitted nothing.
func (g *Func) vecChunkLoops(in *ir.Instr, lo value.Value, inits []value.Value) (value.Value, []value.Value) {
	cv, isCV := g.sel.(ChunkVectorizer)
	if !isCV {
		return lo, inits
	}
	for L := cv.ChunkLanes(); L >= 4; L /= 2 {
		if j, next, ok := g.vecChunkLoop(in, L, lo, inits, L == 4); ok {
			lo, inits = j, next
		}
	}
	return lo, inits
}

// vecChunkLoop emits the vector loop L lanes wide for loop in from index
// loV and loop-carried values init, and returns the index and values that
// follow it; ok is false when it emitted nothing. With partial, the
// iterations the loop leaves (fewer than L, more than one) run as one
// more step of L lanes on copies: each array read has its remaining chunks copied into
// a zeroed buffer of L chunks, the step reads those and writes buffers of
// its own, and the chunks that exist are copied out; the other lanes
// compute on zeros and are dropped (the body is arithmetic only).
func (g *Func) vecChunkLoop(in *ir.Instr, L int, loV value.Value, init []value.Value, partial bool) (lo value.Value, inits []value.Value, ok bool) {
	cl, ok := analyzeChunkLoop(in, L)
	if !ok {
		return nil, nil, false
	}
	cr, isCR := g.sel.(ChunkRotator)
	rot := isCR && cr.RotatesPairs()
	body := in.Blocks[0]
	i32 := func(x int64) *constant.Int { return constant.NewInt(types.I32, x) }

	hiV := g.Val(in.Args[1])
	pre := g.Cur
	// The arrays must not overlap so that a store of the vector step could
	// reach a load of a later chunk: a written array starts at or before
	// each read one, or after the part of it the loop reads.
	aliasOK := value.Value(constant.True)
	for _, s := range cl.stores {
		for _, l := range cl.loads {
			sp := pre.NewPtrToInt(g.arr(s).ptr, types.I64)
			lp := pre.NewPtrToInt(g.arr(l).ptr, types.I64)
			end := pre.NewAdd(lp, pre.NewMul(pre.NewZExt(hiV, types.I64), constant.NewInt(types.I64, cl.stride)))
			okPair := pre.NewOr(pre.NewICmp(enum.IPredULE, sp, lp), pre.NewICmp(enum.IPredUGE, sp, end))
			aliasOK = pre.NewAnd(aliasOK, okPair)
		}
	}
	k := len(in.Results)
	header, bodyB, exit := g.NewBlock(), g.NewBlock(), g.NewBlock()
	pre.NewBr(header)
	j := header.NewPhi(llir.NewIncoming(loV, pre))
	phis := make([]*llir.InstPhi, k)
	for i := 0; i < k; i++ {
		phis[i] = header.NewPhi(llir.NewIncoming(init[i], pre))
	}
	room := header.NewAnd(header.NewICmp(enum.IPredULT, j, hiV),
		header.NewICmp(enum.IPredUGE, header.NewSub(hiV, j), i32(int64(L))))
	header.NewCondBr(header.NewAnd(aliasOK, room), bodyB, exit)

	// A step is a constant or a value defined before the loop.
	stepOf := func(i int) value.Value {
		if c, ok := constOf(cl.step[i]); ok {
			return i32(int64(uint32(c)))
		}
		return g.Val(cl.step[i])
	}
	carried := make([]value.Value, k)
	for i := range phis {
		carried[i] = phis[i]
	}
	term := g.chunkStep(in, cl, L, rot, bodyB, j, carried, stepOf)
	b := bodyB
	j.Incs = append(j.Incs, llir.NewIncoming(b.NewAdd(j, i32(int64(L))), b))
	for i, y := range term.Args {
		next := value.Value(phis[i])
		if y != body.Params[1+i] {
			next = b.NewAdd(phis[i], b.NewMul(stepOf(i), i32(int64(L))))
		}
		phis[i].Incs = append(phis[i].Incs, llir.NewIncoming(next, b))
	}
	b.NewBr(header)
	g.Cur = exit
	if !partial {
		return j, carried, true
	}
	// The one partial step.
	rem := exit.NewSub(hiV, j)
	part, done := g.NewBlock(), g.NewBlock()
	// (One iteration left runs faster alone than as a step of L.)
	some := exit.NewAnd(exit.NewICmp(enum.IPredULT, j, hiV), exit.NewICmp(enum.IPredUGT, rem, i32(1)))
	exit.NewCondBr(exit.NewAnd(aliasOK, some), part, done)
	size := L * int(cl.stride)
	entry := g.Fn.Blocks[0]
	at := types.NewArray(uint64(size), types.I8)
	n := part.NewMul(part.NewZExt(rem, g.IntPtr), constant.NewInt(g.IntPtr, cl.stride))
	at0 := part.NewMul(j, i32(cl.stride))
	i1 := types.I1
	memcpy := g.Intrinsic(fmt.Sprintf("llvm.memcpy.p0i8.p0i8.i%d", g.IntPtr.BitSize), types.Void, types.I8Ptr, types.I8Ptr, g.IntPtr, i1)
	memset := g.Intrinsic(fmt.Sprintf("llvm.memset.p0i8.i%d", g.IntPtr.BitSize), types.Void, types.I8Ptr, types.I8, g.IntPtr, i1)
	saved := map[*ir.Array]arrInfo{}
	tmp := func(a *ir.Array) value.Value {
		al := entry.NewAlloca(at)
		al.Align = 16
		zero := constant.NewInt(g.IntPtr, 0)
		p := entry.NewGetElementPtr(at, al, zero, zero)
		saved[a] = g.arr(a)
		g.arrs[a] = arrInfo{ptr: p}
		return p
	}
	for _, a := range cl.loads {
		real := g.elemIn(part, a, at0)
		p := tmp(a)
		part.NewCall(memset, p, constant.NewInt(types.I8, 0), constant.NewInt(g.IntPtr, int64(size)), constant.False)
		part.NewCall(memcpy, p, real, n, constant.False)
	}
	outs := make([]value.Value, len(cl.stores))
	for i, a := range cl.stores {
		outs[i] = tmp(a)
	}
	g.chunkStep(in, cl, L, rot, part, i32(0), carried, stepOf)
	for a, info := range saved {
		g.arrs[a] = info
	}
	for i, a := range cl.stores {
		part.NewCall(memcpy, g.elemIn(part, a, at0), outs[i], n, constant.False)
	}
	after := make([]value.Value, k)
	for i, y := range term.Args {
		after[i] = phis[i]
		if y != body.Params[1+i] {
			after[i] = part.NewAdd(phis[i], part.NewMul(stepOf(i), rem))
		}
	}
	part.NewBr(done)
	g.Cur = done
	jOut := done.NewPhi(llir.NewIncoming(j, exit), llir.NewIncoming(hiV, part))
	for i := range carried {
		carried[i] = done.NewPhi(llir.NewIncoming(phis[i], exit), llir.NewIncoming(after[i], part))
	}
	return jOut, carried, true
}

// chunkStep emits one step of chunk loop in, L lanes wide, into b: lane l
// is iteration j + l, the loop-carried values at iteration j are carried.
// It returns the body's yield.
func (g *Func) chunkStep(in *ir.Instr, cl *chunkLoop, L int, rot bool, b *llir.Block, j value.Value, carried []value.Value, stepOf func(int) value.Value) *ir.Instr {
	body := in.Blocks[0]
	k := len(in.Results)
	vt := types.NewVector(uint64(L), types.I32)
	i32 := func(x int64) *constant.Int { return constant.NewInt(types.I32, x) }
	splatConst := func(x int64) value.Value {
		elems := make([]constant.Constant, L)
		for i := range elems {
			elems[i] = i32(x)
		}
		return constant.NewVector(vt, elems...)
	}
	iotaElems := make([]constant.Constant, L)
	for i := range iotaElems {
		iotaElems[i] = i32(int64(i))
	}
	iota := constant.NewVector(vt, iotaElems...)
	splat := func(b *llir.Block, x value.Value) value.Value {
		if c, ok := x.(*constant.Int); ok {
			return splatConst(c.X.Int64())
		}
		ins := b.NewInsertElement(constant.NewUndef(vt), x, i32(0))
		return b.NewShuffleVector(ins, constant.NewUndef(vt), constant.NewZeroInitializer(vt))
	}
	vals := map[*ir.Value]value.Value{}
	vec := func(v *ir.Value) value.Value {
		if x, ok := vals[v]; ok {
			return x
		}
		x := splat(b, g.Val(v))
		vals[v] = x
		return x
	}
	vals[body.Params[0]] = b.NewAdd(splat(b, j), iota)
	for i := 0; i < k; i++ {
		p := body.Params[1+i]
		if _, ok := cl.step[i]; ok {
			vals[p] = b.NewAdd(splat(b, carried[i]), b.NewMul(iota, splat(b, stepOf(i))))
		} else {
			vals[p] = splat(b, carried[i])
		}
	}
	// The words of every read array, transposed: word w of lane l is lane
	// l of words[a][w].
	W := int(cl.stride / 4)
	vp := types.NewPointer(vt)
	chunkPtr := func(a *ir.Array, lane, group int) value.Value {
		off := b.NewAdd(b.NewMul(b.NewAdd(j, i32(int64(lane))), i32(cl.stride)), i32(int64(group*L*4)))
		return b.NewBitCast(g.elemIn(b, a, off), vp)
	}
	words := map[*ir.Array][]value.Value{}
	raw := map[*ir.Array][][]value.Value{} // the loaded rows, per group
	for _, a := range cl.loads {
		for grp := 0; grp < W/L; grp++ {
			rows := make([]value.Value, L)
			for l := 0; l < L; l++ {
				ld := b.NewLoad(vt, chunkPtr(a, l, grp))
				ld.Align = 1
				rows[l] = ld
			}
			raw[a] = append(raw[a], rows)
			words[a] = append(words[a], transpose(b, rows, rot)...)
		}
	}
	// A stored word that is a loaded word at the same place xored with x
	// is stored as the loaded row xored with x transposed: the transpose
	// is a permutation of lanes, so it commutes with xor, and the loaded
	// words need no transpose then (ChaCha20's src ^ keystream).
	xorOf := map[*ir.Array][]xorLoad{}
	stored := map[*ir.Array][]value.Value{}
	for _, a := range cl.stores {
		stored[a] = make([]value.Value, W)
	}
	var term *ir.Instr
	for _, x := range body.Instrs {
		r := func(v value.Value) { vals[x.Results[0]] = v }
		switch x.Op {
		case ir.OpYield:
			term = x
		case ir.OpConst:
			vals[x.Results[0]] = splatConst(int64(uint32(x.Aux)))
		case ir.OpCopy:
			r(vec(x.Args[0]))
		case ir.OpAdd:
			r(b.NewAdd(vec(x.Args[0]), vec(x.Args[1])))
		case ir.OpSub:
			r(b.NewSub(vec(x.Args[0]), vec(x.Args[1])))
		case ir.OpXor:
			r(b.NewXor(vec(x.Args[0]), vec(x.Args[1])))
		case ir.OpAnd:
			r(b.NewAnd(vec(x.Args[0]), vec(x.Args[1])))
		case ir.OpOr:
			r(b.NewOr(vec(x.Args[0]), vec(x.Args[1])))
		case ir.OpNot:
			r(b.NewXor(vec(x.Args[0]), splatConst(-1)))
		case ir.OpShl:
			r(b.NewShl(vec(x.Args[0]), vec(x.Args[1])))
		case ir.OpShr:
			r(b.NewLShr(vec(x.Args[0]), vec(x.Args[1])))
		case ir.OpRotl, ir.OpRotr:
			name := "llvm.fshl"
			if x.Op == ir.OpRotr {
				name = "llvm.fshr"
			}
			name += ".v" + strconv.Itoa(L) + "i32"
			v := vec(x.Args[0])
			r(b.NewCall(g.Intrinsic(name, vt, vt, vt, vt), v, v, vec(x.Args[1])))
		case ir.OpLoadLE:
			off := affineOff(x.Args[0], body.Params[0])
			r(words[x.Arr][off/4])
		case ir.OpStoreLE:
			off := affineOff(x.Args[0], body.Params[0])
			stored[x.Arr][off/4] = vec(x.Args[1])
			if xorOf[x.Arr] == nil {
				xorOf[x.Arr] = make([]xorLoad, W)
			}
			if d := def(x.Args[1]); d != nil && d.Op == ir.OpXor {
				for _, p := range [][2]*ir.Value{{d.Args[0], d.Args[1]}, {d.Args[1], d.Args[0]}} {
					if ld := def(p[0]); ld != nil && ld.Op == ir.OpLoadLE && affineOff(ld.Args[0], body.Params[0]) == off {
						xorOf[x.Arr][off/4] = xorLoad{ld.Arr, p[1]}
						break
					}
				}
			}
		}
	}
	ht := types.NewVector(uint64(L/2), types.I32)
	halfPtr := func(a *ir.Array, lane, group, h int) value.Value {
		off := b.NewAdd(b.NewMul(b.NewAdd(j, i32(int64(lane))), i32(cl.stride)), i32(int64(group*L*4+h*L*2)))
		return b.NewBitCast(g.elemIn(b, a, off), types.NewPointer(ht))
	}
	halfOf := func(x value.Value, h int) value.Value {
		m := make([]constant.Constant, L/2)
		for k := range m {
			m[k] = i32(int64(h*L/2 + k))
		}
		return b.NewShuffleVector(x, x, constant.NewVector(ht, m...))
	}
	for _, a := range cl.stores {
		ws := stored[a]
		for grp := 0; grp < W/L; grp++ {
			src, xs := xorGroup(xorOf[a][grp*L : (grp+1)*L])
			cols := ws[grp*L : (grp+1)*L]
			if src != nil {
				cols = make([]value.Value, L)
				for i, x := range xs {
					cols[i] = vec(x)
				}
			}
			if parts, ok := transposeHalves2(b, cols, rot); ok {
				// The last stage through memory: each vector's halves
				// go to the same half of two rows.
				for _, pt := range parts {
					v := pt.v
					if src != nil {
						lo := b.NewLoad(ht, halfPtr(src, pt.loRow, grp, pt.half))
						hi := b.NewLoad(ht, halfPtr(src, pt.hiRow, grp, pt.half))
						lo.Align, hi.Align = 1, 1
						cat := make([]constant.Constant, L)
						for k := range cat {
							cat[k] = i32(int64(k))
						}
						// freeze keeps the xor whole: LLVM would split it
						// in two halves, taking the high half out of the
						// register with a shuffle.
						fr := llir.NewInstFreeze(b.NewXor(v, b.NewShuffleVector(lo, hi, constant.NewVector(vt, cat...))))
						b.Insts = append(b.Insts, fr)
						v = fr
					}
					for h, row := range []int{pt.loRow, pt.hiRow} {
						st := b.NewStore(halfOf(v, h), halfPtr(a, row, grp, pt.half))
						st.Align = 1
					}
				}
				continue
			}
			rows := transpose(b, cols, rot)
			for l := 0; l < L; l++ {
				x := rows[l]
				if src != nil {
					x = b.NewXor(raw[src][grp][l], x)
				}
				st := b.NewStore(x, chunkPtr(a, l, grp))
				st.Align = 1
			}
		}
	}
	return term
}

// xorGroup returns the array every word of a group of stores xors its
// value with the load of, and the other operands, or nil when the words
// do not all have that form with one array.
func xorGroup(g []xorLoad) (*ir.Array, []*ir.Value) {
	var src *ir.Array
	xs := make([]*ir.Value, len(g))
	for i, e := range g {
		if e.arr == nil || (src != nil && e.arr != src) {
			return nil, nil
		}
		src, xs[i] = e.arr, e.x
	}
	return src, xs
}

// xorLoad is a stored word's value as a loaded word at the same place
// (of arr) xored with x.
type xorLoad struct {
	arr *ir.Array
	x   *ir.Value
}

// affineOff is the constant part of a chunk access index (its
// analyzeChunkLoop form stride * idx + off).
func affineOff(v, idx *ir.Value) int64 {
	switch d := def(v); {
	case v == idx || d == nil:
		return 0
	case d.Op == ir.OpConst:
		return int64(d.Aux)
	case d.Op == ir.OpAdd:
		return affineOff(d.Args[0], idx) + affineOff(d.Args[1], idx)
	case d.Op == ir.OpShl:
		k, _ := constOf(d.Args[1])
		return affineOff(d.Args[0], idx) << k
	}
	return 0
}

// elemIn is Elem emitted into block b.
func (g *Func) elemIn(b *llir.Block, a *ir.Array, idx value.Value) value.Value {
	cur := g.Cur
	g.Cur = b
	p := g.Elem(a, idx)
	g.Cur = cur
	return p
}

// transpose returns the columns of the L x L matrix whose rows are rows
// (L vectors of L u32 lanes). For L a multiple of 4 it takes the stages
// every lane count has an instruction for that needs no index vector and
// leaves its sources intact: interleaving the 32-bit, then the 64-bit
// halves within each 128-bit chunk (vpunpck{l,h}dq, vpunpck{l,h}qdq),
// then, for L >= 8, log2(L/4) stages that take the even or the odd
// 128-bit chunks of two vectors (vshufi32x4 on 512 bits, vperm2i128 on
// 256). With rot (ChunkRotator), the stages are those of
// transposeHalves, the first as shifts and blends. Which output holds
// which column is found by following the lanes through the stages.
func transpose(b *llir.Block, rows []value.Value, rot bool) []value.Value {
	L := len(rows)
	plan, ok := transposePlan(L, rot)
	if !ok {
		return transposeHalves(b, rows)
	}
	cur := runStages(b, rows, plan.stages)
	out := make([]value.Value, L)
	for i, c := range plan.column {
		out[c] = cur[i]
	}
	return out
}

// transposePart is a vector of a transpose one stage short of the end:
// its low half is half `half` of column loRow of the transpose, its high
// half the same half of column hiRow.
type transposePart struct {
	v            value.Value
	loRow, hiRow int
	half         int
}

// transposeHalves2 is transpose with rot, less its last stage (which
// swaps the 256-bit halves of pairs of vectors on 512 bits): the caller
// stores each vector's halves where they go (a load or a store of half a
// vector takes no shuffle). ok is false without rot or such a plan.
func transposeHalves2(b *llir.Block, rows []value.Value, rot bool) ([]transposePart, bool) {
	L := len(rows)
	if !rot || L < 8 {
		return nil, false
	}
	plan, ok := transposePlan(L, rot)
	if !ok {
		return nil, false
	}
	last := plan.stages[len(plan.stages)-1]
	if last.dist != L/2 {
		return nil, false
	}
	cur := runStages(b, rows, plan.stages[:len(plan.stages)-1])
	d := L / 2
	var parts []transposePart
	for i := 0; i < d; i++ {
		// lo = (cur[i].lo, cur[i+d].lo) is column[i], hi = (cur[i].hi,
		// cur[i+d].hi) is column[i+d].
		parts = append(parts,
			transposePart{cur[i], plan.column[i], plan.column[i+d], 0},
			transposePart{cur[i+d], plan.column[i], plan.column[i+d], 1})
	}
	return parts, true
}

// runStages emits the shuffles of stages on rows.
func runStages(b *llir.Block, rows []value.Value, stages []transposeStage) []value.Value {
	L := len(rows)
	mt := types.NewVector(uint64(L), types.I32)
	qt := types.NewVector(uint64(L/2), types.I64)
	cmask := func(m []int) constant.Constant {
		c := make([]constant.Constant, L)
		for k := range c {
			c[k] = constant.NewInt(types.I32, int64(m[k]))
		}
		return constant.NewVector(mt, c...)
	}
	// swap is x with the halves of every 64-bit lane exchanged, as a
	// rotate (which LLVM makes the shift the blend needs, not a shuffle).
	swap := func(x value.Value) value.Value {
		q := b.NewBitCast(x, qt)
		k := make([]constant.Constant, L/2)
		for i := range k {
			k[i] = constant.NewInt(types.I64, 32)
		}
		fn := rotateIntrinsic(b, qt)
		return b.NewBitCast(b.NewCall(fn, q, q, constant.NewVector(qt, k...)), mt)
	}
	cur := append([]value.Value{}, rows...)
	for _, st := range stages {
		next := make([]value.Value, L)
		for i := 0; i < L; i++ {
			if i&st.dist != 0 {
				continue
			}
			x, y := cur[i], cur[i+st.dist]
			if st.rot {
				// lo = x's even halves with y's even moved up; hi = x's
				// odd moved down with y's odd.
				blend := make([]int, L)
				for k := range blend {
					blend[k] = k + L*(k&1)
				}
				next[i] = b.NewShuffleVector(x, swap(y), cmask(blend))
				next[i+st.dist] = b.NewShuffleVector(swap(x), y, cmask(blend))
				continue
			}
			next[i] = b.NewShuffleVector(x, y, cmask(st.lo))
			next[i+st.dist] = b.NewShuffleVector(x, y, cmask(st.hi))
		}
		cur = next
	}
	return cur
}

// rotateIntrinsic declares (once per module) llvm.fshl for vector type t.
func rotateIntrinsic(b *llir.Block, t *types.VectorType) *llir.Func {
	m := b.Parent.Parent
	name := "llvm.fshl.v" + strconv.Itoa(int(t.Len)) + "i" + strconv.Itoa(int(t.ElemType.(*types.IntType).BitSize))
	for _, f := range m.Funcs {
		if f.Name() == name {
			return f
		}
	}
	return m.NewFunc(name, t, llir.NewParam("", t), llir.NewParam("", t), llir.NewParam("", t))
}

// transposeStage is one stage of a transpose plan: vectors i and i+dist
// (i & dist == 0) become shuffles of the two by the masks lo and hi (rot:
// the rotate-and-blend form of transpose, whose masks lo and hi give the
// same lanes).
type transposeStage struct {
	dist   int
	lo, hi []int
	rot    bool
}

// transposeSteps is a transpose as stages of two-source shuffles and the
// column each final vector holds.
type transposeSteps struct {
	stages []transposeStage
	column []int
}

// transposePlan builds the stages transpose uses for L lanes (with rot,
// a rotate-and-blend first stage) and checks, by following every element
// through them, that they transpose; ok is false when L has no such plan.
func transposePlan(L int, rot bool) (transposeSteps, bool) {
	if L < 4 || L&(L-1) != 0 {
		return transposeSteps{}, false
	}
	var p transposeSteps
	mask := func(f func(k int) int) []int {
		m := make([]int, L)
		for k := range m {
			m[k] = f(k)
		}
		return m
	}
	if rot {
		// The stages of transposeHalves: the one of width h swaps the
		// off-diagonal h x h blocks of every 2h x 2h block; the first
		// (h = 1) by rotates and blends.
		for h := 1; h < L; h *= 2 {
			lo := mask(func(k int) int {
				if k&h == 0 {
					return k
				}
				return L + k - h
			})
			hi := mask(func(k int) int {
				if k&h == 0 {
					return k + h
				}
				return L + k
			})
			p.stages = append(p.stages, transposeStage{h, lo, hi, h == 1})
		}
	} else {
		// Within 128-bit chunks: 32-bit, then 64-bit interleaves.
		p.stages = append(p.stages, transposeStage{1,
			mask(func(k int) int { return k&^3 + (k&2)/2 + L*(k&1) }),
			mask(func(k int) int { return k&^3 + 2 + (k&2)/2 + L*(k&1) }), false})
		p.stages = append(p.stages, transposeStage{2,
			mask(func(k int) int { return k&^3 + k&1 + L*((k&2)/2) }),
			mask(func(k int) int { return k&^3 + 2 + k&1 + L*((k&2)/2) }), false})
		// Across chunks: the even, then the odd chunks of two vectors.
		C := L / 4
		chunk := func(odd int) []int {
			return mask(func(k int) int {
				r, pos := k/4, k%4
				if r < C/2 {
					return 4*(2*r+odd) + pos
				}
				return L + 4*(2*(r-C/2)+odd) + pos
			})
		}
		for d := 4; d < L; d *= 2 {
			p.stages = append(p.stages, transposeStage{d, chunk(0), chunk(1), false})
		}
	}
	// Follow element (row, col) = row*L + col through the stages.
	cur := make([][]int, L)
	for r := range cur {
		cur[r] = mask(func(k int) int { return r*L + k })
	}
	for _, st := range p.stages {
		next := make([][]int, L)
		for i := 0; i < L; i++ {
			if i&st.dist != 0 {
				continue
			}
			pick := func(m []int) []int {
				return mask(func(k int) int {
					if m[k] < L {
						return cur[i][m[k]]
					}
					return cur[i+st.dist][m[k]-L]
				})
			}
			next[i], next[i+st.dist] = pick(st.lo), pick(st.hi)
		}
		cur = next
	}
	p.column = make([]int, L)
	seen := make([]bool, L)
	for i, v := range cur {
		c := v[0] % L
		for k, e := range v {
			if e != k*L+c {
				return transposeSteps{}, false
			}
		}
		if seen[c] {
			return transposeSteps{}, false
		}
		seen[c] = true
		p.column[i] = c
	}
	return p, true
}

// transposeHalves returns the columns of the L x L matrix whose rows are
// rows (L vectors of L lanes, L a power of two): log2(L) stages, the stage
// of width h swapping the off-diagonal h x h blocks of every 2h x 2h block
// with one two-source shuffle per output row.
func transposeHalves(b *llir.Block, rows []value.Value) []value.Value {
	L := len(rows)
	cur := append([]value.Value{}, rows...)
	for h := L / 2; h >= 1; h /= 2 {
		next := make([]value.Value, L)
		for i := 0; i < L; i++ {
			if i&h != 0 {
				continue
			}
			lo := make([]constant.Constant, L)
			hi := make([]constant.Constant, L)
			for c := 0; c < L; c++ {
				if c&h == 0 {
					lo[c] = constant.NewInt(types.I32, int64(c))
					hi[c] = constant.NewInt(types.I32, int64(c+h))
				} else {
					lo[c] = constant.NewInt(types.I32, int64(L+c-h))
					hi[c] = constant.NewInt(types.I32, int64(L+c))
				}
			}
			mt := types.NewVector(uint64(L), types.I32)
			next[i] = b.NewShuffleVector(cur[i], cur[i+h], constant.NewVector(mt, lo...))
			next[i+h] = b.NewShuffleVector(cur[i], cur[i+h], constant.NewVector(mt, hi...))
		}
		cur = next
	}
	return cur
}
