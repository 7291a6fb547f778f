package llvm

import "github.com/lowent/lowentc/ir"

// PlanAESGroups finds, in block b, runs of up to size AES rounds of the
// same kind with the same round key on independent states, nothing between
// them using an earlier one's results, for a target that does several at
// once (amd64's VAESENC on wide registers, the bitsliced computed AES).
// Each group is emitted at its last round's place: group maps that round
// to the group's rounds, skip marks the others. Without any, only runs of
// two and four are groups, and a run of three is split two and one; with
// any, a run of any length up to size is one group.
func PlanAESGroups(b *ir.Block, size int, any bool, skip map[*ir.Instr]bool, group map[*ir.Instr][]*ir.Instr) {
	var open []*ir.Instr
	var results []*ir.Value
	flush := func() {
		n := len(open) &^ 1
		if len(open) == 4 || len(open) == 2 || any {
			n = len(open)
		}
		if n >= 2 || (any && n == 1) {
			for _, in := range open[:n-1] {
				skip[in] = true
			}
			group[open[n-1]] = append([]*ir.Instr(nil), open[:n]...)
		}
		open, results = nil, nil
	}
	for _, in := range b.Instrs {
		isAES := in.Op == ir.OpAESEnc || in.Op == ir.OpAESEncLast
		if len(open) > 0 && isAES && in.Op == open[0].Op && in.Args[2] == open[0].Args[2] &&
			in.Args[3] == open[0].Args[3] && !usesAny(in, results) {
			open = append(open, in)
			results = append(results, in.Results...)
			if len(open) == size {
				flush()
			}
			continue
		}
		if len(open) > 0 && (isAES || usesAny(in, results) || len(in.Blocks) > 0) {
			flush()
		}
		if isAES {
			open = []*ir.Instr{in}
			results = append([]*ir.Value(nil), in.Results...)
		}
	}
	flush()
}

// usesAny reports whether in reads one of vs (nested blocks count).
func usesAny(in *ir.Instr, vs []*ir.Value) bool {
	for _, a := range in.Args {
		for _, v := range vs {
			if a == v {
				return true
			}
		}
	}
	for _, blk := range in.Blocks {
		for _, x := range blk.Instrs {
			if usesAny(x, vs) {
				return true
			}
		}
	}
	return false
}
