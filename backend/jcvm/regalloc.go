package jcvm

import "sort"

// Local allocation: a linear scan over the statements in program order.
// A variable lives from its first to its last mention; one mentioned inside
// a loop but defined before it lives to the loop's end (its next iteration
// reads it again). Parameters keep their slots but free them once dead.

type interval struct {
	v           *Var
	first, last int
}

type liveness struct {
	pos   int
	iv    map[*Var]*interval
	loops []*loopSpan
	open  []*loopSpan
	count map[*Var]int // references per variable, when not nil
}

type loopSpan struct {
	start, end int
	refs       map[*Var]bool
}

func (lv *liveness) ref(v *Var) {
	if lv.count != nil {
		lv.count[v]++
	}
	it := lv.iv[v]
	if it == nil {
		it = &interval{v: v, first: lv.pos, last: lv.pos}
		lv.iv[v] = it
	}
	if lv.pos < it.first {
		it.first = lv.pos
	}
	if lv.pos > it.last {
		it.last = lv.pos
	}
	for _, l := range lv.open {
		l.refs[v] = true
	}
}

func (lv *liveness) expr(e Expr) {
	switch x := e.(type) {
	case *EVar:
		lv.ref(x.V)
	case *EBin:
		lv.expr(x.X)
		lv.expr(x.Y)
	case *ENeg:
		lv.expr(x.X)
	case *EConv:
		lv.expr(x.X)
	case *ELoad:
		if !x.A.Static() {
			lv.ref(x.A.Ref)
			if x.A.Off != nil {
				lv.ref(x.A.Off)
			}
		}
		lv.expr(x.I)
	case *ECond:
		lv.expr(x.C.X)
		lv.expr(x.C.Y)
		lv.expr(x.T)
		lv.expr(x.F)
	case *ECall:
		for _, a := range x.Args {
			lv.expr(a)
		}
	}
}

func (lv *liveness) stmts(ss []Stmt) {
	for _, s := range ss {
		lv.pos++
		switch s := s.(type) {
		case *SAssign:
			lv.expr(s.X)
			lv.ref(s.V)
		case *SStore:
			lv.expr(&ELoad{A: s.A, I: s.I})
			lv.expr(s.X)
		case *SIf:
			lv.expr(s.C.X)
			lv.expr(s.C.Y)
			lv.stmts(s.Then)
			lv.stmts(s.Else)
		case *SWhile:
			l := &loopSpan{start: lv.pos, refs: map[*Var]bool{}}
			lv.open = append(lv.open, l)
			lv.stmts(s.Body)
			lv.pos++
			lv.expr(s.C.X)
			lv.expr(s.C.Y)
			lv.open = lv.open[:len(lv.open)-1]
			l.end = lv.pos
			lv.loops = append(lv.loops, l)
		case *SReturn:
			if s.X != nil {
				lv.expr(s.X)
			}
		case *SCall:
			lv.expr(s.C)
		}
	}
}

// allocate assigns local slots to m's variables and sets m.Locals.
func allocate(m *Method) error {
	lv := &liveness{iv: map[*Var]*interval{}}
	lv.pos = 0
	for _, p := range m.Params {
		lv.ref(p)
	}
	lv.stmts(m.Body)
	// Inner loops were appended first; extending in that order lets an
	// outer loop see the extension an inner one made.
	for _, l := range lv.loops {
		for v := range l.refs {
			if it := lv.iv[v]; it.first < l.start && it.last < l.end {
				it.last = l.end
			}
		}
	}
	var ivs []*interval
	for _, it := range lv.iv {
		ivs = append(ivs, it)
	}
	for _, p := range m.Params {
		lv.iv[p].first = -1
	}
	sort.Slice(ivs, func(i, j int) bool {
		if ivs[i].first != ivs[j].first {
			return ivs[i].first < ivs[j].first
		}
		return ivs[i].v.ID < ivs[j].v.ID
	})
	used := make([]bool, 0, 256)
	// A cell keeps one type for the whole method: a short cell holds only
	// shorts, a pair that held an int holds only ints (at the same first
	// cell), a reference cell only references. So each cell, or int pair,
	// is one typed local of the Java printer, and javac's slots are the
	// method's cells: the converter, which maps class-file locals to JCVM
	// cells, then needs no more than this allocation.
	typ := make([]cellType, 0, 256)
	var active []*interval
	cells := 0
	take := func(k Kind) int {
		n := k.Cells()
		for s := 0; ; s++ {
			free := true
			for j := s; j < s+n; j++ {
				if j < len(used) && used[j] {
					free = false
					break
				}
			}
			if !free || !fits(typ, s, k) {
				continue
			}
			for len(used) < s+n {
				used = append(used, false)
				typ = append(typ, cellNone)
			}
			for j := s; j < s+n; j++ {
				used[j] = true
			}
			switch k {
			case KInt:
				typ[s], typ[s+1] = cellIntLo, cellIntHi
			case KRef:
				typ[s] = cellRef
			default:
				typ[s] = cellShort
			}
			return s
		}
	}
	// Parameters first, in order.
	for _, p := range m.Params {
		p.Slot = take(p.Kind)
		active = append(active, lv.iv[p])
	}
	params := len(used)
	for _, it := range ivs {
		if it.first < 0 {
			continue
		}
		// Free what died before this definition (a use in the defining
		// statement itself is read before the store).
		keep := active[:0]
		for _, a := range active {
			if a.last <= it.first && a.v != it.v {
				for k := a.v.Slot; k < a.v.Slot+a.v.Kind.Cells(); k++ {
					used[k] = false
				}
				continue
			}
			keep = append(keep, a)
		}
		active = keep
		it.v.Slot = take(it.v.Kind)
		active = append(active, it)
		if len(used) > cells {
			cells = len(used)
		}
	}
	if params > cells {
		cells = params
	}
	m.Locals = cells - params
	return nil
}

// cellType is what a local cell has held so far in a method.
type cellType uint8

const (
	cellNone  cellType = iota
	cellShort          // a short
	cellIntLo          // the first cell of an int
	cellIntHi          // the second cell of an int
	cellRef            // an array reference
)

// fits reports whether a value of kind k may take the cells from s on,
// given the types they held before.
func fits(typ []cellType, s int, k Kind) bool {
	at := func(j int) cellType {
		if j < len(typ) {
			return typ[j]
		}
		return cellNone
	}
	switch k {
	case KInt:
		a, b := at(s), at(s+1)
		return a == cellNone && b == cellNone || a == cellIntLo && b == cellIntHi
	case KRef:
		return at(s) == cellNone || at(s) == cellRef
	}
	return at(s) == cellNone || at(s) == cellShort
}
