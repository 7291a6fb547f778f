package ir

// Clone returns a deep copy of m: its functions, blocks, instructions,
// values, arrays and checks are new objects, with the same value IDs,
// names and order, so that the copy prints exactly as m does. A backend
// that edits the module it generates from (reordering instructions,
// renumbering values) works on a copy while the original stays as the
// pipeline left it.
func (m *Module) Clone() *Module {
	c := &moduleCloner{
		vals:   map[*Value]*Value{},
		arrs:   map[*Array]*Array{},
		funcs:  map[*Function]*Function{},
		checks: map[*CheckInfo]*CheckInfo{},
	}
	cp := &Module{Name: m.Name, W: m.W, outer: m.outer}
	for _, g := range m.Globals {
		cp.Globals = append(cp.Globals, c.arr(g))
	}
	for _, f := range m.Funcs {
		cp.Funcs = append(cp.Funcs, c.fn(f))
	}
	for _, f := range m.Funcs {
		nf := c.funcs[f]
		for _, p := range f.Params {
			np := &Param{Name: p.Name}
			if p.Val != nil {
				np.Val = c.val(p.Val)
			}
			if p.Arr != nil {
				np.Arr = c.arr(p.Arr)
			}
			nf.Params = append(nf.Params, np)
		}
		for _, a := range f.Locals {
			nf.Locals = append(nf.Locals, c.arr(a))
		}
		if f.Body != nil {
			nf.Body = c.block(f.Body)
		}
	}
	return cp
}

type moduleCloner struct {
	vals   map[*Value]*Value
	arrs   map[*Array]*Array
	funcs  map[*Function]*Function
	checks map[*CheckInfo]*CheckInfo
}

// fn returns the copy of f without its parameters, locals and body
// (Clone fills them once every function has its copy, for calls).
func (c *moduleCloner) fn(f *Function) *Function {
	if nf, ok := c.funcs[f]; ok {
		return nf
	}
	nf := &Function{Name: f.Name, QualName: f.QualName, Export: f.Export, Pos: f.Pos, Source: f.Source,
		Results: append([]Type(nil), f.Results...), Sig: f.Sig, nextID: f.nextID}
	c.funcs[f] = nf
	return nf
}

func (c *moduleCloner) val(v *Value) *Value {
	if v == nil {
		return nil
	}
	if nv, ok := c.vals[v]; ok {
		return nv
	}
	nv := &Value{ID: v.ID, Type: v.Type}
	c.vals[v] = nv
	return nv
}

func (c *moduleCloner) arr(a *Array) *Array {
	if a == nil {
		return nil
	}
	if na, ok := c.arrs[a]; ok {
		return na
	}
	na := *a
	if a.Data != nil {
		na.Data = append([]uint64(nil), a.Data...)
	}
	c.arrs[a] = &na
	return &na
}

func (c *moduleCloner) check(ci *CheckInfo) *CheckInfo {
	if ci == nil {
		return nil
	}
	if n, ok := c.checks[ci]; ok {
		return n
	}
	n := *ci
	c.checks[ci] = &n
	return &n
}

func (c *moduleCloner) block(b *Block) *Block {
	nb := &Block{}
	for _, p := range b.Params {
		nb.Params = append(nb.Params, c.val(p))
	}
	for _, in := range b.Instrs {
		nb.Instrs = append(nb.Instrs, c.instr(in))
	}
	return nb
}

func (c *moduleCloner) instr(in *Instr) *Instr {
	n := &Instr{Op: in.Op, Aux: in.Aux, Type: in.Type, Arr: c.arr(in.Arr), Check: c.check(in.Check), Pos: in.Pos}
	if in.Callee != nil {
		n.Callee = c.fn(in.Callee)
	}
	if in.Args != nil {
		n.Args = make([]*Value, len(in.Args))
		for i, a := range in.Args {
			n.Args[i] = c.val(a)
		}
	}
	if in.Arrs != nil {
		n.Arrs = make([]*Array, len(in.Arrs))
		for i, a := range in.Arrs {
			n.Arrs[i] = c.arr(a)
		}
	}
	for _, r := range in.Results {
		nr := c.val(r)
		nr.Def = n
		n.Results = append(n.Results, nr)
	}
	for _, b := range in.Blocks {
		n.Blocks = append(n.Blocks, c.block(b))
	}
	return n
}
