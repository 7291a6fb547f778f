// Pass dce (dead code elimination) removes instructions whose results are
// never needed: it marks as live what stores, checks, calls, traces and the
// return need (following if results into both branches' yields, and
// loop-carried values around the loop), then deletes every unmarked pure or
// memory-reading instruction, every unneeded if result and loop-carried value,
// and every if or for left with no effect and no result. A call is an effect
// unless its callee is effect-free (see effectFree): a call of an
// effect-free function whose results are unused is removed like a pure op.
//
// Requires: nothing. Preserves: the meaning (checks are effects and stay,
// in the caller and in any callee).
package ir

func dce(m *Module, _ *Options) error {
	free := effectFree{}
	for _, f := range m.Funcs {
		d := &dcer{live: map[*Value]bool{}, owner: map[*Value]*Instr{}, effect: map[*Instr]bool{}, free: free}
		d.scan(f.Body, nil)
		d.propagate()
		d.sweep(f.Body)
	}
	return nil
}

type dcer struct {
	live   map[*Value]bool
	work   []*Value
	owner  map[*Value]*Instr // a for body's parameter -> the for
	effect map[*Instr]bool   // ifs and fors containing an effect
	free   effectFree
}

// root reports whether in must stay whatever its results: an effect (a call
// only when its callee has one) or the return.
func (d *dcer) root(in *Instr) bool {
	if in.Op == OpCall {
		return !d.free.of(in.Callee)
	}
	return in.Op.HasEffect() || in.Op == OpReturn
}

func (d *dcer) mark(v *Value) {
	if !d.live[v] {
		d.live[v] = true
		d.work = append(d.work, v)
	}
}

// scan marks the roots; parents are the enclosing ifs and fors.
func (d *dcer) scan(b *Block, parents []*Instr) {
	for _, in := range b.Instrs {
		if in.Op == OpFor {
			for _, p := range in.Blocks[0].Params {
				d.owner[p] = in
			}
		}
		for _, blk := range in.Blocks {
			d.scan(blk, append(parents, in))
		}
		if d.root(in) {
			for _, a := range in.Args {
				d.mark(a)
			}
			for _, p := range parents {
				if !d.effect[p] {
					d.effect[p] = true
					d.markControl(p)
				}
			}
		}
	}
}

// markControl marks what decides whether (and how often) a block runs.
func (d *dcer) markControl(in *Instr) {
	if in.Op == OpIf {
		d.mark(in.Args[0])
		return
	}
	n := len(in.Blocks[0].Params) - len(in.Results)
	for _, a := range in.Args[:2*n] {
		d.mark(a)
	}
}

func (d *dcer) propagate() {
	for len(d.work) > 0 {
		v := d.work[len(d.work)-1]
		d.work = d.work[:len(d.work)-1]
		if f := d.owner[v]; f != nil {
			d.markControl(f)
			body := f.Blocks[0]
			n := len(body.Params) - len(f.Results)
			for i, p := range body.Params[n:] {
				if p == v {
					d.mark(f.Args[2*n+i])
					d.mark(body.Term().Args[i])
				}
			}
			continue
		}
		in := v.Def
		if in == nil {
			continue
		}
		switch in.Op {
		case OpIf, OpFor:
			d.markControl(in)
			i := resultIndex(in, v)
			for _, blk := range in.Blocks {
				d.mark(blk.Term().Args[i])
			}
			if in.Op == OpFor {
				n := len(in.Blocks[0].Params) - len(in.Results)
				d.mark(in.Args[2*n+i])
				d.mark(in.Blocks[0].Params[n+i])
			}
		default:
			for _, a := range in.Args {
				d.mark(a)
			}
		}
	}
}

func resultIndex(in *Instr, v *Value) int {
	for i, r := range in.Results {
		if r == v {
			return i
		}
	}
	panic("BUG: dce: value is not a result of its definition")
}

func (d *dcer) sweep(b *Block) {
	out := b.Instrs[:0]
	for _, in := range b.Instrs {
		for _, blk := range in.Blocks {
			d.sweep(blk)
		}
		switch {
		case in.Op == OpIf:
			d.trimIf(in)
			if len(in.Results) == 0 && !d.effect[in] {
				continue
			}
		case in.Op == OpFor:
			d.trimFor(in)
			if len(in.Results) == 0 && !d.effect[in] {
				continue
			}
		case in.Op.IsPure() || in.Op.ReadsMemory() || (in.Op == OpCall && !d.root(in)):
			used := false
			for _, r := range in.Results {
				used = used || d.live[r]
			}
			if !used {
				continue
			}
		}
		out = append(out, in)
	}
	b.Instrs = out
}

func (d *dcer) trimIf(in *Instr) {
	t, e := in.Blocks[0].Term(), in.Blocks[1].Term()
	keep := 0
	for i, r := range in.Results {
		if d.live[r] {
			in.Results[keep], t.Args[keep], e.Args[keep] = r, t.Args[i], e.Args[i]
			keep++
		}
	}
	in.Results, t.Args, e.Args = in.Results[:keep], t.Args[:keep], e.Args[:keep]
}

func (d *dcer) trimFor(in *Instr) {
	body := in.Blocks[0]
	y := body.Term()
	n := len(body.Params) - len(in.Results)
	keep := 0
	for i, r := range in.Results {
		p := body.Params[n+i]
		if d.live[r] || d.live[p] {
			in.Results[keep], body.Params[n+keep], in.Args[2*n+keep], y.Args[keep] = r, p, in.Args[2*n+i], y.Args[i]
			keep++
		}
	}
	in.Results, body.Params, in.Args, y.Args = in.Results[:keep], body.Params[:n+keep], in.Args[:2*n+keep], y.Args[:keep]
}
