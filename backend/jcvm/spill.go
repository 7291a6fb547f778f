package jcvm

import "sort"

// Spilling: when a method's live values need more local cells than the
// JCVM allows, the values that are live the longest for their number of
// uses move to a static transient short array of the method (an int takes
// two shorts): each definition becomes a store, each use a load.

// cellBudget is the local cells a method may use before spilling.
const cellBudget = 240

// pressure returns the maximum number of cells live at once and, at that
// point, the live intervals.
func pressure(m *Method) (int, []*interval, map[*Var]int) {
	lv := &liveness{iv: map[*Var]*interval{}}
	for _, p := range m.Params {
		lv.ref(p)
	}
	refs := map[*Var]int{}
	lv.count = refs
	lv.stmts(m.Body)
	for _, l := range lv.loops {
		for v := range l.refs {
			if it := lv.iv[v]; it.first < l.start && it.last < l.end {
				it.last = l.end
			}
		}
	}
	type ev struct {
		pos, delta int
	}
	var evs []ev
	for _, it := range lv.iv {
		c := it.v.Kind.Cells()
		evs = append(evs, ev{it.first, c}, ev{it.last + 1, -c})
	}
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].pos != evs[j].pos {
			return evs[i].pos < evs[j].pos
		}
		return evs[i].delta < evs[j].delta
	})
	cur, best, at := 0, 0, 0
	for _, e := range evs {
		cur += e.delta
		if cur > best {
			best, at = cur, e.pos
		}
	}
	var live []*interval
	for _, it := range lv.iv {
		if it.first <= at && at <= it.last {
			live = append(live, it)
		}
	}
	return best, live, refs
}

// spill moves values to memory until m fits the cell budget.
func spill(cls *Class, m *Method, budget int) {
	var arr *Arr
	for _, f := range cls.Fields {
		if f.Name == m.Name+"_spill" {
			arr = f
		}
	}
	// Array references, offsets and lengths stay in locals: the arrays
	// name them directly.
	fixed := map[*Var]bool{}
	isParam := map[*Var]bool{}
	for _, p := range m.Params {
		isParam[p] = true
		if p.Kind == KRef {
			fixed[p] = true
			if p.Arr.Off != nil {
				fixed[p.Arr.Off] = true
			}
			if p.Arr.LenV != nil {
				fixed[p.Arr.LenV] = true
			}
		}
	}
	done := map[*Var]bool{}
	for {
		best, live, refs := pressure(m)
		if best <= budget {
			return
		}
		// Spill, at the point of highest pressure, the values with the
		// longest life per use until that point fits.
		var cands []*interval
		for _, it := range live {
			if !fixed[it.v] && it.v.Kind != KRef && !done[it.v] {
				cands = append(cands, it)
			}
		}
		scoreOf := func(it *interval) float64 { return float64(it.last-it.first) / float64(refs[it.v]+1) }
		sort.Slice(cands, func(i, j int) bool {
			if a, b := scoreOf(cands[i]), scoreOf(cands[j]); a != b {
				return a > b
			}
			return cands[i].v.ID < cands[j].v.ID
		})
		var victims []*Var
		excess := best - budget
		for _, it := range cands {
			if excess <= 0 {
				break
			}
			victims = append(victims, it.v)
			done[it.v] = true
			excess -= it.v.Kind.Cells()
		}
		if len(victims) == 0 {
			return
		}
		if arr == nil {
			arr = &Arr{Name: m.Name + "_spill", Elem: EShort, Field: len(cls.Fields)}
			cls.Fields = append(cls.Fields, arr)
		}
		for _, v := range victims {
			slot := arr.Len
			arr.Len += v.Kind.Cells()
			m.Body = spillVar(m.Body, v, arr, slot, func() *Var { return m.newVar(v.Kind) })
			if isParam[v] {
				// A spilled parameter is stored on entry.
				entry := []Stmt{&SStore{A: arr, I: sconst(int32(slot)), X: &EVar{V: v}}}
				if v.Kind == KInt {
					entry = []Stmt{
						&SStore{A: arr, I: sconst(int32(slot)), X: conv(bin(OUshr, KInt, &EVar{V: v}, iconst(16)), KShort)},
						&SStore{A: arr, I: sconst(int32(slot + 1)), X: conv(&EVar{V: v}, KShort)},
					}
				}
				m.Body = append(entry, m.Body...)
			}
		}
	}
}

// spillVar rewrites ss so v lives in arr at short index slot. An int is
// stored as two shorts from a local that lives only across those stores:
// a fresh one at each assignment when fresh is not nil (v itself would
// live from its first assignment to its last, and the nested branches of
// an if-else chain assign each of their values at both ends of the
// chain), else v.
func spillVar(ss []Stmt, v *Var, arr *Arr, slot int, fresh func() *Var) []Stmt {
	load := func() Expr {
		if v.Kind == KInt {
			hi := conv(&ELoad{A: arr, I: sconst(int32(slot))}, KInt)
			lo := bin(OAnd, KInt, conv(&ELoad{A: arr, I: sconst(int32(slot + 1))}, KInt), iconst(0xffff))
			return bin(OOr, KInt, bin(OShl, KInt, hi, iconst(16)), lo)
		}
		return &ELoad{A: arr, I: sconst(int32(slot))}
	}
	var fix func(e Expr) Expr
	fix = func(e Expr) Expr {
		switch x := e.(type) {
		case *EVar:
			if x.V == v {
				return load()
			}
		case *EBin:
			return &EBin{Op: x.Op, K: x.K, X: fix(x.X), Y: fix(x.Y)}
		case *ENeg:
			return &ENeg{X: fix(x.X)}
		case *EConv:
			return &EConv{To: x.To, B: x.B, X: fix(x.X)}
		case *ELoad:
			return &ELoad{A: x.A, I: fix(x.I)}
		case *ECond:
			return &ECond{C: fixCond(x.C, fix), T: fix(x.T), F: fix(x.F)}
		case *ECall:
			args := make([]Expr, len(x.Args))
			for i, a := range x.Args {
				args[i] = fix(a)
			}
			return &ECall{M: x.M, Args: args}
		}
		return e
	}
	var out []Stmt
	for _, s := range ss {
		switch s := s.(type) {
		case *SAssign:
			x := fix(s.X)
			if s.V != v {
				out = append(out, &SAssign{V: s.V, X: x})
				continue
			}
			if v.Kind == KInt {
				// The value is stored twice: keep it in a local that lives
				// only between these statements.
				t := v
				if fresh != nil {
					t = fresh()
				}
				out = append(out, &SAssign{V: t, X: x},
					&SStore{A: arr, I: sconst(int32(slot)), X: conv(bin(OUshr, KInt, &EVar{V: t}, iconst(16)), KShort)},
					&SStore{A: arr, I: sconst(int32(slot + 1)), X: conv(&EVar{V: t}, KShort)})
				continue
			}
			out = append(out, &SStore{A: arr, I: sconst(int32(slot)), X: x})
		case *SStore:
			out = append(out, &SStore{A: s.A, I: fix(s.I), X: fix(s.X)})
		case *SIf:
			out = append(out, &SIf{C: fixCond(s.C, fix), Then: spillVar(s.Then, v, arr, slot, fresh), Else: spillVar(s.Else, v, arr, slot, fresh)})
		case *SWhile:
			out = append(out, &SWhile{C: fixCond(s.C, fix), Body: spillVar(s.Body, v, arr, slot, fresh)})
		case *SReturn:
			if s.X != nil {
				out = append(out, &SReturn{X: fix(s.X)})
			} else {
				out = append(out, s)
			}
		case *SCall:
			out = append(out, &SCall{C: fix(s.C).(*ECall)})
		default:
			out = append(out, s)
		}
	}
	return out
}

func fixCond(c Cond, fix func(Expr) Expr) Cond {
	return Cond{Rel: c.Rel, X: fix(c.X), Y: fix(c.Y)}
}
