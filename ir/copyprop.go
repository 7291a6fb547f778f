// Pass copyprop removes values that are only another name for an existing
// value: copy instructions; if results whose two branches yield the same
// value; loop-carried values that every iteration passes on unchanged (or
// resets to their initial value). Uses are rewritten to the original value.
//
// Requires: nothing. Preserves: the meaning; removes results and
// loop-carried values from ifs and fors.
package ir

func copyprop(m *Module, _ *Options) error {
	for _, f := range m.Funcs {
		for {
			cp := &copier{sub: subst{}}
			cp.block(f.Body)
			if !cp.changed {
				break
			}
			cp.sub.applyAll(f.Body)
		}
	}
	return nil
}

type copier struct {
	sub     subst
	changed bool
}

func (cp *copier) block(b *Block) {
	out := b.Instrs[:0]
	for _, in := range b.Instrs {
		cp.sub.apply(in)
		for _, blk := range in.Blocks {
			cp.block(blk)
		}
		switch in.Op {
		case OpCopy:
			cp.sub[in.Results[0]] = in.Args[0]
			cp.changed = true
			continue
		case OpIf:
			cp.ifInstr(in)
		case OpFor:
			cp.forInstr(in)
		}
		out = append(out, in)
	}
	b.Instrs = out
}

func (cp *copier) ifInstr(in *Instr) {
	t, e := in.Blocks[0].Term(), in.Blocks[1].Term()
	keep := 0
	for i, r := range in.Results {
		if t.Args[i] == e.Args[i] {
			cp.sub[r] = t.Args[i]
			cp.changed = true
			continue
		}
		in.Results[keep], t.Args[keep], e.Args[keep] = r, t.Args[i], e.Args[i]
		keep++
	}
	in.Results, t.Args, e.Args = in.Results[:keep], t.Args[:keep], e.Args[:keep]
}

func (cp *copier) forInstr(in *Instr) {
	body := in.Blocks[0]
	y := body.Term()
	k := len(in.Results)
	n := len(body.Params) - k
	keep := 0
	for i, r := range in.Results {
		p, init := body.Params[n+i], in.Args[2*n+i]
		if y.Args[i] == p || y.Args[i] == init {
			cp.sub[p] = init
			cp.sub[r] = init
			cp.changed = true
			continue
		}
		in.Results[keep], body.Params[n+keep], in.Args[2*n+keep], y.Args[keep] = r, p, init, y.Args[i]
		keep++
	}
	in.Results, body.Params, in.Args, y.Args = in.Results[:keep], body.Params[:n+keep], in.Args[:2*n+keep], y.Args[:keep]
}
