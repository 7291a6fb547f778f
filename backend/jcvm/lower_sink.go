package jcvm

import (
	"sort"

	"github.com/lowent/lowentc/ir"
)

// A load that is used once in its own block is read where its tree is
// built, not where the IR defines it, when no instruction in between may
// write the bytes it reads (see lowerer.inlinable).
//
// The tree of a value is built at its use, unless that use is itself a
// tree (a pure op, or a load at this index), which moves on to its own use,
// and so on: the tree's root is the first instruction on this chain that is
// not inlined. A load is sunk when no instruction strictly between it and
// the root of its tree may write what it reads. Whether an instruction is
// inlined, and where the root of a value's tree is, are computed once per
// instruction; the writes between two positions are looked up among the
// block's stores to the load's array, so a chain of loads each indexed by
// the one before (an unrolled table walk) costs a few look-ups per load
// rather than a walk that forks at every link.

// sinkBlock is what the sinking needs to know of one block, gathered once.
type sinkBlock struct {
	use     map[*ir.Value]int // position of the first instruction using a value
	barrier []int             // barrier[k]: first position >= k of a call, if or for (len(Instrs) if none)
	stores  map[*ir.Array][]int
	params  []int // positions of the stores to parameter arrays
}

// sinkInfo returns the sinkBlock of b, building it on first use.
func (l *lowerer) sinkInfo(b *ir.Block) *sinkBlock {
	if sb, ok := l.sink[b]; ok {
		return sb
	}
	n := len(b.Instrs)
	sb := &sinkBlock{use: map[*ir.Value]int{}, barrier: make([]int, n+1), stores: map[*ir.Array][]int{}}
	for j, in := range b.Instrs {
		for _, a := range in.Args {
			if _, ok := sb.use[a]; !ok {
				sb.use[a] = j
			}
		}
		switch in.Op {
		case ir.OpStore, ir.OpStoreLE, ir.OpStoreBE:
			sb.stores[in.Arr] = append(sb.stores[in.Arr], j)
			if in.Arr.Kind == ir.ArrParam {
				sb.params = append(sb.params, j)
			}
		}
	}
	sb.barrier[n] = n
	for j := n - 1; j >= 0; j-- {
		switch b.Instrs[j].Op {
		case ir.OpCall, ir.OpIf, ir.OpFor:
			sb.barrier[j] = j
		default:
			sb.barrier[j] = sb.barrier[j+1]
		}
	}
	l.sink[b] = sb
	return sb
}

// treeRoot is the position in b where the tree of the result of
// instruction i is built (see above), or -1 when it is not used in b.
func (l *lowerer) treeRoot(b *ir.Block, i int) int {
	in := b.Instrs[i]
	if r, ok := l.root[in]; ok {
		return r
	}
	r := -1
	if j, ok := l.sinkInfo(b).use[in.Results[0]]; ok && j > i {
		r = j
		if l.inlinable(b, j, b.Instrs[j]) {
			r = l.treeRoot(b, j)
		}
	}
	l.root[in] = r
	return r
}

// noWriteUntilUse reports whether no instruction may write what the load
// at position i of b reads, between it and the place where the tree of its
// result is built. When the use is itself a tree built further on (a pure
// op, or a load at this index), the load travels with it, so the walk goes
// on from there: a load under an xor that moves past a store of the
// same bytes would read the new ones.
func (l *lowerer) noWriteUntilUse(b *ir.Block, i int) bool {
	r := l.treeRoot(b, i)
	if r < 0 {
		return false
	}
	sb := l.sinkInfo(b)
	if sb.barrier[i+1] < r {
		return false
	}
	ld := b.Instrs[i]
	if ld.Op == ir.OpLen {
		return true
	}
	stores := sb.stores[ld.Arr]
	if ld.Arr.Kind == ir.ArrParam {
		stores = sb.params
	}
	for k := sort.SearchInts(stores, i+1); k < len(stores) && stores[k] < r; k++ {
		if mayOverlap(ld, b.Instrs[stores[k]]) {
			return false
		}
	}
	return true
}

// mayOverlap reports whether the store st may write an element the load
// ld reads, by ir's aliasing rule with every array parameter taken to be
// one array (ir.SharedParams): the language forbids the aliasing, but the
// applet lets a terminal place an export's output on its input (an
// in-place encryption, an N-fold hash), which must keep working.
func mayOverlap(ld, st *ir.Instr) bool {
	a, ok := ir.AccessOf(ld)
	if !ok {
		return false // len reads no element
	}
	b, _ := ir.AccessOf(st)
	return ir.SharedParams.MayOverlap(a, b)
}
