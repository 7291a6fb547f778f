package mos6502

import (
	"fmt"

	"github.com/lowent/lowentc/ir"
)

// ifInstr emits `if c {..} else {..}`; each branch copies what it yields
// into the results' storage.
func (g *fgen) ifInstr(in *ir.Instr) {
	c := in.Args[0]
	if k, ok := g.constOf(c); ok {
		blk := in.Blocks[1]
		if k != 0 {
			blk = in.Blocks[0]
		}
		g.block(blk)
		g.yieldIf(in, blk)
		return
	}
	lt, le, lx := g.a.newLabel(), g.a.newLabel(), g.a.newLabel()
	g.a.op("lda %s", g.opnd(c))
	g.a.op("bne %s", lt)
	g.a.op("jmp %s", le)
	g.lbl(lt)
	g.block(in.Blocks[0])
	g.yieldIf(in, in.Blocks[0])
	g.a.op("jmp %s", lx)
	g.lbl(le)
	g.block(in.Blocks[1])
	g.yieldIf(in, in.Blocks[1])
	g.lbl(lx)
}

func (g *fgen) yieldIf(in *ir.Instr, blk *ir.Block) {
	t := blk.Term()
	for i, r := range in.Results {
		g.loadA(t.Args[i])
		g.a.op("sta %s", g.mem(r))
	}
	g.aHolds = nil
}

// forInstr emits a counted loop: the test at the top, the body, the
// loop-carried values copied (as a parallel move) from what the body
// yields, then the index incremented. Index limbs known to stay zero are
// neither tested nor incremented.
func (g *fgen) forInstr(in *ir.Instr) {
	body := in.Blocks[0]
	k := len(in.Results)
	n := len(body.Params) - k
	lo, hi, inits := in.Args[:n], in.Args[n:2*n], in.Args[2*n:]
	idx, iters := body.Params[:n], body.Params[n:]
	live := 0 // index limbs that can be non-zero
	for i := range idx {
		if _, known := g.known[idx[i]]; !known {
			live = i + 1
		}
	}
	for i := 0; i < live; i++ {
		g.loadA(lo[i])
		g.a.op("sta %s", g.mem(idx[i]))
	}
	// A parallel move: an initial value may share its storage with a
	// carried value (coalesce).
	g.parallelCopy(iters, inits)
	top, bodyL, end := g.a.newLabel(), g.a.newLabel(), g.a.newLabel()
	g.lbl(top)
	g.a.op("lda %s", g.mem(idx[0]))
	g.a.op("cmp %s", g.opnd(hi[0]))
	for i := 1; i < n; i++ {
		if i < live {
			g.a.op("lda %s", g.mem(idx[i]))
		} else {
			g.a.op("lda #$00")
		}
		g.a.op("sbc %s", g.opnd(hi[i]))
	}
	g.a.op("bcc %s", bodyL)
	g.a.op("jmp %s", end)
	g.lbl(bodyL)
	g.block(body)
	t := body.Term()
	g.parallelCopy(iters, t.Args)
	for i := 0; i < live; i++ {
		g.a.op("inc %s", g.mem(idx[i]))
		if i+1 < live {
			l := g.a.newLabel()
			g.a.op("beq %s", l)
			g.a.op("jmp %s", top)
			g.a.label(l)
		}
	}
	g.a.op("jmp %s", top)
	g.lbl(end)
}

// parallelCopy copies srcs into the storage of dsts as if all were read
// before any is written. A move is made once no pending move still reads
// its destination, so a chain (the a..h shift of a hash round: h = g,
// g = f, ...) is copied in place from its end; only a cycle goes through
// the temporary area, one byte of it for the cycle.
func (g *fgen) parallelCopy(dsts, srcs []*ir.Value) {
	type move struct {
		dst string
		src *ir.Value
		tmp string // when not "": the source was saved here
	}
	var pending []move
	for i, s := range srcs {
		if d := g.mem(dsts[i]); g.opnd(s) != d {
			pending = append(pending, move{dst: d, src: s})
		}
	}
	from := func(m move) string {
		if m.tmp != "" {
			return m.tmp
		}
		return g.opnd(m.src)
	}
	read := func(loc string, except int) bool {
		for k, m := range pending {
			if k != except && from(m) == loc {
				return true
			}
		}
		return false
	}
	nt := 0
	for len(pending) > 0 {
		done := false
		for k := 0; k < len(pending); k++ {
			m := pending[k]
			if read(m.dst, k) {
				continue
			}
			if m.tmp != "" {
				g.a.op("lda %s", m.tmp)
				g.aHolds = nil
			} else {
				g.loadA(m.src)
			}
			g.a.op("sta %s", m.dst)
			pending = append(pending[:k], pending[k+1:]...)
			k--
			done = true
		}
		if done {
			continue
		}
		// Only cycles are left: save the first move's destination, and
		// the moves that read it read the copy.
		d := pending[0].dst
		t := fmt.Sprintf("yt+%d", nt)
		nt++
		g.a.op("lda %s", d)
		g.a.op("sta %s", t)
		g.aHolds = nil
		for k := range pending {
			if from(pending[k]) == d {
				pending[k].tmp = t
			}
		}
	}
	g.g.ytmp = max(g.g.ytmp, nt)
	g.aHolds = nil
}
