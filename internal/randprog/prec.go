package randprog

import (
	"fmt"
	"strings"
)

// Expressions are printed with only the parentheses precedence needs (plus
// a few redundant ones): deep parenthesisation is slow to parse and hides
// the precedence table from the tests. Levels follow docs/language.md,
// tightest first; 0 is a primary expression.
const (
	precPrimary = 0
	precUnary   = 1
	precCast    = 2
	precCmp     = 9
)

var binPrec = map[string]int{
	"*": 3, "/": 3, "%": 3,
	"+": 4, "-": 4,
	"<<": 5, ">>": 5, "<<<": 5, ">>>": 5,
	"&": 6, "^": 7, "|": 8,
	"==": 9, "!=": 9, "<": 9, "<=": 9, ">": 9, ">=": 9,
	"&&": 10, "||": 11,
}

// operand prints e where an expression of level at most maxPrec may stand.
func (g *gen) operand(e ex, maxPrec int) string {
	if e.prec > maxPrec || (e.prec > precPrimary && g.chance(0.05)) {
		return "(" + e.s + ")"
	}
	return e.s
}

// bin builds `l op r`. Operators group to the left, and comparisons do not
// chain.
func (g *gen) bin(op string, l, r ex) ex {
	p, ok := binPrec[op]
	if !ok {
		panic("BUG: randprog: unknown operator " + op)
	}
	lmax := p
	if p == precCmp {
		lmax = p - 1
	}
	e := join(g.operand(l, lmax)+" "+op+" "+g.operand(r, p-1), l, r)
	e.prec = p
	return e
}

// un builds `op x` for - ~ !.
func (g *gen) un(op string, x ex) ex {
	s := g.operand(x, precUnary)
	if strings.HasPrefix(s, "-") {
		s = "(" + s + ")"
	}
	e := join(op+s, x)
	e.prec = precUnary
	return e
}

// as builds `x as uBITS` (or `x as bool`).
func (g *gen) as(x ex, to string) ex {
	e := join(fmt.Sprintf("%s as %s", g.operand(x, precCast), to), x)
	e.prec = precCast
	return e
}

// asWord builds `x as uBITS`.
func (g *gen) asWord(x ex, bits int) ex { return g.as(x, fmt.Sprintf("u%d", bits)) }

// litEx is an untyped literal of value v.
func (g *gen) litEx(v uint64) ex { return ex{s: g.fmtLit(v), untyped: true, konst: true} }

// intEx is an untyped decimal literal.
func intEx(v int) ex { return ex{s: fmt.Sprint(v), untyped: true, konst: true} }
