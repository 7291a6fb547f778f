package jcvm

import "github.com/lowent/lowentc/ir"

// A load that is used once in its own block is read where its tree is
// built, not where the IR defines it, when no instruction in between may
// write the bytes it reads (see lowerer.inlinable).

// noWriteUntilUse reports whether no instruction may write what the load
// at position i of b reads, between it and the place where the tree of its
// result is built. When the use is itself a tree built further on (a pure
// op, or a load at this index), the load travels with it, so the walk goes
// on from there: a load under an xor that moves past a store of the
// same bytes would read the new ones.
func (l *lowerer) noWriteUntilUse(b *ir.Block, i int) bool {
	return l.noWriteOf(b, i, b.Instrs[i])
}

// noWriteOf is noWriteUntilUse for the value of instruction i, which
// carries the tree of the load ld.
func (l *lowerer) noWriteOf(b *ir.Block, i int, ld *ir.Instr) bool {
	v := b.Instrs[i].Results[0]
	for j := i + 1; j < len(b.Instrs); j++ {
		next := b.Instrs[j]
		for _, a := range next.Args {
			if a != v {
				continue
			}
			// An inlined load at index v checks its own array on its way;
			// ld's must be checked too.
			if l.inlinable(b, j, next) {
				return l.noWriteOf(b, j, ld)
			}
			return true
		}
		switch next.Op {
		case ir.OpStore, ir.OpStoreLE, ir.OpStoreBE:
			if mayOverlap(ld, next) {
				return false
			}
		case ir.OpCall, ir.OpIf, ir.OpFor:
			return false
		}
	}
	return false
}

// mayOverlap reports whether the store st may write an element the load
// ld reads. A local array overlaps no other array. Two parameters are
// taken to be one array: the language forbids the aliasing, but the applet
// lets a terminal place an export's output on its input (an in-place
// encryption, an N-fold hash), which must keep working. In one array,
// accesses at constant distances from the same index value overlap only
// when their ranges do.
func mayOverlap(ld, st *ir.Instr) bool {
	if ld.Op == ir.OpLen {
		return false
	}
	if ld.Arr != st.Arr && (ld.Arr.Kind != ir.ArrParam || st.Arr.Kind != ir.ArrParam) {
		return false
	}
	b1, c1 := baseOffset(ld.Args[0], 4)
	b2, c2 := baseOffset(st.Args[0], 4)
	if b1 != b2 {
		return true
	}
	bits := ld.Args[0].Type.Bits()
	d := int64((c2-c1)<<(64-bits)) >> (64 - bits) // c2 - c1 as a signed difference
	return d < accessWidth(ld) && -d < accessWidth(st)
}

// accessWidth is how many elements of its array a load or store touches.
func accessWidth(in *ir.Instr) int64 {
	if in.Op == ir.OpLoadLE || in.Op == ir.OpLoadBE || in.Op == ir.OpStoreLE || in.Op == ir.OpStoreBE {
		return int64(in.Aux / 8)
	}
	return 1
}

// baseOffset writes v as base + c (base nil for a constant), looking
// through at most depth additions of a constant: add, or at W=16 the
// low limb's addc without carry in.
func baseOffset(v *ir.Value, depth int) (*ir.Value, uint64) {
	d := v.Def
	if d == nil {
		return v, 0
	}
	switch {
	case d.Op == ir.OpConst:
		return nil, d.Aux
	case depth > 0 && (d.Op == ir.OpAdd || d.Op == ir.OpAddC && v == d.Results[0] && isZero(d.Args[2])):
		for k := 0; k < 2; k++ {
			if c := d.Args[1-k].Def; c != nil && c.Op == ir.OpConst {
				b, off := baseOffset(d.Args[k], depth-1)
				return b, off + c.Aux
			}
		}
	}
	return v, 0
}

// isZero reports whether v is the constant 0 (or false).
func isZero(v *ir.Value) bool {
	return v.Def != nil && v.Def.Op == ir.OpConst && v.Def.Aux == 0
}
