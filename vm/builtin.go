package vm

import (
	"fmt"
	"strings"

	"github.com/lowent/lowentc/lang"
)

func (c *fcomp) builtinWord(e *lang.CallExpr) wordFn {
	b := builtinOf(e)
	switch b.ID {
	case lang.BLen:
		arg := lang.Unparen(e.Args[0])
		if at, ok := arg.Type().(*lang.ArrayType); ok {
			if _, isName := arg.(*lang.Ident); isName {
				n := uint64(at.Len)
				return func(*frame) uint64 { return n }
			}
		}
		a, s := c.arr(arg), stride(arg.Type())
		return func(fr *frame) uint64 { return uint64(len(a(fr)) / s) }
	case lang.BLoad:
		return c.load(e)
	case lang.BClmulLo, lang.BClmulHi:
		x, y := c.word(e.Args[0]), c.word(e.Args[1])
		if b.ID == lang.BClmulLo {
			return func(fr *frame) uint64 { a := x(fr); return lang.ClmulLo(a, y(fr)) }
		}
		return func(fr *frame) uint64 { a := x(fr); return lang.ClmulHi(a, y(fr)) }
	case lang.BSelect:
		// Both arms are evaluated, as a branch-free target computes them.
		cond, x, y := c.word(e.Args[0]), c.word(e.Args[1]), c.word(e.Args[2])
		return func(fr *frame) uint64 {
			k, a, b := cond(fr), x(fr), y(fr)
			if k != 0 {
				return a
			}
			return b
		}
	case lang.BUncheckedGet:
		a, idx := c.arr(e.Args[0]), c.word(e.Args[1])
		pos := e.Pos
		return func(fr *frame) uint64 {
			x := a(fr)
			i := idx(fr)
			if i >= uint64(len(x)) {
				trap(pos, "unchecked_get: index %d out of range for length %d", i, len(x))
			}
			return x[i]
		}
	}
	panic(fmt.Sprintf("BUG: vm: %v: builtin %s is not a word expression", e.Pos, b.Name))
}

func (c *fcomp) builtinArr(e *lang.CallExpr) arrFn {
	b := builtinOf(e)
	switch b.ID {
	case lang.BRest:
		a, size := c.arr(e.Args[0]), c.word(e.Args[1])
		s := uint64(stride(e.Args[0].Type()))
		pos := e.Pos
		return func(fr *frame) []uint64 {
			x := a(fr)
			n := size(fr)
			if n == 0 {
				trap(pos, "rest: chunk size 0")
			}
			count := uint64(len(x)) / s
			return x[count/n*n*s:]
		}
	case lang.BView:
		// Views are of words only (the checker says so): one word per element.
		a, lo, hi := c.arr(e.Args[0]), c.word(e.Args[1]), c.word(e.Args[2])
		pos, note := e.Pos, bugNote(e.Checked)
		return func(fr *frame) []uint64 {
			x := a(fr)
			i := lo(fr)
			j := hi(fr)
			if i > j || j > uint64(len(x)) {
				trap(pos, "range %d..%d out of bounds for length %d%s", i, j, len(x), note)
			}
			return x[i:j:j]
		}
	case lang.BUncheckedGet:
		a, idx := c.arr(e.Args[0]), c.word(e.Args[1])
		s := uint64(stride(e.Args[0].Type()))
		pos := e.Pos
		return func(fr *frame) []uint64 {
			x := a(fr)
			i := idx(fr)
			if n := uint64(len(x)) / s; i >= n {
				trap(pos, "unchecked_get: index %d out of range for length %d", i, n)
			}
			return x[i*s : (i+1)*s : (i+1)*s]
		}
	}
	panic(fmt.Sprintf("BUG: vm: %v: builtin %s is not an array expression", e.Pos, b.Name))
}

// builtinStmt is a builtin called for its effect.
func (c *fcomp) builtinStmt(e *lang.CallExpr) stmtFn {
	b := builtinOf(e)
	switch b.ID {
	case lang.BStore:
		return c.store(e)
	case lang.BUncheckedSet:
		return c.uncheckedSet(e)
	case lang.BTrace:
		return c.trace(e)
	case lang.BAESEnc, lang.BAESEncLast, lang.BSHA256Rnds2, lang.BSHA256Msg1, lang.BSHA256Msg2, lang.BMulW:
		t := c.tuple(e)
		return func(fr *frame) bool {
			t(fr)
			return false
		}
	}
	if isArrayish(e.Type()) {
		a := c.arr(e)
		return func(fr *frame) bool {
			a(fr)
			return false
		}
	}
	w := c.builtinWord(e)
	return func(fr *frame) bool {
		w(fr)
		return false
	}
}

func builtinOf(e *lang.CallExpr) *lang.Builtin {
	if e.Builtin == nil {
		panic(fmt.Sprintf("BUG: vm: %v: call of %s is unresolved", e.Pos, e.Name))
	}
	return e.Builtin
}

//go:noinline
func trapBytes(pos lang.Pos, name string, off, n uint64, length int, note string) {
	trap(pos, "%s: %d bytes at offset %d out of range for length %d%s", name, n, off, length, note)
}

// load is load_{le,be}{16,32,64}(a, off).
func (c *fcomp) load(e *lang.CallExpr) wordFn {
	b := e.Builtin
	a, off := c.arr(e.Args[0]), c.word(e.Args[1])
	nb := uint64(b.Bits / 8)
	pos, note, name := e.Pos, bugNote(e.Checked), b.Name
	if b.BigEndian {
		return func(fr *frame) uint64 {
			x := a(fr)
			o := off(fr)
			if o > uint64(len(x)) || uint64(len(x))-o < nb {
				trapBytes(pos, name, o, nb, len(x), note)
			}
			var v uint64
			for _, byt := range x[o : o+nb] {
				v = v<<8 | byt
			}
			return v
		}
	}
	return func(fr *frame) uint64 {
		x := a(fr)
		o := off(fr)
		if o > uint64(len(x)) || uint64(len(x))-o < nb {
			trapBytes(pos, name, o, nb, len(x), note)
		}
		var v uint64
		for k, byt := range x[o : o+nb] {
			v |= byt << (8 * uint(k))
		}
		return v
	}
}

// store is store_{le,be}{16,32,64}(a, off, v): arguments first, then the check.
func (c *fcomp) store(e *lang.CallExpr) stmtFn {
	b := e.Builtin
	a, off, val := c.arr(e.Args[0]), c.word(e.Args[1]), c.word(e.Args[2])
	nb := uint64(b.Bits / 8)
	pos, note, name, be := e.Pos, bugNote(e.Checked), b.Name, b.BigEndian
	return func(fr *frame) bool {
		x := a(fr)
		o := off(fr)
		v := val(fr)
		if o > uint64(len(x)) || uint64(len(x))-o < nb {
			trapBytes(pos, name, o, nb, len(x), note)
		}
		dst := x[o : o+nb]
		for k := range dst {
			shift := 8 * uint(k)
			if be {
				shift = 8 * uint(len(dst)-1-k)
			}
			dst[k] = v >> shift & 0xff
		}
		return false
	}
}

// uncheckedSet is unchecked_set(a, i, v). The VM checks it anyway: the
// reference must never write out of bounds.
func (c *fcomp) uncheckedSet(e *lang.CallExpr) stmtFn {
	a, idx := c.arr(e.Args[0]), c.word(e.Args[1])
	pos := e.Pos
	if s := stride(e.Args[0].Type()); s != 1 {
		val := c.arr(e.Args[2])
		return func(fr *frame) bool {
			x := a(fr)
			i := idx(fr)
			v := val(fr)
			if n := uint64(len(x) / s); i >= n {
				trap(pos, "unchecked_set: index %d out of range for length %d", i, n)
			}
			copy(x[i*uint64(s):], v)
			return false
		}
	}
	val := c.word(e.Args[2])
	return func(fr *frame) bool {
		x := a(fr)
		i := idx(fr)
		v := val(fr)
		if i >= uint64(len(x)) {
			trap(pos, "unchecked_set: index %d out of range for length %d", i, len(x))
		}
		x[i] = v
		return false
	}
}

// trace prints its word arguments in hex, zero-padded to their width,
// space-separated, one line per call. (An array argument, should the checker
// ever allow one, prints each of its elements.)
func (c *fcomp) trace(e *lang.CallExpr) stmtFn {
	type item struct {
		w      wordFn
		a      arrFn
		digits int
	}
	items := make([]item, len(e.Args))
	for i, x := range e.Args {
		t := x.Type()
		if isArrayish(t) {
			items[i].a = c.arr(x)
			t = leafType(t)
		} else {
			items[i].w = c.word(x)
		}
		items[i].digits = (bitsOf(t) + 3) / 4
	}
	return func(fr *frame) bool {
		var sb strings.Builder
		for i, it := range items {
			if i > 0 {
				sb.WriteByte(' ')
			}
			if it.w != nil {
				fmt.Fprintf(&sb, "%0*x", it.digits, it.w(fr))
				continue
			}
			for k, v := range it.a(fr) {
				if k > 0 {
					sb.WriteByte(' ')
				}
				fmt.Fprintf(&sb, "%0*x", it.digits, v)
			}
		}
		if fr.m.trace != nil {
			sb.WriteByte('\n')
			fr.m.trace.Write([]byte(sb.String())) //nolint:errcheck // tracing is best effort
		}
		return false
	}
}
