package sem

import "testing"

// TestCopyValues: the copy's arrays are its own, words and the shape
// (nil, empty, array or not) are kept.
func TestCopyValues(t *testing.T) {
	in := []Value{{Word: 7}, {IsArray: true, Elems: []uint64{1, 2}}, {IsArray: true, Elems: []uint64{}}}
	out := CopyValues(in)
	out[1].Elems[0] = 9
	if in[1].Elems[0] != 1 {
		t.Errorf("the copy shares its array with the original")
	}
	if out[0].Word != 7 || out[0].Elems != nil || !out[1].IsArray || out[2].Elems == nil || len(out[2].Elems) != 0 {
		t.Errorf("copy %+v of %+v", out, in)
	}
}
