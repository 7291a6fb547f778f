package jcvm

// Constructors of JIR expressions that fold constants and drop identities,
// so the printers see small trees.

func sconst(v int32) *EConst { return &EConst{K: KShort, V: int32(int16(v))} }
func iconst(v int32) *EConst { return &EConst{K: KInt, V: v} }

func kconst(k Kind, v int64) *EConst {
	if k == KInt {
		return iconst(int32(v))
	}
	return sconst(int32(v))
}

func isConst(e Expr, v int32) bool {
	c, ok := e.(*EConst)
	return ok && c.V == v
}

// bin builds X op Y of kind k, folding constant operands.
func bin(op BinOp, k Kind, x, y Expr) Expr {
	// The JCVM's operations take operands of their own kind: an int
	// operand of a short op needs i2s, a short one of an int op s2i.
	x, y = conv(x, k), conv(y, k)
	cx, okx := x.(*EConst)
	cy, oky := y.(*EConst)
	if okx && oky {
		return kconst(k, int64(foldBin(op, k, cx.V, cy.V)))
	}
	switch op {
	case OAdd, OOr, OXor:
		if okx && cx.V == 0 {
			return y
		}
		if oky && cy.V == 0 {
			return x
		}
	case OSub, OShl, OShr, OUshr:
		if oky && cy.V == 0 {
			return x
		}
	case OAnd:
		if (okx && cx.V == 0) || (oky && cy.V == 0) {
			return kconst(k, 0)
		}
		if oky && cy.V == -1 {
			return x
		}
		if okx && cx.V == -1 {
			return y
		}
	}
	return &EBin{Op: op, K: k, X: x, Y: y}
}

// foldBin computes op on constants with the JCVM's semantics.
func foldBin(op BinOp, k Kind, x, y int32) int32 {
	var r int32
	switch op {
	case OAdd:
		r = x + y
	case OSub:
		r = x - y
	case OMul:
		r = x * y
	case OAnd:
		r = x & y
	case OOr:
		r = x | y
	case OXor:
		r = x ^ y
	case OShl:
		r = x << uint(y&31)
	case OShr:
		r = x >> uint(y&31)
	case OUshr:
		r = int32(uint32(x) >> uint(y&31))
	case ODiv, ORem:
		if y == 0 {
			return 0 // never folded: the lowering only divides by constants > 0
		}
		if op == ODiv {
			r = x / y
		} else {
			r = x % y
		}
	}
	if k == KShort {
		r = int32(int16(r))
	}
	return r
}

// conv converts e to kind k: short to int sign-extends, int to short truncates.
func conv(e Expr, k Kind) Expr {
	if e.Kind() == k {
		return e
	}
	if c, ok := e.(*EConst); ok {
		return kconst(k, int64(c.V))
	}
	// s2i(i2s(x)) is x when x is known to fit a short: a 0/1 flag.
	if in, ok := e.(*EConv); ok && in.X.Kind() == k && !in.B && isFlag(in.X) {
		return in.X
	}
	return &EConv{To: k, X: e}
}

// isFlag reports whether e is known to be 0 or 1.
func isFlag(e Expr) bool {
	switch x := e.(type) {
	case *EConst:
		return x.V == 0 || x.V == 1
	case *ECond:
		return isFlag(x.T) && isFlag(x.F)
	case *EBin:
		switch x.Op {
		case OAnd:
			return isFlag(x.X) || isFlag(x.Y)
		case OOr, OXor:
			return isFlag(x.X) && isFlag(x.Y)
		case OUshr:
			c, ok := x.Y.(*EConst)
			return ok && x.K == KInt && c.V == 31
		}
	case *EConv:
		return !x.B && isFlag(x.X)
	}
	return false
}

// flag returns the 0/1 value of a comparison.
func flag(c Cond) Expr { return &ECond{C: c, T: sconst(1), F: sconst(0)} }

// condOf returns e != 0 as a comparison, looking through flag.
func condOf(e Expr) Cond {
	if c, ok := e.(*ECond); ok && isConst(c.T, 1) && isConst(c.F, 0) {
		return c.C
	}
	return Cond{Rel: RNe, X: e, Y: kconst(e.Kind(), 0)}
}

// minOf is the sign bit of kind k, flipped to compare unsigned values.
func minOf(k Kind) Expr {
	if k == KInt {
		return iconst(-1 << 31)
	}
	return sconst(-1 << 15)
}
