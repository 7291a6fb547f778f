package ir

import "github.com/lowent/lowentc/sem"

// NewModule makes an empty module.
func NewModule(name string) *Module { return &Module{Name: name} }

// NewFunction adds an empty function to m.
func (m *Module) NewFunction(name string, export bool) *Function {
	f := &Function{Name: name, QualName: m.Name + "." + name, Export: export, Body: &Block{}}
	m.Funcs = append(m.Funcs, f)
	return f
}

// AddGlobal adds a read-only table to m.
func (m *Module) AddGlobal(name string, elem Type, data []uint64) *Array {
	a := &Array{Name: name, Kind: ArrGlobal, Elem: elem, Len: len(data), Per: 1, Data: data}
	m.Globals = append(m.Globals, a)
	return a
}

// AddParam adds a scalar parameter to f (and to its signature).
func (f *Function) AddParam(name string, t Type) *Value {
	v := f.NewValue(t)
	f.Params = append(f.Params, &Param{Name: name, Val: v})
	f.Sig.Params = append(f.Sig.Params, SigParam{Name: name, Type: t})
	return v
}

// AddArrayParam adds an array parameter of n elements (n < 0: a slice).
func (f *Function) AddArrayParam(name string, elem Type, n int, mut bool) *Array {
	a := &Array{Name: f.UniqueArrayName(name), Kind: ArrParam, Elem: elem, Len: n, Per: 1, Mut: mut}
	if n < 0 {
		a.Len = -1
	}
	f.Params = append(f.Params, &Param{Name: name, Arr: a})
	f.Sig.Params = append(f.Sig.Params, SigParam{Name: name, Type: elem, Array: true, Slice: n < 0, Len: max(n, 0), Mut: mut})
	return a
}

// SetResults sets f's scalar result types (and its signature's).
func (f *Function) SetResults(ts ...Type) {
	f.Results = append([]Type(nil), ts...)
	f.Sig.Results = nil
	for _, t := range ts {
		f.Sig.Results = append(f.Sig.Results, SigParam{Type: t})
	}
}

// Builder appends instructions to a block of a function.
type Builder struct {
	F   *Function
	Blk *Block
	Pos sem.Pos // given to every instruction built
}

// NewBuilder returns a builder appending to f's body.
func NewBuilder(f *Function) *Builder {
	if f.Body == nil {
		f.Body = &Block{}
	}
	return &Builder{F: f, Blk: f.Body}
}

// At returns a builder appending to blk of the same function.
func (b *Builder) At(blk *Block) *Builder { return &Builder{F: b.F, Blk: blk, Pos: b.Pos} }

// Emit appends in to the current block.
func (b *Builder) Emit(in *Instr) *Instr {
	if in.Pos == (sem.Pos{}) {
		in.Pos = b.Pos
	}
	b.Blk.Instrs = append(b.Blk.Instrs, in)
	return in
}

// Instr appends an instruction with fresh results of the given types.
func (b *Builder) Instr(op Op, results []Type, args ...*Value) *Instr {
	return b.Emit(b.F.newInstr(op, results, args...))
}

// Op appends a single-result instruction and returns its result.
func (b *Builder) Op(op Op, t Type, args ...*Value) *Value {
	in := b.Instr(op, []Type{t}, args...)
	if op == OpZext || op == OpTrunc {
		in.Type = t
	}
	return in.Results[0]
}

// Const returns a constant of type t (c is masked to t).
func (b *Builder) Const(t Type, c uint64) *Value {
	in := b.Instr(OpConst, []Type{t})
	in.Aux = c & t.Mask()
	return in.Results[0]
}

// Bin appends a binary op; comparisons give bool, everything else x's type.
func (b *Builder) Bin(op Op, x, y *Value) *Value {
	t := x.Type
	if op.isCompare() {
		t = Bool
	}
	return b.Op(op, t, x, y)
}

func (b *Builder) Add(x, y *Value) *Value        { return b.Bin(OpAdd, x, y) }
func (b *Builder) Sub(x, y *Value) *Value        { return b.Bin(OpSub, x, y) }
func (b *Builder) Mul(x, y *Value) *Value        { return b.Bin(OpMul, x, y) }
func (b *Builder) And(x, y *Value) *Value        { return b.Bin(OpAnd, x, y) }
func (b *Builder) Or(x, y *Value) *Value         { return b.Bin(OpOr, x, y) }
func (b *Builder) Xor(x, y *Value) *Value        { return b.Bin(OpXor, x, y) }
func (b *Builder) Shl(x, y *Value) *Value        { return b.Bin(OpShl, x, y) }
func (b *Builder) Shr(x, y *Value) *Value        { return b.Bin(OpShr, x, y) }
func (b *Builder) Eq(x, y *Value) *Value         { return b.Bin(OpEq, x, y) }
func (b *Builder) Ne(x, y *Value) *Value         { return b.Bin(OpNe, x, y) }
func (b *Builder) Ult(x, y *Value) *Value        { return b.Bin(OpUlt, x, y) }
func (b *Builder) Ule(x, y *Value) *Value        { return b.Bin(OpUle, x, y) }
func (b *Builder) Not(x *Value) *Value           { return b.Op(OpNot, x.Type, x) }
func (b *Builder) Copy(x *Value) *Value          { return b.Op(OpCopy, x.Type, x) }
func (b *Builder) Zext(t Type, x *Value) *Value  { return b.Op(OpZext, t, x) }
func (b *Builder) Trunc(t Type, x *Value) *Value { return b.Op(OpTrunc, t, x) }

// Select returns a if c else b.
func (b *Builder) Select(c, x, y *Value) *Value { return b.Op(OpSelect, x.Type, c, x, y) }

// Fsh appends a funnel shift (OpFshl or OpFshr) of hi:lo by the constant n.
func (b *Builder) Fsh(op Op, hi, lo *Value, n int) *Value {
	in := b.Instr(op, []Type{hi.Type}, hi, lo)
	in.Aux = uint64(n)
	return in.Results[0]
}

// Pair appends a two-result op (addc, subb, mulw) and returns both results.
func (b *Builder) Pair(op Op, args ...*Value) (*Value, *Value) {
	second := Bool
	if op == OpMulW {
		second = args[0].Type
	}
	in := b.Instr(op, []Type{args[0].Type, second}, args...)
	return in.Results[0], in.Results[1]
}

// Load reads arr[idx].
func (b *Builder) Load(arr *Array, idx ...*Value) *Value {
	in := b.Instr(OpLoad, []Type{arr.Elem}, idx...)
	in.Arr = arr
	return in.Results[0]
}

// Store writes arr[idx] = v; idx may be a limb group after legalization.
func (b *Builder) Store(arr *Array, v *Value, idx ...*Value) {
	in := b.Instr(OpStore, nil, append(append([]*Value(nil), idx...), v)...)
	in.Arr = arr
}

// Len returns the run-time length of a slice parameter.
func (b *Builder) Len(arr *Array) *Value {
	in := b.Instr(OpLen, []Type{IndexType})
	in.Arr = arr
	return in.Results[0]
}

// LoadBytes appends loadle/loadbe of a bits-wide word at byte offset off.
func (b *Builder) LoadBytes(bigEndian bool, bits int, arr *Array, off ...*Value) *Value {
	op := OpLoadLE
	if bigEndian {
		op = OpLoadBE
	}
	in := b.Instr(op, []Type{WordType(bits)}, off...)
	in.Arr, in.Aux = arr, uint64(bits)
	return in.Results[0]
}

// StoreBytes appends storele/storebe of v at byte offset off.
func (b *Builder) StoreBytes(bigEndian bool, arr *Array, v *Value, off ...*Value) {
	op := OpStoreLE
	if bigEndian {
		op = OpStoreBE
	}
	in := b.Instr(op, nil, append(append([]*Value(nil), off...), v)...)
	in.Arr, in.Aux = arr, uint64(v.Type.Bits())
}

// Check stops the program with msg at pos when cond is false.
func (b *Builder) Check(cond *Value, kind CheckKind, pos sem.Pos, msg string) *CheckInfo {
	in := b.Instr(OpCheck, nil, cond)
	in.Check = &CheckInfo{Kind: kind, Pos: pos, Msg: msg}
	return in.Check
}

// CallArg is one argument of a call: a scalar Val, or an array region of
// Arr starting at element Off with Len elements (Off and Len IndexType).
type CallArg struct {
	Val      *Value
	Arr      *Array
	Off, Len *Value
}

// Call appends a call of callee and returns its results. Array arguments
// travel as Arrs plus two Args each (offset, length), after the scalars.
func (b *Builder) Call(callee *Function, args []CallArg) []*Value {
	var vals, regions []*Value
	var arrs []*Array
	for _, a := range args {
		if a.Arr != nil {
			arrs = append(arrs, a.Arr)
			regions = append(regions, a.Off, a.Len)
		} else {
			vals = append(vals, a.Val)
		}
	}
	in := b.Instr(OpCall, callee.Results, append(vals, regions...)...)
	in.Callee, in.Arrs = callee, arrs
	return in.Results
}

// If appends `if cond` with the given result types; then and els build the
// branches and return the values they yield.
func (b *Builder) If(cond *Value, types []Type, then, els func(*Builder) []*Value) []*Value {
	in := b.Instr(OpIf, types, cond)
	in.Blocks = []*Block{{}, {}}
	for i, fill := range []func(*Builder) []*Value{then, els} {
		sub := b.At(in.Blocks[i])
		var ys []*Value
		if fill != nil {
			ys = fill(sub)
		}
		sub.Yield(ys...)
	}
	return in.Results
}

// For appends a counted loop over idx in [lo, hi) of type idxT with
// loop-carried values starting at inits; body returns their next values.
func (b *Builder) For(idxT Type, lo, hi *Value, inits []*Value, body func(b *Builder, idx *Value, iters []*Value) []*Value) []*Value {
	types := make([]Type, len(inits))
	for i, v := range inits {
		types[i] = v.Type
	}
	in := b.Instr(OpFor, types, append([]*Value{lo, hi}, inits...)...)
	in.Type = idxT
	blk := &Block{}
	idx := b.F.NewValue(idxT)
	blk.Params = append(blk.Params, idx)
	iters := make([]*Value, len(inits))
	for i, t := range types {
		iters[i] = b.F.NewValue(t)
	}
	blk.Params = append(blk.Params, iters...)
	in.Blocks = []*Block{blk}
	sub := b.At(blk)
	sub.Yield(body(sub, idx, iters)...)
	return in.Results
}

// Yield ends the current block of an if or for.
func (b *Builder) Yield(vals ...*Value) { b.Instr(OpYield, nil, vals...) }

// Return ends the function body.
func (b *Builder) Return(vals ...*Value) { b.Instr(OpReturn, nil, vals...) }
