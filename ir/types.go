package ir

import "fmt"

// Type is the type of an IR value: bool or an unsigned word. Arrays are not
// values: they are memory objects (*Array) read and written by load/store.
type Type uint8

const (
	TInvalid Type = iota
	Bool          // one bit, stored as 0 or 1
	U8
	U16
	U32
	U64
)

// Bits returns the width of t in bits (1 for bool).
func (t Type) Bits() int {
	switch t {
	case Bool:
		return 1
	case U8:
		return 8
	case U16:
		return 16
	case U32:
		return 32
	case U64:
		return 64
	}
	return 0
}

// IsWord reports whether t is an unsigned word type.
func (t Type) IsWord() bool { return t >= U8 && t <= U64 }

// Mask returns the all-ones value of t.
func (t Type) Mask() uint64 {
	n := t.Bits()
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}

func (t Type) String() string {
	switch t {
	case Bool:
		return "bool"
	case U8, U16, U32, U64:
		return fmt.Sprintf("u%d", t.Bits())
	}
	return "invalid"
}

// WordType returns the word type of the given width, or TInvalid.
func WordType(bits int) Type {
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
	return TInvalid
}

// IndexType is the type of array indexes, byte offsets, lengths and chunk
// counters: every array holds at most 2^32-1 elements.
const IndexType = U32
