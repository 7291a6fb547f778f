package randprog

import (
	"fmt"
	"math/bits"
)

// The index generators follow the bounds rules of docs/language.md
// ("Bounds"): an index is proven when its largest value is known to be
// below the length — constants, loop indices, u8 values, x & C, x % C,
// x >> C, and sums and products of those that do not wrap. Everything
// else is checked at run time, which is the trap effect.

// arrayIndex returns an index into an array of length n.
func (g *gen) arrayIndex(n, d int) ex {
	if g.risky() {
		return g.unprovenIndex(n, d)
	}
	return g.provenIndex(n, d)
}

// loopVars returns the visible loop indices (and parameters bounded by
// requires) whose largest value is known and below limit.
func (g *gen) loopVars(limit uint64) []*vr {
	return g.visible(func(v *vr) bool { return v.hasMax && v.maxv < limit })
}

// provenIndex returns an index the checker proves below limit (limit >= 1).
func (g *gen) provenIndex(limit, d int) ex {
	lim := uint64(limit)
	for tries := 0; tries < 6; tries++ {
		switch g.r.IntN(10) {
		case 0, 1, 2:
			return ex{s: fmt.Sprint(g.r.IntN(limit)), untyped: true, konst: true}
		case 3, 4:
			if vs := g.loopVars(lim); len(vs) > 0 {
				v := pick(g, vs)
				if room := lim - 1 - v.maxv; room > 0 && g.chance(0.4) {
					c := 1 + g.r.Uint64()%room
					if c <= mask(v.t.bits)-v.maxv {
						return g.bin("+", varEx(v), intEx(int(c)))
					}
				}
				if v.maxv > 0 && g.chance(0.3) {
					if c := (lim - 1) / v.maxv; c >= 2 && c <= 16 && c*v.maxv <= mask(v.t.bits) {
						return g.bin("*", intEx(int(c)), varEx(v))
					}
				}
				return varEx(v)
			}
		case 5, 6:
			// x & C, with C often a power of two less one.
			c := lim - 1
			if g.chance(0.7) {
				c = 1<<uint(bits.Len64(lim)-1) - 1
			} else {
				c = g.r.Uint64() % lim
			}
			w := g.widthFitting(c)
			x := g.nonConstWord(w, d)
			return g.bin("&", x, g.litEx(c))
		case 7:
			c := 1 + g.r.Uint64()%lim
			w := g.widthFitting(c)
			x := g.nonConstWord(w, d)
			return g.bin("%", x, g.litEx(c))
		case 8:
			// x >> k with the width of x less k at most log2(limit).
			w := g.randWidth()
			b := bits.Len64(lim) - 1
			x := g.nonConstWord(w, d)
			if b >= w {
				return x
			}
			return g.bin(">>", x, intEx(w-b))
		case 9:
			cs := g.visible(func(v *vr) bool { return v.kind == vConst && v.t.k == kWord && v.hasVal && v.val < lim })
			if len(cs) > 0 {
				return varEx(pick(g, cs))
			}
		}
	}
	return ex{s: fmt.Sprint(g.r.IntN(limit)), untyped: true, konst: true}
}

// widthFitting returns a random width whose words hold c.
func (g *gen) widthFitting(c uint64) int {
	for {
		w := g.randWidth()
		if c <= mask(w) {
			return w
		}
	}
}

// unprovenIndex returns a non-constant index into something of length
// limit that the checker cannot prove in bounds: checked at run time, and
// sometimes out of bounds.
func (g *gen) unprovenIndex(limit, d int) ex {
	lim := uint64(limit)
	var e ex
	// The value comes from the arguments where it can, so that whether the
	// check fails changes from run to run.
	switch g.r.IntN(10) {
	case 0, 1, 2, 3:
		m := uint64(1)<<uint(bits.Len64(lim)) - 1 // >= limit
		w := g.widthFitting(m)
		x := g.argWord(w, d)
		e = g.bin("&", x, g.litEx(m))
	case 4, 5, 6, 7:
		c := lim + 1 + uint64(g.r.IntN(3))
		w := g.widthFitting(c)
		x := g.argWord(w, d)
		e = g.bin("%", x, g.litEx(c))
	case 8:
		vs := g.visible(func(v *vr) bool { return v.kind == vLoop && (!v.hasMax || v.maxv >= lim) })
		if len(vs) > 0 {
			e = varEx(pick(g, vs))
			break
		}
		fallthrough
	default:
		e = g.argWord(8, d)
	}
	e.konst = false
	e.eff |= effTrap
	return e
}

// hasArgWords reports whether argWord has parameters to read.
func (g *gen) hasArgWords() bool {
	return len(g.visible(func(v *vr) bool {
		return v.kind == vParam && (v.t.k == kWord || v.t.k == kArray && v.t.elem.k == kWord)
	})) > 0
}

// argWord returns a word of width bits that depends on the function's
// arguments: a word parameter or an element of an array parameter (cast to
// the width); else any non-constant word.
func (g *gen) argWord(bits, d int) ex {
	var opts []ex
	for _, v := range g.visible(func(v *vr) bool { return v.kind == vParam }) {
		switch v.t.k {
		case kWord:
			opts = append(opts, varEx(v))
		case kArray:
			if v.t.elem.k == kWord {
				opts = append(opts, join(fmt.Sprintf("%s[%d]", v.name, g.r.IntN(v.t.n)), varEx(v)))
			}
		}
	}
	if len(opts) == 0 {
		return g.nonConstWord(bits, d)
	}
	e := pick(g, opts)
	e.konst = false
	if e.t == nil || e.t.k != kWord || e.t.bits != bits {
		e = g.asWord(e, bits)
	}
	return e
}

// provenSliceIndex returns an index the checker proves in bounds of slice s,
// when there is one: the index of a loop over len(s), or a constant below
// the length s's requires guarantee.
func (g *gen) provenSliceIndex(s *vr) (ex, bool) {
	vs := g.visible(func(v *vr) bool { return v.kind == vLoop && v.lenOf == s })
	var opts []ex
	for _, v := range vs {
		opts = append(opts, varEx(v))
	}
	if s.minLen > 0 {
		opts = append(opts, ex{s: fmt.Sprint(g.r.IntN(s.minLen)), untyped: true, konst: true})
	}
	if len(opts) == 0 {
		return ex{}, false
	}
	return pick(g, opts), true
}

// sliceIndex returns an index into slice s: proven when the context allows,
// else checked at run time.
func (g *gen) sliceIndex(s *vr, d int) ex {
	if e, ok := g.provenSliceIndex(s); ok && !g.risky() {
		return e
	}
	if g.noTrap() {
		panic("BUG: randprog: slice indexed where no index is proven")
	}
	var e ex
	switch g.r.IntN(3) {
	case 0:
		top := 4
		if s.ltLen > 0 {
			top = min(top, s.ltLen)
		}
		e = ex{s: fmt.Sprint(g.r.IntN(top)), untyped: true}
	case 1:
		x := g.nonConstWord(g.randWidth(), d)
		e = g.bin("&", x, intEx(pick(g, []int{1, 3, 7, 15})))
	default:
		e = g.unprovenIndex(8, d)
	}
	e.konst = false
	e.eff |= effTrap
	return e
}

// canIndex reports whether v (an array or slice) may be indexed here:
// always, except a slice with no proven index where traps are not allowed.
func (g *gen) canIndex(v *vr) bool {
	if v.t.k != kSlice {
		return true
	}
	_, ok := g.provenSliceIndex(v)
	return ok || g.risky()
}

// safeIndex returns an index into the flat array or slice s that is in
// bounds whatever happens at run time (for unchecked_get/set).
func (g *gen) safeIndex(s *vr, d int) (ex, bool) {
	if s.t.k == kSlice {
		return g.provenSliceIndex(s)
	}
	return g.provenIndex(s.t.n, d), true
}

// offset returns the byte offset of a bytes-wide load or store in s:
// proven for arrays long enough (off <= n - bytes), checked for slices.
func (g *gen) offset(s *vr, bytes, d int) ex {
	if s.t.k == kArray {
		return g.arrayIndex(s.t.n-bytes+1, d)
	}
	var e ex
	switch g.r.IntN(3) {
	case 0:
		e = ex{s: fmt.Sprint(g.r.IntN(8)), untyped: true}
	case 1:
		vs := g.visible(func(v *vr) bool { return v.kind == vLoop })
		if len(vs) > 0 {
			e = varEx(pick(g, vs))
			break
		}
		fallthrough
	default:
		x := g.nonConstWord(g.randWidth(), d)
		e = g.bin("&", x, intEx(pick(g, []int{7, 15, 31})))
	}
	e.konst = false
	e.eff |= effTrap
	return e
}
