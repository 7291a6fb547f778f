package sem

import (
	"slices"
	"strconv"
)

// Value is a target-neutral argument or result of an exported function: a
// word or bool (Word), or the elements of an array or slice, flattened in
// row-major order (Elems, each element a word of the array's element type).
// A `mut` argument's Elems are updated in place by a call.
type Value struct {
	Word    uint64
	Elems   []uint64
	IsArray bool
}

// CopyValues returns a copy of vs whose arrays are copies too, so that a
// call that updates its mut arguments in place leaves vs as it was.
func CopyValues(vs []Value) []Value {
	out := make([]Value, len(vs))
	for i, v := range vs {
		out[i] = v
		out[i].Elems = slices.Clone(v.Elems)
	}
	return out
}

// Thousands prints n with commas between groups of three digits, as
// messages about sizes do.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
