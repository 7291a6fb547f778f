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
}

func computeLiveness(f *ir.Function, lin *linearPlan) *liveness {
	nb := ir.Number(f.Body)
	lv := &liveness{pos: nb.Pos, end: nb.End, depth: nb.Depth, n: nb.N,
		iv: map[*ir.Value]*interval{}, uses: map[*ir.Value]int{}}
	def := func(v *ir.Value, p int) {
		if _, ok := lv.iv[v]; !ok {
			lv.iv[v] = &interval{start: p, end: p, id: len(lv.iv)}
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
			for _, a := range in.Args {
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
					}
				}
				for _, v := range body.Params {
					def(v, p)
					lv.iv[v].end = lv.end[in]
				}
				// A result shares its loop parameter's storage.
				k := len(in.Results)
				iters := body.Params[len(body.Params)-k:]
				for i, r := range in.Results {
					def(r, p)
					lv.iv[r] = lv.iv[iters[i]]
				}
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
