// Pass cse (common subexpression elimination) replaces an instruction by an
// earlier identical one that is in scope: same op, types, constant operand
// and arguments (in either order for commutative ops). Pure ops, including
// the multi-result ones, always qualify; lengths and constant-table loads
// too. A load from a writable array qualifies only when no store to that
// array (and no call passing it, no loop iteration or branch writing it) can
// have happened in between.
//
// Requires: nothing. Preserves: the meaning; removes the replaced
// instructions.
package ir

func cse(m *Module, _ *Options) error {
	for _, f := range m.Funcs {
		c := &cser{table: map[cseKey]*Instr{}, epoch: map[*Array]int{}, sub: subst{}}
		c.block(f.Body)
	}
	return nil
}

type cseKey struct {
	op    Op
	t     Type
	aux   uint64
	arr   *Array
	epoch int
	n     int
	a     [4]*Value
}

type cser struct {
	table map[cseKey]*Instr
	added []cseKey // keys added in the current scopes, for popping
	epoch map[*Array]int
	next  int
	sub   subst
}

func (c *cser) bump(arrs map[*Array]bool) {
	for a := range arrs {
		c.next++
		c.epoch[a] = c.next
	}
}

func (c *cser) key(in *Instr) (cseKey, bool) {
	if len(in.Args) > 4 || len(in.Results) == 0 {
		return cseKey{}, false
	}
	k := cseKey{op: in.Op, t: in.Results[0].Type, aux: in.Aux, arr: in.Arr, n: len(in.Args)}
	switch {
	case in.Op.IsPure():
	case in.Op == OpLen:
	case in.Op.ReadsMemory():
		if in.Arr.Kind != ArrGlobal {
			k.epoch = c.epoch[in.Arr]
		}
	default:
		return cseKey{}, false
	}
	copy(k.a[:], in.Args)
	if in.Op.IsCommutative() && k.a[0].ID > k.a[1].ID {
		k.a[0], k.a[1] = k.a[1], k.a[0]
	}
	return k, true
}

func (c *cser) block(b *Block) {
	mark := len(c.added)
	out := b.Instrs[:0]
	for _, in := range b.Instrs {
		c.sub.apply(in)
		switch in.Op {
		case OpIf:
			for _, blk := range in.Blocks {
				c.block(blk)
			}
			c.bump(writtenArrays(in.Blocks[0]))
			c.bump(writtenArrays(in.Blocks[1]))
		case OpFor:
			// Later iterations see what earlier ones wrote.
			w := writtenArrays(in.Blocks[0])
			c.bump(w)
			c.block(in.Blocks[0])
			c.bump(w)
		case OpStore, OpStoreLE, OpStoreBE:
			c.bump(map[*Array]bool{in.Arr: true})
		case OpCall:
			w := map[*Array]bool{}
			for i, p := range arrayParams(in.Callee) {
				if p.Arr.Mut {
					w[in.Arrs[i]] = true
				}
			}
			c.bump(w)
		default:
			if k, ok := c.key(in); ok {
				if prev, found := c.table[k]; found {
					for i, r := range in.Results {
						c.sub[r] = prev.Results[i]
					}
					continue
				}
				c.table[k] = in
				c.added = append(c.added, k)
			}
		}
		out = append(out, in)
	}
	b.Instrs = out
	for _, k := range c.added[mark:] {
		delete(c.table, k)
	}
	c.added = c.added[:mark]
}
