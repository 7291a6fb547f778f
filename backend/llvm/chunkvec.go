package llvm

import (
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

// vecChunkLoop emits the vector loop before for loop in (when the variant
// has lanes and the loop qualifies) and returns the index and loop-carried
// values the ordinary loop continues from; ok is false when it emitted
// nothing.
func (g *Func) vecChunkLoop(in *ir.Instr) (lo value.Value, inits []value.Value, ok bool) {
	cv, isCV := g.sel.(ChunkVectorizer)
	if !isCV {
		return nil, nil, false
	}
	L := cv.ChunkLanes()
	if L < 2 {
		return nil, nil, false
	}
	cl, ok := analyzeChunkLoop(in, L)
	if !ok {
		return nil, nil, false
	}
	body := in.Blocks[0]
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

	loV, hiV := g.Val(in.Args[0]), g.Val(in.Args[1])
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
		phis[i] = header.NewPhi(llir.NewIncoming(g.Val(in.Args[2+i]), pre))
	}
	room := header.NewAnd(header.NewICmp(enum.IPredULT, j, hiV),
		header.NewICmp(enum.IPredUGE, header.NewSub(hiV, j), i32(int64(L))))
	header.NewCondBr(header.NewAnd(aliasOK, room), bodyB, exit)

	b := bodyB
	vals := map[*ir.Value]value.Value{}
	vec := func(v *ir.Value) value.Value {
		if x, ok := vals[v]; ok {
			return x
		}
		x := splat(b, g.Val(v))
		vals[v] = x
		return x
	}
	// A step is a constant or a value defined before the loop.
	stepOf := func(i int) value.Value {
		if c, ok := constOf(cl.step[i]); ok {
			return i32(int64(uint32(c)))
		}
		return g.Val(cl.step[i])
	}
	vals[body.Params[0]] = b.NewAdd(splat(b, j), iota)
	for i := 0; i < k; i++ {
		p := body.Params[1+i]
		if _, ok := cl.step[i]; ok {
			vals[p] = b.NewAdd(splat(b, phis[i]), b.NewMul(iota, splat(b, stepOf(i))))
		} else {
			vals[p] = splat(b, phis[i])
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
			words[a] = append(words[a], transpose(b, rows)...)
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
	for _, a := range cl.stores {
		ws := stored[a]
		for grp := 0; grp < W/L; grp++ {
			if src, xs := xorGroup(xorOf[a][grp*L : (grp+1)*L]); src != nil {
				ks := make([]value.Value, L)
				for i, x := range xs {
					ks[i] = vec(x)
				}
				ks = transpose(b, ks)
				for l := 0; l < L; l++ {
					st := b.NewStore(b.NewXor(raw[src][grp][l], ks[l]), chunkPtr(a, l, grp))
					st.Align = 1
				}
				continue
			}
			rows := transpose(b, ws[grp*L:(grp+1)*L])
			for l := 0; l < L; l++ {
				st := b.NewStore(rows[l], chunkPtr(a, l, grp))
				st.Align = 1
			}
		}
	}
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
	inits = make([]value.Value, k)
	for i := range phis {
		inits[i] = phis[i]
	}
	return j, inits, true
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
// (L vectors of L lanes): log2(L) stages, the stage of width h swapping
// the off-diagonal h x h blocks of every 2h x 2h block with one two-source
// shuffle per output row.
func transpose(b *llir.Block, rows []value.Value) []value.Value {
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
