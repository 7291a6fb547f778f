package sem

import "testing"

// TestFaultLines: the one-line faults every target reports, from the
// source-level description of an export alone.
func TestFaultLines(t *testing.T) {
	fn := &Export{
		Name: "seal",
		Pos:  Pos{File: "t.lw", Line: 3, Col: 8},
		Params: []Param{
			{Name: "dst", Pos: Pos{File: "t.lw", Line: 3, Col: 16}},
			{Name: "src", Pos: Pos{File: "t.lw", Line: 3, Col: 30}},
		},
		Requires: []SrcText{{Pos: Pos{File: "t.lw", Line: 4, Col: 14}, Text: "len(dst) == len(src)"}},
	}
	for _, c := range []struct {
		err  *Fault
		want string
	}{
		{RequiresFault(fn, 0), "t.lw:4:14: fault: seal: requires len(dst) == len(src) does not hold"},
		{RequiresFault(fn, 1), "t.lw:3:8: fault: seal: requires clause 2 does not hold"},
		{OverlapFault(fn, 0, 1), "t.lw:3:16: fault: seal: requires dst and src the same buffer or disjoint does not hold"},
		{OverlapFault(fn, 2, 0), "t.lw:3:8: fault: seal: requires result 1 and dst the same buffer or disjoint does not hold"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}
