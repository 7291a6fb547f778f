package lang

import (
	"fmt"
	"strings"
)

// Type is a Lowent type.
type Type interface {
	String() string
	isType()
}

// WordType is an unsigned word: u8, u16, u32 or u64. Arithmetic wraps.
type WordType struct{ Bits int }

// BoolType is bool.
type BoolType struct{}

// ArrayType is a fixed array `[N]T`. Arrays are values: `let`/`var`/`=`
// copy them; parameters receive them by reference (read-only unless `mut`).
type ArrayType struct {
	Len  int
	Elem Type
}

// SliceType is `[]T`, allowed only for parameters; T is a word type.
type SliceType struct{ Elem Type }

// TupleType is the result of a call with several results.
type TupleType struct{ Elems []Type }

// UntypedInt is the type of an integer constant expression before its context
// gives it a word type.
type UntypedInt struct{}

var (
	U8   = &WordType{8}
	U16  = &WordType{16}
	U32  = &WordType{32}
	U64  = &WordType{64}
	Bool = &BoolType{}
	// Untyped is the single UntypedInt value.
	Untyped = &UntypedInt{}
)

// WordOf returns the word type of the given width.
func WordOf(bits int) *WordType {
	switch bits {
	case 8:
		return U8
	case 16:
		return U16
	case 32:
		return U32
	case 64:
		return U64
	}
	panic(fmt.Sprintf("BUG: no word type of %d bits", bits))
}

func (t *WordType) String() string  { return fmt.Sprintf("u%d", t.Bits) }
func (*BoolType) String() string    { return "bool" }
func (t *ArrayType) String() string { return fmt.Sprintf("[%d]%s", t.Len, t.Elem) }
func (t *SliceType) String() string { return "[]" + t.Elem.String() }
func (*UntypedInt) String() string  { return "untyped integer" }
func (t *TupleType) String() string {
	s := make([]string, len(t.Elems))
	for i, e := range t.Elems {
		s[i] = e.String()
	}
	return "(" + strings.Join(s, ", ") + ")"
}

func (*WordType) isType()   {}
func (*BoolType) isType()   {}
func (*ArrayType) isType()  {}
func (*SliceType) isType()  {}
func (*TupleType) isType()  {}
func (*UntypedInt) isType() {}

// Mask returns the all-ones value of a word type.
func (t *WordType) Mask() uint64 {
	if t.Bits == 64 {
		return ^uint64(0)
	}
	return 1<<uint(t.Bits) - 1
}

// Identical reports whether two types are the same type.
func Identical(a, b Type) bool {
	switch a := a.(type) {
	case *WordType:
		b, ok := b.(*WordType)
		return ok && a.Bits == b.Bits
	case *BoolType:
		_, ok := b.(*BoolType)
		return ok
	case *ArrayType:
		b, ok := b.(*ArrayType)
		return ok && a.Len == b.Len && Identical(a.Elem, b.Elem)
	case *SliceType:
		b, ok := b.(*SliceType)
		return ok && Identical(a.Elem, b.Elem)
	case *UntypedInt:
		_, ok := b.(*UntypedInt)
		return ok
	case *TupleType:
		b, ok := b.(*TupleType)
		if !ok || len(a.Elems) != len(b.Elems) {
			return false
		}
		for i := range a.Elems {
			if !Identical(a.Elems[i], b.Elems[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// ElemOf returns the element type of an array or slice, or nil.
func ElemOf(t Type) Type {
	switch t := t.(type) {
	case *ArrayType:
		return t.Elem
	case *SliceType:
		return t.Elem
	}
	return nil
}

// ---------------------------------------------------------------- effects

// Effect is one effect a function may have.
type Effect uint8

const (
	// EffTrap: may stop at run time (a bounds, requires or division check the
	// checker could not prove).
	EffTrap Effect = 1 << iota
	// EffUnsafe: performs raw, unchecked operations.
	EffUnsafe
	// EffIO: interacts with the host (harness code only).
	EffIO
)

// EffectSet is a set of effects.
type EffectSet uint8

// AllEffects lists the effects in their canonical order.
var AllEffects = []Effect{EffTrap, EffUnsafe, EffIO}

func (e Effect) String() string {
	switch e {
	case EffTrap:
		return "trap"
	case EffUnsafe:
		return "unsafe"
	case EffIO:
		return "io"
	}
	return fmt.Sprintf("effect(%d)", uint8(e))
}

// ParseEffect maps an effect name to its Effect.
func ParseEffect(name string) (Effect, bool) {
	for _, e := range AllEffects {
		if e.String() == name {
			return e, true
		}
	}
	return 0, false
}

// Has reports whether s contains e.
func (s EffectSet) Has(e Effect) bool { return s&EffectSet(e) != 0 }

// With returns s plus e.
func (s EffectSet) With(e Effect) EffectSet { return s | EffectSet(e) }

func (s EffectSet) String() string {
	if s == 0 {
		return "none"
	}
	var names []string
	for _, e := range AllEffects {
		if s.Has(e) {
			names = append(names, e.String())
		}
	}
	return strings.Join(names, ", ")
}

// ---------------------------------------------------------------- sizes

// FlatLen is the number of words a value of type t holds: the product of
// nested array lengths, 1 for a word or bool (a slice has no fixed length
// and counts as 1 element here; callers that allow slices size them apart).
func FlatLen(t Type) int {
	if a, ok := t.(*ArrayType); ok {
		return a.Len * FlatLen(a.Elem)
	}
	return 1
}

// LeafType is the word (or bool) type at the bottom of nested arrays and slices.
func LeafType(t Type) Type {
	for {
		e := ElemOf(t)
		if e == nil {
			return t
		}
		t = e
	}
}
