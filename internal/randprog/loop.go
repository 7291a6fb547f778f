package randprog

import (
	"fmt"
	"strings"
)

// loopBounds is a generated `LO..HI` range.
type loopBounds struct {
	lo, hi ex
	bits   int    // type of the index
	trip   int    // largest number of iterations
	maxv   uint64 // largest index value, when hasMax
	hasMax bool
	lenOf  *vr
}

// tripRoom is the largest trip count a new loop may have here.
func (g *gen) tripRoom() int {
	return g.cfg.MaxIter / g.fn.iter
}

// bounds chooses a range with at most room iterations: constant bounds
// (sometimes empty or reversed), len(x), or masked run-time values.
func (g *gen) bounds(room int) (loopBounds, bool) {
	d := g.cfg.MaxExpr - 1
	switch n := g.r.IntN(10); {
	case n < 4:
		lo := 0
		if g.chance(0.3) {
			lo = g.r.IntN(4)
		}
		trip := 1 + g.r.IntN(min(room, 16))
		hi := lo + trip
		if g.chance(0.05) {
			hi = lo - g.r.IntN(2) // empty range
			trip = 0
		}
		b := loopBounds{lo: ex{s: fmt.Sprint(lo), untyped: true, konst: true}, hi: ex{s: fmt.Sprint(hi), untyped: true, konst: true},
			bits: 32, trip: max(trip, 0)}
		if hi > lo && hi >= 0 {
			b.maxv, b.hasMax = uint64(hi-1), true
		}
		if hi < 0 {
			return loopBounds{}, false
		}
		return b, true
	case n < 6:
		srcs := g.visible(func(v *vr) bool {
			if v.t.k == kSlice {
				return room >= MaxSliceLen
			}
			return v.t.k == kArray && v.t.n <= room
		})
		if len(srcs) == 0 {
			return loopBounds{}, false
		}
		s := pick(g, srcs)
		b := loopBounds{lo: ex{s: "0", untyped: true, konst: true}, hi: join(fmt.Sprintf("len(%s)", s.name), varEx(s)), bits: 32}
		if s.t.k == kSlice {
			b.trip, b.lenOf = MaxSliceLen, s
			b.hi.konst = false
		} else {
			b.trip, b.maxv, b.hasMax = s.t.n, uint64(s.t.n-1), true
		}
		return b, true
	case n < 8:
		// 0..(x & M) or 0..(x % M): a run-time trip count.
		w := g.randWidth()
		m := min(room, 1+g.r.IntN(12))
		x := g.nonConstWord(w, d)
		hi := g.bin("&", x, intEx(m))
		if g.chance(0.4) {
			hi = g.bin("%", x, intEx(m+1))
		}
		lo := ex{s: "0", untyped: true, konst: true}
		if g.chance(0.3) {
			lo = g.asWord(intEx(g.r.IntN(3)), w)
		}
		return loopBounds{lo: lo, hi: hi, bits: w, trip: m}, true
	default:
		// (x & A)..(y & B): both ends at run time, often empty.
		w := g.randWidth()
		m := min(room, 1+g.r.IntN(8))
		x, y := g.nonConstWord(w, d), g.nonConstWord(w, d)
		lo := g.bin("&", x, intEx(g.r.IntN(4)))
		hi := g.bin("&", y, intEx(m))
		return loopBounds{lo: lo, hi: hi, bits: w, trip: m}, true
	}
}

// forStmt emits a range loop.
func (g *gen) forStmt() bool {
	f := g.fn
	room := g.tripRoom()
	if room < 1 {
		return false
	}
	b, ok := g.bounds(room)
	if !ok || b.trip > room {
		return false
	}
	g.use(b.lo, b.hi)
	name := g.fresh("i")
	v := &vr{name: name, t: word(b.bits), kind: vLoop, maxv: b.maxv, hasMax: b.hasMax, lenOf: b.lenOf}
	g.line("for %s in %s..%s {", name, b.lo.s, b.hi.s)
	saved := f.iter
	f.iter *= max(b.trip, 1)
	g.block(g.blockLen(), func() {
		g.declare(v)
		// The bounds were evaluated once: changing what they read inside
		// the loop must not change the trip count.
		for _, dep := range append(b.lo.deps, b.hi.deps...) {
			if dep.kind == vLocal && dep.mut && dep.t.k == kWord && g.chance(0.3) {
				e := g.wordE(dep.t.bits, 1, true)
				g.use(e)
				g.line("%s = %s", dep.name, e.s)
				break
			}
		}
	})
	f.iter = saved
	g.line("}")
	return true
}

// chunkStmt emits `for [k,] c1, ..., cn in chunks(s1, ..., sn, N)`: views of
// whole N-element chunks walked in step, writable when their source is.
func (g *gen) chunkStmt() bool {
	f := g.fn
	srcs := g.visible(func(v *vr) bool { return v.t.flatWords() && (v.t.k == kSlice || v.t.n >= 2) })
	if len(srcs) == 0 {
		return false
	}
	s1 := pick(g, srcs)
	// Sometimes walk a row of a nested array instead.
	rows := g.visible(func(v *vr) bool { return v.t.k == kArray && v.t.elem.flatWords() && v.t.elem.n >= 2 })
	if len(rows) > 0 && g.chance(0.2) {
		m := pick(g, rows)
		idx := g.arrayIndex(m.t.n, 1)
		g.use(idx)
		s1 = &vr{name: fmt.Sprintf("%s[%s]", m.name, idx.s), t: m.t.elem, kind: vView, mut: m.mut && m.kind != vConst, root: m.rootOf()}
	}
	n := pick(g, []int{1, 2, 3, 4, 4, 8, 8, 16})
	length := MaxSliceLen
	if s1.t.k == kArray {
		length = s1.t.n
		n = min(n, s1.t.n)
	}
	trip := length / n
	if trip > g.tripRoom() {
		return false
	}
	sources := []*vr{s1}
	used := map[*vr]bool{s1.rootOf(): true}
	checked := false
	for k := g.r.IntN(3); k > 0; k-- {
		var cands []*vr
		for _, v := range srcs {
			if !used[v.rootOf()] {
				cands = append(cands, v)
			}
		}
		if len(cands) == 0 {
			break
		}
		// Sources of the same fixed length, or slices of equal length by
		// requires, are proven equal: prefer them. Lengths known to differ
		// are an error; the rest is checked at run time.
		var same, maybe []*vr
		for _, v := range cands {
			lo1, hi1 := s1.lenRange()
			lo2, hi2 := v.lenRange()
			switch {
			case v.t.k == kArray && s1.t.k == kArray:
				if v.t.n == s1.t.n {
					same = append(same, v)
				}
			case v.t.k == kSlice && s1.t.k == kSlice && g.lenEq(s1, v):
				same = append(same, v)
			case overlaps(lo1, hi1, lo2, hi2):
				maybe = append(maybe, v)
			}
		}
		var v *vr
		switch {
		case len(same) > 0 && (len(maybe) == 0 || g.chance(0.8)):
			v = pick(g, same)
		case len(maybe) > 0 && !g.noTrap() && g.chance(0.5):
			v = pick(g, maybe)
			checked = true
		default:
			k = 0
			continue
		}
		used[v.rootOf()] = true
		sources = append(sources, v)
	}
	if checked {
		g.note(effTrap)
	}
	var names, srcNames []string
	var views []*vr
	for _, s := range sources {
		name := g.fresh("c")
		names = append(names, name)
		srcNames = append(srcNames, s.name)
		views = append(views, &vr{name: name, t: arrOf(n, s.t.elem), kind: vView, mut: s.mut, root: s.rootOf(), src: s})
	}
	var idx *vr
	head := strings.Join(names, ", ")
	if g.chance(0.5) {
		idx = &vr{name: g.fresh("k"), t: tU32, kind: vLoop}
		head = idx.name + ", " + head
	}
	g.line("for %s in chunks(%s, %d) {", head, strings.Join(srcNames, ", "), n)
	saved := f.iter
	f.iter *= max(trip, 1)
	g.block(g.blockLen()+1, func() {
		if idx != nil {
			g.declare(idx)
		}
		for _, v := range views {
			g.declare(v)
		}
	})
	f.iter = saved
	g.line("}")
	return true
}
