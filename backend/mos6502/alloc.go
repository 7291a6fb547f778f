package mos6502

import (
	"slices"
	"sort"

	"github.com/lowent/lowentc/ir"
)

// interval is the live range of a value in the linear instruction order.
type interval struct {
	start, end int
	weight     int // uses scaled by loop depth: heavier values get zero page first
	id         int // creation order: the allocator's tie-break, so output is deterministic
}

// liveness numbers the instructions of a function body and computes each
// value's live interval. A value used inside a loop that it is defined
// outside of stays live to the end of that loop (it is read again on
// every iteration); loop parameters and results live across the whole loop.
type liveness struct {
	pos   map[*ir.Instr]int
	end   map[*ir.Instr]int // structured instructions: the position after their last nested one
	iv    map[*ir.Value]*interval
	uses  map[*ir.Value]int
	n     int
	depth map[*ir.Instr]int
	// span is each value's own live range, from its definition to its
	// last read, in half positions: a loop's parameters begin just after
	// the loop's position (where its initial values are read for the last
	// time) and its results just after its end. Unlike iv, a loop's
	// carried parameter's span ends at its last read in the body, not at
	// the loop's end; its index's, read by the test and incremented at
	// the back edge, ends at the loop's end. coalesce reads it.
	span map[*ir.Value][2]int
	fors []*ir.Instr // the loops, in program order
}

func computeLiveness(f *ir.Function, lin *linearPlan, g *fgen) *liveness {
	nb := ir.Number(f.Body)
	lv := &liveness{pos: nb.Pos, end: nb.End, depth: nb.Depth, n: nb.N,
		iv: map[*ir.Value]*interval{}, uses: map[*ir.Value]int{}, span: map[*ir.Value][2]int{}}
	def := func(v *ir.Value, p int) {
		if _, ok := lv.iv[v]; !ok {
			lv.iv[v] = &interval{start: p, end: p, id: len(lv.iv)}
			lv.span[v] = [2]int{2 * p, 2 * p}
		}
	}
	// read extends v's span to the half position h.
	read := func(v *ir.Value, h int) {
		if s, ok := lv.span[v]; ok && h > s[1] {
			lv.span[v] = [2]int{s[0], h}
		}
	}
	var loops []*ir.Instr
	use := func(v *ir.Value, p int, d int) {
		lv.uses[v]++
		iv := lv.iv[v]
		if iv == nil {
			return // a function parameter: fixed storage
		}
		// Extend to the end of the outermost loop entered after the definition.
		for _, l := range loops {
			if lv.pos[l] > iv.start {
				p = max(p, lv.end[l])
				break
			}
		}
		iv.end = max(iv.end, p)
		read(v, 2*p)
		w := 1
		for i := 0; i < d && i < 4; i++ {
			w *= 16
		}
		iv.weight += w
	}
	var walk func(b *ir.Block, d int)
	walk = func(b *ir.Block, d int) {
		for _, in := range b.Instrs {
			p := lv.pos[in]
			if lin.skip(in) {
				continue
			}
			if r := lin.root(in); r != nil {
				for _, t := range r.terms {
					use(t.in, p, d)
				}
				def(in.Results[0], p)
				continue
			}
			if ab, ok := lin.addr(in); ok {
				for _, v := range ab.reads(in) {
					use(v, p, d)
				}
				for _, r := range in.Results {
					def(r, p)
				}
				continue
			}
			if grp := lin.group(in); grp != nil {
				// The whole rotate is written here, reading every byte.
				for _, v := range grp.reads() {
					use(v, p, d)
				}
				for _, r := range grp.results() {
					def(r, p)
				}
				continue
			}
			if g != nil && (g.fz[in] != nil || g.dead[in]) {
				continue // read where its reader is; or never computed
			}
			if g != nil && g.wrap[in].t != nil {
				use(g.wrap[in].t, p, d)
				def(in.Results[0], p)
				continue
			}
			if g != nil && len(memIndex(in)) > 0 && g.g.lay.reusePtrs() {
				if b, _ := splitLow(g, memIndex(in)[0]); g.rebase[b].base != nil {
					use(g.rebase[b].base, p, d)
				}
			}
			for _, a := range in.Args {
				if g != nil && g.fused(a) {
					for _, x := range g.fusedAddrReads(a.Def) {
						use(x, p, d)
					}
					lv.uses[a]++
					continue
				}
				use(a, p, d)
			}
			switch in.Op {
			case ir.OpFor:
				body := in.Blocks[0]
				// The upper bound is read again at every test.
				nidx := len(body.Params) - len(in.Results)
				for _, h := range in.Args[nidx : 2*nidx] {
					if iv := lv.iv[h]; iv != nil {
						iv.end = max(iv.end, lv.end[in])
						read(h, 2*lv.end[in])
					}
				}
				for i, v := range body.Params {
					def(v, p)
					lv.iv[v].end = lv.end[in]
					lv.span[v] = [2]int{2*p + 1, 2*p + 1}
					if i < nidx {
						// The index is read by the test at the top
						// and incremented at the back edge: it is
						// live to the loop's end, whatever the body
						// reads.
						read(v, 2*lv.end[in])
					}
				}
				// A result shares its loop parameter's storage.
				k := len(in.Results)
				iters := body.Params[len(body.Params)-k:]
				for i, r := range in.Results {
					def(r, p)
					lv.iv[r] = lv.iv[iters[i]]
					e := 2*lv.end[in] + 1
					lv.span[r] = [2]int{e, e}
				}
				lv.fors = append(lv.fors, in)
				loops = append(loops, in)
				walk(body, d+1)
				loops = loops[:len(loops)-1]
			case ir.OpIf:
				for _, r := range in.Results {
					def(r, p)
					lv.iv[r].end = lv.end[in]
				}
				for _, blk := range in.Blocks {
					walk(blk, d)
				}
			default:
				for _, r := range in.Results {
					def(r, p)
				}
			}
			if in.Op == ir.OpYield || in.Op == ir.OpReturn {
				for _, a := range in.Args {
					// Read at the end of the construct it leaves.
					if iv := lv.iv[a]; iv != nil {
						iv.end = max(iv.end, p+1)
						read(a, 2*(p+1))
					}
				}
			}
		}
	}
	walk(f.Body, 0)
	return lv
}

// slotAlloc assigns storage bytes: zero page first, then absolute RAM.
type slotAlloc struct {
	zp    []int // free zero-page addresses available to values
	busy  [][]interval
	nzp   int
	nabs  int // absolute slots used
	where map[*interval]int
}

// intervals returns lv's intervals, each once (a loop result shares its
// loop parameter's).
func (lv *liveness) intervals() []*interval {
	seen := map[*interval]bool{}
	var ivs []*interval
	for _, iv := range lv.iv {
		if !seen[iv] {
			seen[iv] = true
			ivs = append(ivs, iv)
		}
	}
	return ivs
}

// allocate gives every interval of ivs a slot index, intervals that
// overlap different slots; it returns the slots and how many there are.
// Heavier intervals choose first, the lowest free slot.
func allocate(ivs []*interval) (map[*interval]int, int) {
	ivs = append([]*interval(nil), ivs...)
	sort.Slice(ivs, func(i, j int) bool {
		a, b := ivs[i], ivs[j]
		if a.weight != b.weight {
			return a.weight > b.weight
		}
		if a.start != b.start {
			return a.start < b.start
		}
		return a.id < b.id
	})
	// A slot's intervals never overlap one another. Those with start <=
	// end (all but degenerate ones) are kept by start, so their ends
	// rise too: iv overlaps one of them exactly when the last that starts
	// at or before iv.end ends at or after iv.start, a binary search
	// rather than a scan of the slot (functions of thousands of values).
	// The rare others are scanned; the slot chosen is the same.
	type slot struct{ byStart, odd []*interval }
	var slots []*slot
	overlaps := func(iv, o *interval) bool { return iv.start <= o.end && o.start <= iv.end }
	free := func(sl *slot, iv *interval) bool {
		for _, o := range sl.odd {
			if overlaps(iv, o) {
				return false
			}
		}
		if iv.start > iv.end {
			for _, o := range sl.byStart {
				if overlaps(iv, o) {
					return false
				}
			}
			return true
		}
		i := sort.Search(len(sl.byStart), func(i int) bool { return sl.byStart[i].start > iv.end })
		return i == 0 || sl.byStart[i-1].end < iv.start
	}
	where := map[*interval]int{}
	for _, iv := range ivs {
		chosen := -1
		for s, sl := range slots {
			if free(sl, iv) {
				chosen = s
				break
			}
		}
		if chosen < 0 {
			slots = append(slots, &slot{})
			chosen = len(slots) - 1
		}
		sl := slots[chosen]
		if iv.start > iv.end {
			sl.odd = append(sl.odd, iv)
		} else {
			i := sort.Search(len(sl.byStart), func(i int) bool { return sl.byStart[i].start > iv.start })
			sl.byStart = slices.Insert(sl.byStart, i, iv)
		}
		where[iv] = chosen
	}
	return where, len(slots)
}

// spansAny reports whether iv is live at one of the positions ps: defined
// at or before it and read at or after it.
func (iv *interval) spansAny(ps []int) bool {
	for _, p := range ps {
		if iv.start <= p && p <= iv.end {
			return true
		}
	}
	return false
}

// coalesce gives a loop's carried value the storage of what flows into it,
// its initial value and the value its body yields, where their spans do not
// overlap: the copies at the loop's entry and back edge then have nothing
// to move. A loop unrolled so that its carried values come back renamed to
// their places (SHA-256's a..h after eight rounds) copies nothing, and a
// loop nested in another carries the outer loop's values in their slots.
// Values sharing an interval share a slot; a merge keeps the union of the
// two intervals, so the allocator sees one value live over both.
func (g *fgen) coalesce() {
	lv := g.lv
	members := map[*interval][]*ir.Value{}
	for _, v := range g.sortedValues() {
		iv := lv.iv[v]
		members[iv] = append(members[iv], v)
	}
	// An instruction that reads all its operands before it writes its
	// result (`lda / adc / sta`, a map's lookups then its `sta`) may
	// write it where an operand it reads for the last time was: its
	// result's span begins half a position later.
	span := func(v *ir.Value) [2]int {
		s := lv.span[v]
		if d := v.Def; d != nil && s[0] == 2*lv.pos[d] && d.Results[0] == v && g.lin.group(d) == nil {
			switch {
			case g.lin.root(d) != nil:
				s[0]++
			case d.Op == ir.OpXor, d.Op == ir.OpAnd, d.Op == ir.OpOr, d.Op == ir.OpNot,
				d.Op == ir.OpAdd, d.Op == ir.OpSub, d.Op == ir.OpAddC, d.Op == ir.OpSubB,
				d.Op == ir.OpCopy, d.Op == ir.OpZext, d.Op == ir.OpTrunc:
				s[0]++
			}
		}
		return s
	}
	try := func(a, b *ir.Value) {
		ia, ib := lv.iv[a], lv.iv[b]
		if ia == nil || ib == nil || ia == ib {
			return
		}
		for _, x := range members[ia] {
			sx := span(x)
			for _, y := range members[ib] {
				if sy := span(y); sx[0] <= sy[1] && sy[0] <= sx[1] {
					return
				}
			}
		}
		ia.start, ia.end = min(ia.start, ib.start), max(ia.end, ib.end)
		ia.weight += ib.weight
		ia.id = min(ia.id, ib.id)
		for _, y := range members[ib] {
			lv.iv[y] = ia
		}
		members[ia] = append(members[ia], members[ib]...)
		delete(members, ib)
	}
	for _, l := range lv.fors {
		body := l.Blocks[0]
		k := len(l.Results)
		n := len(body.Params) - k
		inits, iters := l.Args[2*n:], body.Params[n:]
		t := body.Term()
		for j, q := range iters {
			try(q, t.Args[j])
			try(q, inits[j])
		}
	}
}

// sortedValues returns the values that have intervals, by id: a
// deterministic order.
func (g *fgen) sortedValues() []*ir.Value {
	vs := make([]*ir.Value, 0, len(g.lv.iv))
	for v := range g.lv.iv {
		vs = append(vs, v)
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].ID < vs[j].ID })
	return vs
}
