package ir

import "github.com/lowent/lowentc/sem"

// Helpers shared by the passes: walking, use counts, substitution, cloning.

// walkInstrs calls fn for every instruction of b and its nested blocks, in
// program order (an if or for before its blocks' contents).
func walkInstrs(b *Block, fn func(in *Instr)) {
	for _, in := range b.Instrs {
		fn(in)
		for _, blk := range in.Blocks {
			walkInstrs(blk, fn)
		}
	}
}

// WalkInstrs calls fn for every instruction of b and its nested blocks, in
// program order (an if or for before its blocks' contents): the walk the
// passes use, for backends and analyses.
func WalkInstrs(b *Block, fn func(in *Instr)) { walkInstrs(b, fn) }

// CallClosure is the analysis of which functions roots need: the roots and
// every function they call, directly or through other calls.
func CallClosure(roots ...*Function) map[*Function]bool {
	need := map[*Function]bool{}
	var visit func(f *Function)
	visit = func(f *Function) {
		if need[f] {
			return
		}
		need[f] = true
		walkInstrs(f.Body, func(in *Instr) {
			if in.Op == OpCall {
				visit(in.Callee)
			}
		})
	}
	for _, f := range roots {
		visit(f)
	}
	return need
}

// rewrite replaces instructions in every function of m: fn gets a builder
// on an empty block and an instruction (whose arguments are already
// rewritten); when it returns values, the instructions it emitted take the
// instruction's place and the values replace its results everywhere. Nested
// blocks are rewritten before the instruction that owns them.
func rewrite(m *Module, fn func(nb *Builder, in *Instr) []*Value) {
	for _, f := range m.Funcs {
		sub := subst{}
		var block func(b *Block)
		block = func(b *Block) {
			var out []*Instr
			for _, in := range b.Instrs {
				sub.apply(in)
				for _, blk := range in.Blocks {
					block(blk)
				}
				nb := &Builder{F: f, Blk: &Block{}, Pos: in.Pos}
				vals := fn(nb, in)
				if vals == nil {
					out = append(out, in)
					continue
				}
				for i, r := range in.Results {
					sub[r] = vals[i]
				}
				out = append(out, nb.Blk.Instrs...)
			}
			b.Instrs = out
		}
		block(f.Body)
		sub.applyAll(f.Body)
	}
}

// useCounts counts how many times each value is used as an argument.
func useCounts(f *Function) map[*Value]int {
	uses := map[*Value]int{}
	walkInstrs(f.Body, func(in *Instr) {
		for _, a := range in.Args {
			uses[a]++
		}
	})
	return uses
}

// subst maps values to their replacements. Because every definition comes
// before its uses in program order, applying it in one forward walk
// reaches every use.
type subst map[*Value]*Value

// get returns the final replacement of v (v itself when it has none).
func (s subst) get(v *Value) *Value {
	for {
		r, ok := s[v]
		if !ok || r == v {
			return v
		}
		v = r
	}
}

// apply rewrites the arguments of in.
func (s subst) apply(in *Instr) {
	if len(s) == 0 {
		return
	}
	for i, a := range in.Args {
		in.Args[i] = s.get(a)
	}
}

// applyAll rewrites every argument in b and its nested blocks.
func (s subst) applyAll(b *Block) {
	if len(s) == 0 {
		return
	}
	walkInstrs(b, s.apply)
}

// writtenArrays returns the arrays that b (and its nested blocks) may write:
// by stores, and through `mut` parameters of calls.
func writtenArrays(b *Block) map[*Array]bool {
	w := map[*Array]bool{}
	walkInstrs(b, func(in *Instr) {
		switch in.Op {
		case OpStore, OpStoreLE, OpStoreBE:
			w[in.Arr] = true
		case OpCall:
			for i, p := range arrayParams(in.Callee) {
				if p.Arr.Mut {
					w[in.Arrs[i]] = true
				}
			}
		}
	})
	return w
}

// arrayParams returns f's array parameters in order.
func arrayParams(f *Function) []*Param {
	var out []*Param
	for _, p := range f.Params {
		if p.Arr != nil {
			out = append(out, p)
		}
	}
	return out
}

// hasEffects reports whether b contains an instruction with an effect
// (store, check, call, trace).
func hasEffects(b *Block) bool {
	found := false
	walkInstrs(b, func(in *Instr) {
		if in.Op.HasEffect() {
			found = true
		}
	})
	return found
}

// countInstrs counts b's instructions, nested ones included.
func countInstrs(b *Block) int {
	n := 0
	walkInstrs(b, func(*Instr) { n++ })
	return n
}

// ConstOf returns the constant value of v and whether it is one.
func ConstOf(v *Value) (uint64, bool) {
	if v != nil && v.Def != nil && v.Def.Op == OpConst {
		return v.Def.Aux, true
	}
	return 0, false
}

// isConst reports whether v is the constant c.
func isConst(v *Value, c uint64) bool {
	x, ok := ConstOf(v)
	return ok && x == c
}

// region is a run of elements of an array: the argument an array parameter
// stands for once its function is inlined.
type region struct {
	arr      *Array
	off, len *Value // IndexType; len is nil for a fixed-length region
}

// cloner copies instructions into function f, giving every value defined in
// the copy a fresh value. Values it has no mapping for (defined outside what
// is copied) are used as they are. Arrays in arrs are renamed; arrays in
// regions (inlined parameters) become offset accesses to another array.
type cloner struct {
	f       *Function
	vals    map[*Value]*Value
	arrs    map[*Array]*Array
	regions map[*Array]region
}

func newCloner(f *Function) *cloner {
	return &cloner{f: f, vals: map[*Value]*Value{}, arrs: map[*Array]*Array{}, regions: map[*Array]region{}}
}

func (c *cloner) val(v *Value) *Value {
	if r, ok := c.vals[v]; ok {
		return r
	}
	return v
}

func (c *cloner) fresh(v *Value) *Value {
	n := c.f.NewValue(v.Type)
	c.vals[v] = n
	return n
}

// block returns a copy of b.
func (c *cloner) block(b *Block) *Block {
	nb := &Block{}
	for _, p := range b.Params {
		nb.Params = append(nb.Params, c.fresh(p))
	}
	nb.Instrs = c.instrs(b.Instrs, nil)
	return nb
}

// instrs appends copies of src to dst.
func (c *cloner) instrs(src []*Instr, dst []*Instr) []*Instr {
	for _, in := range src {
		dst = c.instr(in, dst)
	}
	return dst
}

func (c *cloner) instr(in *Instr, dst []*Instr) []*Instr {
	n := &Instr{Op: in.Op, Aux: in.Aux, Type: in.Type, Arr: in.Arr, Callee: in.Callee, Check: in.Check, Pos: in.Pos}
	n.Args = make([]*Value, len(in.Args))
	for i, a := range in.Args {
		n.Args[i] = c.val(a)
	}
	if a, ok := c.arrs[n.Arr]; ok {
		n.Arr = a
	}
	if r, ok := c.regions[in.Arr]; ok && in.Arr != nil {
		switch in.Op {
		case OpLen:
			c.vals[in.Results[0]] = r.len
			return dst
		case OpLoad, OpLoadLE, OpLoadBE:
			n.Args[0], dst = c.offset(r, n.Args[0], in.Pos, dst)
		case OpStore, OpStoreLE, OpStoreBE:
			n.Args[0], dst = c.offset(r, n.Args[0], in.Pos, dst)
		}
		n.Arr = r.arr
	}
	if in.Arrs != nil {
		ns := len(in.Args) - 2*len(in.Arrs)
		n.Arrs = make([]*Array, len(in.Arrs))
		for i, a := range in.Arrs {
			n.Arrs[i] = a
			if m, ok := c.arrs[a]; ok {
				n.Arrs[i] = m
			}
			if r, ok := c.regions[a]; ok {
				n.Arrs[i] = r.arr
				n.Args[ns+2*i], dst = c.offset(r, n.Args[ns+2*i], in.Pos, dst)
			}
		}
	}
	for _, b := range in.Blocks {
		n.Blocks = append(n.Blocks, c.block(b))
	}
	for _, r := range in.Results {
		nr := c.fresh(r)
		nr.Def = n
		n.Results = append(n.Results, nr)
	}
	return append(dst, n)
}

// offset returns idx moved to region r's start, appending the add it needs.
func (c *cloner) offset(r region, idx *Value, pos sem.Pos, dst []*Instr) (*Value, []*Instr) {
	if r.off == nil || isConst(r.off, 0) {
		return idx, dst
	}
	add := c.f.newInstr(OpAdd, []Type{IndexType}, r.off, idx)
	add.Pos = pos
	return add.Results[0], append(dst, add)
}

// effectFree memoizes which functions a call may be removed of when its
// results are unused: those that (with every function they call) contain no
// check (a trap is an effect), no trace and no store to a parameter array.
// Stores to locals are not effects: a local is the callee's own static
// frame, written before it is read on every call.
type effectFree map[*Function]bool

func (e effectFree) of(f *Function) bool {
	if v, ok := e[f]; ok {
		return v
	}
	e[f] = false // no recursion; a cycle would be reported elsewhere
	free := true
	walkInstrs(f.Body, func(in *Instr) {
		switch in.Op {
		case OpCheck, OpTrace, OpInvalid:
			free = false
		case OpStore, OpStoreLE, OpStoreBE:
			if in.Arr.Kind != ArrLocal {
				free = false
			}
		case OpCall:
			if !e.of(in.Callee) {
				free = false
			}
		}
	})
	e[f] = free
	return free
}
