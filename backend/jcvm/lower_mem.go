package jcvm

import (
	"github.com/lowent/lowentc/ir"
)

// Memory: an index or byte offset is a u32 (an int at W=32, two limbs at
// W=16); Java Card arrays hold at most 32,767 elements and the IR only makes
// accesses it proved or checked in bounds, so the low 16 bits are the index.

// index returns the short index of an access from its index limbs.
func (l *lowerer) index(args []*ir.Value) Expr {
	return conv(l.get(args[0]), KShort)
}

// at offsets a short index into a parameter array by its start.
func at(a *Arr, i Expr) Expr {
	if a.Off != nil {
		return bin(OAdd, KShort, &EVar{V: a.Off}, i)
	}
	return i
}

// plus is i + k for a short index.
func plus(i Expr, k int) Expr { return bin(OAdd, KShort, i, sconst(int32(k))) }

// load reads element i of a (an IR array of type t's elements).
func (l *lowerer) load(a *Arr, ia *ir.Array, i Expr, t ir.Type) Expr {
	if a.Wide {
		i = l.atom(bin(OShl, KShort, i, sconst(1)))
		hi := conv(&ELoad{A: a, I: at(a, i)}, KInt)
		lo := bin(OAnd, KInt, conv(&ELoad{A: a, I: at(a, plus(i, 1))}, KInt), iconst(0xffff))
		return bin(OOr, KInt, bin(OShl, KInt, hi, iconst(16)), lo)
	}
	e := Expr(&ELoad{A: a, I: at(a, i)})
	if a.Elem == EByte && t == ir.U8 {
		e = bin(OAnd, KShort, e, sconst(0xff))
	}
	return e
}

// store writes x (of IR type t) to element i of a.
func (l *lowerer) store(a *Arr, i, x Expr, t ir.Type) {
	if a.Wide {
		i = l.atom(bin(OShl, KShort, i, sconst(1)))
		x = l.atom(x)
		l.emit(&SStore{A: a, I: at(a, i), X: conv(bin(OUshr, KInt, x, iconst(16)), KShort)})
		l.emit(&SStore{A: a, I: at(a, plus(i, 1)), X: conv(x, KShort)})
		return
	}
	l.emit(&SStore{A: a, I: at(a, i), X: x})
}

// byteAt reads byte k of a byte array as 0..255.
func byteAt(a *Arr, i Expr, k int) Expr {
	return bin(OAnd, KShort, &ELoad{A: a, I: at(a, plus(i, k))}, sconst(0xff))
}

// load16 reads two bytes at i, i+1 as a short (little-endian or big-endian).
func load16(a *Arr, i Expr, le bool) Expr {
	first, second := 1, 0 // the byte that goes high, the one that goes low
	if !le {
		first, second = 0, 1
	}
	// The high byte's sign extension is shifted out of the short.
	hi := bin(OShl, KShort, &ELoad{A: a, I: at(a, plus(i, first))}, sconst(8))
	return bin(OOr, KShort, hi, byteAt(a, i, second))
}

// loadBytes lowers loadle/loadbe.
func (l *lowerer) loadBytes(in *ir.Instr, t ir.Type) Expr {
	a := l.arr(in.Arr)
	i := l.index(in.Args)
	le := in.Op == ir.OpLoadLE
	switch in.Aux {
	case 8:
		return byteAt(a, i, 0)
	case 16:
		i = l.atom(i)
		return load16(a, i, le)
	case 32:
		i = l.atom(i)
		lo, hi := load16(a, i, le), load16(a, plus(i, 2), le)
		if !le {
			lo, hi = hi, lo
		}
		return bin(OOr, KInt, bin(OShl, KInt, conv(hi, KInt), iconst(16)), bin(OAnd, KInt, conv(lo, KInt), iconst(0xffff)))
	}
	l.fail("%d-bit byte-order access", in.Aux)
	return nil
}

// storeBytes lowers storele/storebe: one bastore per byte.
func (l *lowerer) storeBytes(in *ir.Instr) {
	a := l.arr(in.Arr)
	n := len(in.Args) - 1
	i := l.index(in.Args[:n])
	x := l.get(in.Args[n])
	nb := int(in.Aux / 8)
	if nb > 1 {
		i, x = l.atom(i), l.atom(x)
	}
	k := x.Kind()
	for j := 0; j < nb; j++ {
		shift := 8 * j
		if in.Op == ir.OpStoreBE {
			shift = 8 * (nb - 1 - j)
		}
		b := bin(OShr, k, x, kconst(k, int64(shift)))
		l.emit(&SStore{A: a, I: at(a, plus(i, j)), X: conv(b, KShort)})
	}
}
