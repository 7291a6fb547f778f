package mos6502

import "github.com/lowent/lowentc/ir"

// Word rotates. Legalization turns a rotate of a u16, u32 or u64 by an
// amount that is not a multiple of 8 into one funnel shift per byte, all
// by the same amount, each taking the byte and its lower neighbour: the
// whole-byte part of the amount is a renaming of the bytes and costs
// nothing. Byte by byte, a funnel shift by n costs n steps of a two-byte
// shift (or a table lookup per operand in the linear-map pass); as a
// group the m bytes rotate together with the carry flag linking them:
// one `ror a` (or `rol a`) per byte and bit, or, for 4 bits, two nibble
// lookups per byte. ChaCha20's rotates by 7 and 12 and BLAKE2b's by 63
// take this way; a rotate whose bytes only feed XORs (SHA-256's Σ and σ)
// stays in the linear-map pass, which merges it into the lookups of the
// XOR.

// rotGroup is the funnel shifts of one word rotate, in chain order:
// members[k] = fsh(in[k], in[k+1 mod m]) moves left bits of in[k] into
// the high end of its result and fills the rest from in[k+1]'s top.
type rotGroup struct {
	members []*ir.Instr
	in      []*ir.Value
	left    int
	leader  *ir.Instr // the member first in the block: the group's code goes there
	// fused[k], when not nil, is the XOR that computes in[k] and that
	// nothing else reads: the group computes it where it needs it
	// (`lda a / eor b`) and it has no slot.
	fused []*ir.Instr
}

// reads returns the values the group's code reads.
func (r *rotGroup) reads() []*ir.Value {
	var vs []*ir.Value
	for k, v := range r.in {
		if d := r.fused[k]; d != nil {
			vs = append(vs, d.Args...)
		} else {
			vs = append(vs, v)
		}
	}
	return vs
}

// fusible reports whether in[k] is a XOR of b that only the group reads.
func (r *rotGroup) fusible(g *fgen, k int, inBlock map[*ir.Instr]bool) bool {
	d := r.in[k].Def
	if d == nil || d.Op != ir.OpXor || !inBlock[d] {
		return false
	}
	n := 0
	for _, m := range r.members {
		for _, a := range m.Args {
			if a == r.in[k] {
				n++
			}
		}
	}
	return g.lv.uses[r.in[k]] == n
}

// fshLeft returns the bits a funnel shift moves its high operand left.
func fshLeft(in *ir.Instr) int {
	if in.Op == ir.OpFshr {
		return 8 - int(in.Aux)
	}
	return int(in.Aux)
}

// maxRotBytes bounds a group: a u64 is 8 bytes.
const maxRotBytes = 8

// findRotGroups returns the word rotates among the funnel shifts of b
// that cand admits: funnel shifts by one amount whose (hi, lo) operand
// pairs close one cycle, every operand defined before the first of them.
func findRotGroups(g *fgen, b *ir.Block, cand map[*ir.Instr]bool) []*rotGroup {
	type key struct {
		left int
		hi   *ir.Value
	}
	idx := map[*ir.Instr]int{}
	byKey := map[key][]*ir.Instr{}
	var fsh []*ir.Instr
	for i, in := range b.Instrs {
		idx[in] = i
		if !cand[in] || (in.Op != ir.OpFshl && in.Op != ir.OpFshr) || in.Args[0] == in.Args[1] {
			continue
		}
		n := fshLeft(in)
		if n <= 0 || n >= 8 {
			continue
		}
		k := key{n, in.Args[0]}
		byKey[k] = append(byKey[k], in)
		fsh = append(fsh, in)
	}
	taken := map[*ir.Instr]bool{}
	var groups []*rotGroup
	for _, first := range fsh {
		if taken[first] {
			continue
		}
		n := fshLeft(first)
		members := []*ir.Instr{first}
		seen := map[*ir.Instr]bool{first: true}
		ok := false
		for cur := first; len(members) <= maxRotBytes; {
			next := byKey[key{n, cur.Args[1]}]
			if len(next) != 1 {
				break
			}
			if next[0] == first {
				ok = true
				break
			}
			if seen[next[0]] || taken[next[0]] {
				break
			}
			seen[next[0]] = true
			members = append(members, next[0])
			cur = next[0]
		}
		if !ok || len(members) < 2 {
			continue
		}
		grp := &rotGroup{members: members, left: n, leader: members[0], fused: make([]*ir.Instr, len(members))}
		for _, m := range members {
			grp.in = append(grp.in, m.Args[0])
			if idx[m] < idx[grp.leader] {
				grp.leader = m
			}
		}
		defined := true
		for _, v := range grp.in {
			if d := v.Def; d != nil {
				if i, in := idx[d]; in && i > idx[grp.leader] {
					defined = false
				}
			}
		}
		if !defined {
			continue
		}
		for _, m := range members {
			taken[m] = true
		}
		groups = append(groups, grp)
	}
	return groups
}

// chainCost is the cycles of the group's code with operands and results
// in zero page.
func (r *rotGroup) chainCost() int {
	m := len(r.in)
	steps := r.left
	if steps > 4 {
		steps = 8 - steps
	}
	if steps == 4 {
		return 20 + 14*(m-1)
	}
	return 5 + 8*m + (steps-1)*(5+5*m)
}

// results returns the group's result bytes in chain order.
func (r *rotGroup) results() []*ir.Value {
	out := make([]*ir.Value, len(r.members))
	for k, m := range r.members {
		out[k] = m.Results[0]
	}
	return out
}

// rotate emits a group: every result byte into its slot. A and X (and Y
// for 4 bits) are lost; the carry is changed.
func (g *fgen) rotate(r *rotGroup) {
	m := len(r.in)
	res := r.results()
	at := func(k int) int { return (k + m) % m }
	// load puts in[k] in A.
	load := func(k int) {
		if d := r.fused[k]; d != nil {
			g.a.op("lda %s", g.opnd(d.Args[0]))
			g.a.op("eor %s", g.opnd(d.Args[1]))
		} else {
			g.a.op("lda %s", g.opnd(r.in[k]))
		}
	}
	// first puts in[0] in A and keeps a copy for the end of the chain
	// (in the scratch byte when it has no slot); last loads it again.
	first := func() {
		load(0)
		if r.fused[0] != nil {
			g.a.op("sta $%02x", zpT)
		}
	}
	last := func() {
		if r.fused[0] != nil {
			g.a.op("lda $%02x", zpT)
		} else {
			load(0)
		}
	}
	g.clobberA()
	g.cHolds = nil
	switch {
	case r.left == 4:
		// res[k] = in[k] << 4 | in[k+1] >> 4, by two nibble tables
		// indexed by X and Y in turn.
		lo := make([]byte, 256)
		hi := make([]byte, 256)
		for x := range lo {
			lo[x] = byte(x << 4)
			hi[x] = byte(x >> 4)
		}
		tl, th := g.g.tableLabel(g.g.addTable(lo)), g.g.tableLabel(g.g.addTable(hi))
		reg := [2]string{"x", "y"}
		// index puts in[k] in register reg[k&1].
		index := func(k int) {
			if r.fused[k] != nil {
				load(k)
				g.a.op("ta%s", reg[k&1])
			} else {
				g.a.op("ld%s %s", reg[k&1], g.opnd(r.in[k]))
			}
		}
		index(0)
		g.a.op("lda %s,x", th)
		g.a.op("sta $%02x", zpT)
		for k := 0; k < m; k++ {
			if k < m-1 {
				index(k + 1)
				g.a.op("lda %s,%s", tl, reg[k&1])
				g.a.op("ora %s,%s", th, reg[(k+1)&1])
			} else {
				g.a.op("lda %s,%s", tl, reg[k&1])
				g.a.op("ora $%02x", zpT)
			}
			g.a.op("sta %s", g.mem(res[k]))
		}
		g.y = -1
	case r.left > 4:
		// Right by s = 8-left: res[k] = ror(in[k+1]) with bit 0 of
		// in[k] entering at the top, then s-1 more passes in place.
		first()
		g.a.op("lsr a")
		for k := 0; k < m; k++ {
			if at(k+1) == 0 {
				last()
			} else {
				load(k + 1)
			}
			g.a.op("ror a")
			g.a.op("sta %s", g.mem(res[k]))
		}
		for s := 8 - r.left; s > 1; s-- {
			g.a.op("lda %s", g.mem(res[m-1]))
			g.a.op("lsr a")
			for k := 0; k < m; k++ {
				g.a.op("ror %s", g.mem(res[k]))
			}
		}
	default:
		// Left by left: res[k] = rol(in[k]) with bit 7 of in[k+1]
		// entering at the bottom, from the last byte down.
		first()
		g.a.op("cmp #$80")
		for k := m - 1; k >= 0; k-- {
			if k == 0 {
				last()
			} else {
				load(k)
			}
			g.a.op("rol a")
			g.a.op("sta %s", g.mem(res[k]))
		}
		for s := r.left; s > 1; s-- {
			g.a.op("lda %s", g.mem(res[0]))
			g.a.op("cmp #$80")
			for k := m - 1; k >= 0; k-- {
				g.a.op("rol %s", g.mem(res[k]))
			}
		}
	}
	g.clobberA()
	g.cHolds = nil
}
