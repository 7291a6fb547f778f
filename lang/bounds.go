package lang

import (
	"math/bits"
	"strconv"

	"github.com/lowent/lowentc/sem"
)

// The bounds analysis keeps, for every word expression, an interval that
// contains every value it can take at run time, and for every array or
// slice expression an interval containing its length. It is deliberately
// simple and sound:
//
//   - constants are exact; a word of type uN is in [0, 2^N-1];
//   - only immutable names carry more: let-bound words (the interval of
//     their value), loop indices (from the loop bounds), parameters bounded
//     by requires; a var, assigned anywhere, has only its type's range;
//   - operators map intervals without wrapping, or give up to the type's
//     range when the result might wrap;
//   - a slice's length comes from requires (Symbol.MinLen/MaxLen), rest()
//     and chunk views; a loop `for i in LO..len(s)` records that i < len(s),
//     which proves s[i] and t[i] for every t of the same length (requires
//     len(s) == len(t)).

// interval is the closed range [lo, hi] of unsigned values.
type interval struct{ lo, hi uint64 }

// maxLen is the largest length of a slice (lengths are u32).
const maxLen = 1<<32 - 1

// fullRange is every value of type t.
func fullRange(t Type) interval { return interval{0, maskOf(t)} }

// rangeOf returns an interval containing every value of the checked word or
// bool expression e in the current function.
func (c *checker) rangeOf(e Expr) interval {
	if e == nil {
		return interval{0, ^uint64(0)}
	}
	t := e.Type()
	full := fullRange(t)
	if v, ok := c.constWord(e); ok {
		return interval{v, v}
	}
	r := c.rangeOf0(e, t)
	if r.lo > r.hi || r.hi > full.hi {
		return full
	}
	return r
}

func (c *checker) rangeOf0(e Expr, t Type) interval {
	full := fullRange(t)
	switch x := e.(type) {
	case *ParenExpr:
		return c.rangeOf(x.X)
	case *Ident:
		if c.cur != nil && x.Sym != nil {
			if r, ok := c.cur.ranges[x.Sym]; ok {
				return r
			}
		}
	case *BinaryExpr:
		if x.Op.IsCompare() || x.Op.IsLogical() {
			return interval{0, 1}
		}
		return binRange(x.Op, c.rangeOf(x.L), c.rangeOf(x.R), t)
	case *UnaryExpr:
		return unaryRange(x.Op, c.rangeOf(x.X), t)
	case *CastExpr:
		return castRange(c.rangeOf(x.X), t)
	case *IndexExpr:
		if cands := c.constCandidates(x); cands != nil {
			r := interval{^uint64(0), 0}
			for _, v := range cands {
				if v.Elems != nil {
					return full
				}
				r.lo, r.hi = min(r.lo, v.Word), max(r.hi, v.Word)
			}
			return r
		}
	case *CallExpr:
		if x.Builtin != nil {
			switch x.Builtin.ID {
			case BLen:
				if len(x.Args) == 1 {
					return c.lenRange(x.Args[0])
				}
			case BSelect:
				if len(x.Args) == 3 {
					a, b := c.rangeOf(x.Args[1]), c.rangeOf(x.Args[2])
					return interval{min(a.lo, b.lo), max(a.hi, b.hi)}
				}
			}
		}
	}
	return full
}

// binRange is the interval of `a op b` for operands in a and b and result
// type t, or t's full range when the result may wrap.
func binRange(op BinOp, a, b interval, t Type) interval {
	full := fullRange(t)
	if a.lo == a.hi && b.lo == b.hi && a.hi <= full.hi {
		// Both operands known exactly: so is the result (the shift
		// amount's own type does not matter to evalBinary).
		if v, ok := evalBinary(op, a.lo, b.lo, t); ok {
			return interval{v, v}
		}
	}
	n := uint64(64)
	if w, ok := t.(*WordType); ok {
		n = uint64(w.Bits)
	}
	switch op {
	case sem.OpAdd:
		hi, carry := bits.Add64(a.hi, b.hi, 0)
		if carry == 0 && hi <= full.hi {
			return interval{a.lo + b.lo, hi}
		}
	case sem.OpSub:
		if a.lo >= b.hi {
			return interval{a.lo - b.hi, a.hi - b.lo}
		}
	case sem.OpMul:
		h, lo := bits.Mul64(a.hi, b.hi)
		if h == 0 && lo <= full.hi {
			return interval{a.lo * b.lo, lo}
		}
	case sem.OpDiv:
		if b.lo > 0 {
			return interval{a.lo / b.hi, a.hi / b.lo}
		}
		return interval{0, a.hi}
	case sem.OpRem:
		if b.lo > 0 && a.hi < b.lo {
			return a
		}
		if b.hi == 0 {
			return interval{0, 0}
		}
		return interval{0, min(a.hi, b.hi-1)}
	case sem.OpAnd:
		return interval{0, min(a.hi, b.hi)}
	case sem.OpOr:
		return interval{max(a.lo, b.lo), ones(max(a.hi, b.hi))}
	case sem.OpXor:
		return interval{0, ones(max(a.hi, b.hi))}
	case sem.OpShl:
		if b.hi < n && bits.LeadingZeros64(a.hi) >= int(b.hi) && a.hi<<b.hi <= full.hi {
			return interval{a.lo << b.lo, a.hi << b.hi}
		}
	case sem.OpShr:
		lo := uint64(0)
		if b.hi < n {
			lo = a.lo >> b.hi
		}
		hi := uint64(0)
		if b.lo < n {
			hi = a.hi >> b.lo
		}
		return interval{lo, hi}
	case sem.OpRotl, sem.OpRotr:
		if a.hi == 0 {
			return interval{0, 0}
		}
	}
	return full
}

// ones is the smallest 2^k-1 at least x.
func ones(x uint64) uint64 {
	if x == 0 {
		return 0
	}
	return ^uint64(0) >> uint(bits.LeadingZeros64(x))
}

func unaryRange(op UnOp, a interval, t Type) interval {
	full := fullRange(t)
	switch op {
	case sem.OpBitNot:
		if a.hi <= full.hi {
			return interval{full.hi - a.hi, full.hi - a.lo}
		}
	case sem.OpNeg:
		if a.hi == 0 {
			return interval{0, 0}
		}
	case sem.OpLogNot:
		return interval{0, 1}
	}
	return full
}

// castRange converts an interval to type t: kept when it fits, else t's range.
func castRange(a interval, t Type) interval {
	if a.hi <= maskOf(t) {
		return a
	}
	return fullRange(t)
}

// constCandidates returns every value a read of a constant array may give:
// for CONST[i][j] the elements selected by the possible values of i and j,
// or nil when e is not rooted in a constant.
func (c *checker) constCandidates(e Expr) []*ConstVal {
	switch x := e.(type) {
	case *ParenExpr:
		return c.constCandidates(x.X)
	case *Ident:
		if x.Sym != nil && x.Sym.Kind == SymConst && x.Sym.Const != nil && x.Sym.Const.Val != nil {
			return []*ConstVal{x.Sym.Const.Val}
		}
	case *IndexExpr:
		parents := c.constCandidates(x.X)
		if parents == nil {
			return nil
		}
		r := c.rangeOf(x.Index)
		var out []*ConstVal
		for _, p := range parents {
			for i := r.lo; i <= r.hi && i < uint64(len(p.Elems)); i++ {
				out = append(out, p.Elems[i])
			}
		}
		if out == nil {
			return nil
		}
		return out
	}
	return nil
}

// lenRange returns an interval containing the length of an array or slice
// expression.
func (c *checker) lenRange(e Expr) interval {
	if e == nil {
		return interval{0, maxLen}
	}
	if at, ok := e.Type().(*ArrayType); ok {
		return interval{uint64(at.Len), uint64(at.Len)}
	}
	switch x := strip(e).(type) {
	case *Ident:
		if s := x.Sym; s != nil {
			hi := uint64(maxLen)
			if s.MaxLen >= 0 {
				hi = uint64(s.MaxLen)
			}
			return interval{uint64(max(s.MinLen, 0)), hi}
		}
	case *CallExpr:
		if x.Builtin != nil && x.Builtin.ID == BView && len(x.Args) == 3 {
			lo, hi := c.rangeOf(x.Args[1]), c.rangeOf(x.Args[2])
			n := interval{0, hi.hi}
			if hi.lo > lo.hi {
				n.lo = hi.lo - lo.hi
			}
			if hi.hi >= lo.lo {
				n.hi = hi.hi - lo.lo
			}
			return n
		}
		if x.Builtin != nil && x.Builtin.ID == BRest && len(x.Args) == 2 {
			n, ok := c.constWord(x.Args[1])
			if !ok || n == 0 {
				break
			}
			src := c.lenRange(x.Args[0])
			if src.lo == src.hi {
				return interval{src.lo % n, src.lo % n}
			}
			return interval{0, min(n-1, src.hi)}
		}
	}
	return interval{0, maxLen}
}

// lenKey names the length of a slice expression symbolically, so that two
// expressions with the same key have the same length; "" when unknown.
func (c *checker) lenKey(e Expr) string {
	x, ok := strip(e).(*Ident)
	if !ok || x.Sym == nil || c.cur == nil {
		return ""
	}
	if _, ok := x.Sym.Type.(*SliceType); !ok {
		return ""
	}
	return "len#" + strconv.Itoa(c.symID(c.lenRoot(x.Sym)))
}

// lenRoot is the representative of a slice's equal-length class.
func (c *checker) lenRoot(s *Symbol) *Symbol {
	for {
		p, ok := c.cur.lenRep[s]
		if !ok || p == s {
			return s
		}
		s = p
	}
}

// unionLen records that two slices of the current function have equal lengths.
func (c *checker) unionLen(a, b *Symbol) {
	ra, rb := c.lenRoot(a), c.lenRoot(b)
	if ra != rb {
		c.cur.lenRep[rb] = ra
	}
}

// indexProven reports whether x[idx] is in bounds whenever it runs.
func (c *checker) indexProven(x, idx Expr) bool {
	if c.rangeOf(idx).hi < c.lenRange(x).lo {
		return true
	}
	if id, ok := strip(idx).(*Ident); ok && id.Sym != nil {
		if k := c.cur.loopLen[id.Sym]; k != "" && k == c.lenKey(x) {
			return true
		}
	}
	return false
}

// bytesProven reports whether bytes off..off+n-1 of x are in bounds.
func (c *checker) bytesProven(x, off Expr, n uint64) bool {
	l := c.lenRange(x).lo
	return l >= n && c.rangeOf(off).hi <= l-n
}

// bindFacts records what is known about an immutable local from its value.
func (c *checker) bindFacts(s *Symbol, v Expr) {
	switch s.Type.(type) {
	case *WordType:
		c.cur.ranges[s] = c.rangeOf(v)
	case *SliceType:
		r := c.lenRange(v)
		s.MinLen, s.MaxLen = int64(r.lo), int64(r.hi)
		if r.hi == maxLen {
			s.MaxLen = -1
		}
		if id, ok := strip(v).(*Ident); ok && id.Sym != nil {
			if _, ok := id.Sym.Type.(*SliceType); ok {
				c.unionLen(id.Sym, s)
			}
		}
	}
}

// loopFacts records the range of a loop index, and that it is below
// len(s) when the upper bound is len(s).
func (c *checker) loopFacts(s *Symbol, lo, hi Expr) {
	l, h := c.rangeOf(lo), c.rangeOf(hi)
	if h.hi == 0 {
		// The loop never runs: any range is true of i.
		c.cur.ranges[s] = interval{0, 0}
	} else {
		c.cur.ranges[s] = interval{min(l.lo, h.hi-1), h.hi - 1}
	}
	if call, ok := strip(hi).(*CallExpr); ok && call.Builtin != nil && call.Builtin.ID == BLen && len(call.Args) == 1 {
		if k := c.lenKey(call.Args[0]); k != "" {
			c.cur.loopLen[s] = k
		}
	}
}

// chunkIndexFacts bounds the chunk index of a chunk loop over src.
func (c *checker) chunkIndexFacts(s *Symbol, src Expr, n uint64) {
	chunks := c.lenRange(src).hi / n
	if chunks == 0 {
		c.cur.ranges[s] = interval{0, 0}
	} else {
		c.cur.ranges[s] = interval{0, chunks - 1}
	}
}

// chunkLens decides whether the sources of a chunk loop have equal lengths:
// proven (nothing to do), different (an error), or unknown (checked at run
// time).
func (c *checker) chunkLens(s *ForChunksStmt) {
	s.CheckLens = false
	first := s.Sources[0]
	a := c.lenRange(first)
	for _, src := range s.Sources[1:] {
		b := c.lenRange(src)
		switch {
		case a.lo == a.hi && b.lo == b.hi && a.lo == b.lo:
		case a.hi < b.lo || b.hi < a.lo:
			c.errorf(src.Position(), "chunk sources have different lengths: %s has %s, %s has %s",
				exprString(first), lenText(a), exprString(src), lenText(b))
			return
		case c.lenKey(first) != "" && c.lenKey(first) == c.lenKey(src):
		default:
			s.CheckLens = true
		}
	}
	if s.CheckLens {
		c.trapSite(s.Pos, "chunk source lengths not proven equal (checked at run time)")
	}
}

func lenText(r interval) string {
	if r.lo == r.hi {
		return strconv.FormatUint(r.lo, 10)
	}
	if r.hi == maxLen {
		return "at least " + strconv.FormatUint(r.lo, 10)
	}
	return strconv.FormatUint(r.lo, 10) + " to " + strconv.FormatUint(r.hi, 10)
}
