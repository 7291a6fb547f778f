package ir

import (
	"errors"
	"fmt"
	"strings"
)

// Verify checks m's invariants and returns every violation found (up to a
// limit) as one error, or nil:
//   - every value is defined once and used only where its definition is in
//     scope (earlier in the same block or in an enclosing one);
//   - every op has the operand and result types its definition asks for;
//     after legalization (m.W > 0) operands that are limb groups (indexes,
//     u64 builtin operands, loop bounds) have the right number of limbs;
//   - blocks end with the right terminator, yielding the right types;
//   - arrays belong to the function or the module; only writable ones are
//     written; calls match their callee's parameters (after legalization:
//     a limb group per scalar parameter, and per array parameter a region
//     whose offset and length are IndexType limb groups, of an array with
//     the parameter's element type and Per); callees are functions of the
//     module and calls form no cycle;
//   - after legalization no value is wider than W.
//
// Tests run Verify after every pass.
func (m *Module) Verify() error {
	var errs []string
	funcs := map[*Function]bool{}
	for mod := m; mod != nil; mod = mod.outer {
		for _, f := range mod.Funcs {
			funcs[f] = true
		}
	}
	if cyc := callCycle(m); cyc != "" {
		errs = append(errs, "calls form a cycle: "+cyc)
	}
	for _, f := range m.Funcs {
		v := &verifier{m: m, f: f, funcs: funcs, defined: make(map[*Value]bool, f.nextID), inScope: make(map[*Value]bool, f.nextID), arrays: map[*Array]bool{}}
		v.run()
		errs = append(errs, v.errs...)
	}
	if len(errs) == 0 {
		return nil
	}
	if len(errs) > 20 {
		errs = append(errs[:20], fmt.Sprintf("... and %d more", len(errs)-20))
	}
	return errors.New("ir verify: " + strings.Join(errs, "\n  "))
}

// callCycle returns a description of a cycle of calls in m, or "".
func callCycle(m *Module) string {
	state := map[*Function]int{}
	var cyc string
	var visit func(f *Function)
	visit = func(f *Function) {
		state[f] = 1
		walkInstrs(f.Body, func(in *Instr) {
			if in.Op != OpCall || in.Callee == nil || cyc != "" {
				return
			}
			switch state[in.Callee] {
			case 0:
				visit(in.Callee)
			case 1:
				cyc = f.Name + " calls " + in.Callee.Name
			}
		})
		state[f] = 2
	}
	for _, f := range m.Funcs {
		if state[f] == 0 && f.Body != nil {
			visit(f)
		}
	}
	return cyc
}

type verifier struct {
	m       *Module
	funcs   map[*Function]bool // the functions a call may name
	f       *Function
	defined map[*Value]bool
	inScope map[*Value]bool
	arrays  map[*Array]bool
	errs    []string
	at      *Instr // the instruction being checked, for messages
	atIndex int
}

func (v *verifier) errorf(format string, args ...any) {
	where := ""
	if v.at != nil {
		where = fmt.Sprintf("%s #%d: ", v.at.Op, v.atIndex)
	}
	v.errs = append(v.errs, fmt.Sprintf("%s: %s%s", v.f.Name, where, fmt.Sprintf(format, args...)))
}

func (v *verifier) run() {
	for _, g := range v.m.Globals {
		v.arrays[g] = true
	}
	for _, a := range v.f.Locals {
		v.arrays[a] = true
		if a.Kind != ArrLocal {
			v.errorf("local %s has kind %d", a.Name, a.Kind)
		}
	}
	for _, p := range v.f.Params {
		switch {
		case p.Arr != nil && p.Val == nil:
			v.arrays[p.Arr] = true
		case p.Val != nil && p.Arr == nil:
			v.define(p.Val)
		default:
			v.errorf("parameter %s must be a value or an array", p.Name)
		}
	}
	if v.f.Body == nil {
		v.errorf("no body")
		return
	}
	v.block(v.f.Body, nil)
	if t := v.f.Body.Term(); t == nil || t.Op != OpReturn {
		v.errorf("body does not end with return")
	}
}

func (v *verifier) define(val *Value) {
	if val == nil {
		v.errorf("nil value defined")
		return
	}
	if v.defined[val] {
		v.errorf("value %%?%d defined twice", val.ID)
	}
	v.defined[val] = true
	v.inScope[val] = true
	if v.m.W > 0 && val.Type.Bits() > v.m.W {
		v.errorf("value %%?%d of type %s is wider than W=%d", val.ID, val.Type, v.m.W)
	}
	if val.Type.Bits() == 0 {
		v.errorf("value %%?%d has no type", val.ID)
	}
}

// block checks b; owner is the if or for that holds it (nil for the body).
func (v *verifier) block(b *Block, owner *Instr) {
	var local []*Value
	for _, p := range b.Params {
		v.define(p)
		local = append(local, p)
	}
	for i, in := range b.Instrs {
		v.at, v.atIndex = in, i
		for _, a := range in.Args {
			if a == nil {
				v.errorf("nil argument")
			} else if !v.inScope[a] {
				v.errorf("uses %%?%d outside its scope", a.ID)
			}
		}
		term := in.Op == OpYield || in.Op == OpReturn
		if term != (i == len(b.Instrs)-1) {
			v.errorf("terminators must end blocks (and only they)")
		}
		for _, blk := range in.Blocks {
			v.block(blk, in)
		}
		v.at, v.atIndex = in, i
		v.instr(in, owner)
		for _, r := range in.Results {
			if r.Def != in {
				v.errorf("result %%?%d does not point back at its instruction", r.ID)
			}
			v.define(r)
			local = append(local, r)
		}
	}
	v.at = nil
	if len(b.Instrs) == 0 {
		v.errorf("empty block")
	}
	for _, val := range local {
		delete(v.inScope, val)
	}
}

// limbType is the type of each limb of a value of type t.
func (v *verifier) limbType(t Type) Type {
	if v.m.W == 0 || t.Bits() <= v.m.W {
		return t
	}
	return WordType(v.m.W)
}

// group checks that vals is a limb group of a t value.
func (v *verifier) group(vals []*Value, t Type, what string) {
	if len(vals) != v.m.Limbs(t) {
		v.errorf("%s: %d limbs, want %d", what, len(vals), v.m.Limbs(t))
		return
	}
	for _, x := range vals {
		if x != nil && x.Type != v.limbType(t) {
			v.errorf("%s: limb of type %s, want %s", what, x.Type, v.limbType(t))
		}
	}
}

func (v *verifier) nargs(in *Instr, n int) bool {
	if len(in.Args) != n {
		v.errorf("%d arguments, want %d", len(in.Args), n)
		return false
	}
	for _, a := range in.Args {
		if a == nil {
			return false
		}
	}
	return true
}

func (v *verifier) nresults(in *Instr, types ...Type) {
	if len(in.Results) != len(types) {
		v.errorf("%d results, want %d", len(in.Results), len(types))
		return
	}
	for i, t := range types {
		if in.Results[i].Type != t {
			v.errorf("result %d has type %s, want %s", i, in.Results[i].Type, t)
		}
	}
}

func (v *verifier) sameTypes(in *Instr, t Type, args ...*Value) {
	for _, a := range args {
		if a.Type != t {
			v.errorf("argument of type %s, want %s", a.Type, t)
		}
	}
}

func (v *verifier) array(in *Instr, write bool) bool {
	a := in.Arr
	if a == nil {
		v.errorf("no array")
		return false
	}
	if !v.arrays[a] {
		v.errorf("array %s does not belong to the function or module", a.Name)
	}
	if write && (a.Kind == ArrGlobal || (a.Kind == ArrParam && !a.Mut)) {
		v.errorf("writes read-only array %s", a.Name)
	}
	return true
}

func (v *verifier) instr(in *Instr, owner *Instr) {
	op := in.Op
	switch {
	case op == OpConst:
		if v.nargs(in, 0) && len(in.Results) == 1 {
			t := in.Results[0].Type
			if in.Aux&^t.Mask() != 0 {
				v.errorf("constant %#x does not fit %s", in.Aux, t)
			}
		} else {
			v.nresults(in, TInvalid)
		}
	case op == OpCopy:
		if v.nargs(in, 1) {
			v.nresults(in, in.Args[0].Type)
		}
	case op >= OpAdd && op <= OpXor:
		if v.nargs(in, 2) {
			t := in.Args[0].Type
			if !t.IsWord() && !(t == Bool && op >= OpAnd) {
				v.errorf("operand type %s", t)
			}
			v.sameTypes(in, t, in.Args[1])
			v.nresults(in, t)
		}
	case op == OpNot || op == OpNeg:
		if v.nargs(in, 1) {
			t := in.Args[0].Type
			if !t.IsWord() && !(t == Bool && op == OpNot) {
				v.errorf("operand type %s", t)
			}
			v.nresults(in, t)
		}
	case op >= OpShl && op <= OpRotr:
		if v.nargs(in, 2) {
			if !in.Args[0].Type.IsWord() || !in.Args[1].Type.IsWord() {
				v.errorf("operands must be words")
			}
			v.nresults(in, in.Args[0].Type)
		}
	case op == OpFshl || op == OpFshr:
		if v.nargs(in, 2) {
			t := in.Args[0].Type
			v.sameTypes(in, t, in.Args[1])
			if !t.IsWord() || in.Aux == 0 || in.Aux >= uint64(t.Bits()) {
				v.errorf("funnel shift of %s by %d", t, in.Aux)
			}
			v.nresults(in, t)
		}
	case op.isCompare():
		if v.nargs(in, 2) {
			t := in.Args[0].Type
			v.sameTypes(in, t, in.Args[1])
			if (op == OpUlt || op == OpUle) && !t.IsWord() {
				v.errorf("ordered comparison of %s", t)
			}
			v.nresults(in, Bool)
		}
	case op == OpZext || op == OpTrunc:
		if v.nargs(in, 1) && len(in.Results) == 1 {
			from, to := in.Args[0].Type, in.Results[0].Type
			ok := to.IsWord() && in.Type == to
			if op == OpZext {
				ok = ok && to.Bits() >= from.Bits()
			} else {
				ok = ok && from.IsWord() && to.Bits() <= from.Bits()
			}
			if !ok {
				v.errorf("%s from %s to %s (Type %s)", op, from, to, in.Type)
			}
		} else {
			v.nresults(in, TInvalid)
		}
	case op == OpSelect:
		if v.nargs(in, 3) {
			v.sameTypes(in, Bool, in.Args[0])
			v.sameTypes(in, in.Args[1].Type, in.Args[2])
			v.nresults(in, in.Args[1].Type)
		}
	case op == OpAddC || op == OpSubB:
		if v.nargs(in, 3) {
			t := in.Args[0].Type
			v.sameTypes(in, t, in.Args[1])
			v.sameTypes(in, Bool, in.Args[2])
			v.nresults(in, t, Bool)
		}
	case op == OpMulW:
		if v.nargs(in, 2) {
			t := in.Args[0].Type
			v.sameTypes(in, t, in.Args[1])
			v.nresults(in, t, t)
		}
	case op == OpClmulLo || op == OpClmulHi || op == OpAESEnc || op == OpAESEncLast:
		n := v.m.Limbs(U64)
		ins, outs := 2, 1
		if op == OpAESEnc || op == OpAESEncLast {
			ins, outs = 4, 2
		}
		if v.nargs(in, ins*n) {
			for i := 0; i < ins; i++ {
				v.group(in.Args[i*n:i*n+n], U64, "operand")
			}
		}
		if len(in.Results) != outs*n {
			v.errorf("%d results, want %d", len(in.Results), outs*n)
			return
		}
		for i := 0; i < outs; i++ {
			v.group(in.Results[i*n:i*n+n], U64, "result")
		}
	case op == OpSHA256Rnds2 || op == OpSHA256Msg1 || op == OpSHA256Msg2:
		if v.m.W != 0 && v.m.W < 64 {
			v.errorf("%s in IR legalized at W=%d", op, v.m.W)
		}
		if v.nargs(in, opInfos[op].nargs) {
			v.sameTypes(in, U32, in.Args...)
		}
		v.nresults(in, U32, U32, U32, U32)
	case op == OpHave:
		if v.nargs(in, 0) {
			v.nresults(in, Bool)
		}
	case op == OpLoad:
		if v.array(in, false) && v.nargs(in, v.m.Limbs(IndexType)) {
			v.group(in.Args, IndexType, "index")
			v.nresults(in, in.Arr.Elem)
		}
	case op == OpStore:
		n := v.m.Limbs(IndexType)
		if v.array(in, true) && v.nargs(in, n+1) {
			v.group(in.Args[:n], IndexType, "index")
			v.sameTypes(in, in.Arr.Elem, in.Args[n])
			v.nresults(in)
		}
	case op == OpLen:
		if v.array(in, false) {
			if !in.Arr.IsSlice() {
				v.errorf("len of fixed array %s", in.Arr.Name)
			}
			v.nargs(in, 0)
			v.group(in.Results, IndexType, "length")
		}
	case op >= OpLoadLE && op <= OpStoreBE:
		store := op == OpStoreLE || op == OpStoreBE
		n := v.m.Limbs(IndexType)
		t := WordType(int(in.Aux))
		if t == TInvalid || t == U8 || (v.m.W > 0 && t.Bits() > v.m.W) {
			v.errorf("byte-order access of %d bits", in.Aux)
		}
		if !v.array(in, store) {
			return
		}
		if in.Arr.Elem != U8 {
			v.errorf("byte-order access to array of %s", in.Arr.Elem)
		}
		if store {
			if v.nargs(in, n+1) {
				v.group(in.Args[:n], IndexType, "offset")
				v.sameTypes(in, t, in.Args[n])
				v.nresults(in)
			}
		} else if v.nargs(in, n) {
			v.group(in.Args, IndexType, "offset")
			v.nresults(in, t)
		}
	case op == OpCheck:
		if v.nargs(in, 1) {
			v.sameTypes(in, Bool, in.Args[0])
		}
		if in.Check == nil {
			v.errorf("check without a message")
		}
		v.nresults(in)
	case op == OpCall:
		v.call(in)
	case op == OpTrace:
		v.nresults(in)
	case op == OpIf:
		v.ifInstr(in)
	case op == OpFor:
		v.forInstr(in)
	case op == OpYield:
		if owner == nil {
			v.errorf("yield outside if/for")
			return
		}
		var want []Type
		for _, r := range owner.Results {
			want = append(want, r.Type)
		}
		v.terminator(in, want)
	case op == OpReturn:
		if owner != nil {
			v.errorf("return inside if/for")
		}
		v.terminator(in, v.f.Results)
	default:
		v.errorf("unknown op")
	}
	if len(in.Blocks) > 0 && op != OpIf && op != OpFor {
		v.errorf("only if and for have blocks")
	}
}

func (v *verifier) terminator(in *Instr, want []Type) {
	if len(in.Args) != len(want) {
		v.errorf("%d values, want %d", len(in.Args), len(want))
		return
	}
	for i, a := range in.Args {
		if a != nil && a.Type != want[i] {
			v.errorf("value %d has type %s, want %s", i, a.Type, want[i])
		}
	}
}

func (v *verifier) ifInstr(in *Instr) {
	if v.nargs(in, 1) {
		v.sameTypes(in, Bool, in.Args[0])
	}
	if len(in.Blocks) != 2 {
		v.errorf("if needs two blocks")
		return
	}
	for _, b := range in.Blocks {
		if len(b.Params) != 0 {
			v.errorf("if blocks take no parameters")
		}
		if t := b.Term(); t == nil || t.Op != OpYield {
			v.errorf("if block does not end with yield")
		}
	}
}

func (v *verifier) forInstr(in *Instr) {
	if !in.Type.IsWord() || len(in.Blocks) != 1 {
		v.errorf("for needs a word index type and one block")
		return
	}
	n := v.m.Limbs(in.Type)
	k := len(in.Results)
	body := in.Blocks[0]
	if len(in.Args) != 2*n+k || len(body.Params) != n+k {
		v.errorf("for with %d args and %d block parameters, want %d and %d", len(in.Args), len(body.Params), 2*n+k, n+k)
		return
	}
	v.group(in.Args[:n], in.Type, "lower bound")
	v.group(in.Args[n:2*n], in.Type, "upper bound")
	v.group(body.Params[:n], in.Type, "index")
	for i, r := range in.Results {
		if in.Args[2*n+i].Type != r.Type || body.Params[n+i].Type != r.Type {
			v.errorf("loop-carried value %d: types differ", i)
		}
	}
	if t := body.Term(); t == nil || t.Op != OpYield {
		v.errorf("for body does not end with yield")
	}
}

func (v *verifier) call(in *Instr) {
	c := in.Callee
	if c == nil {
		v.errorf("call without callee")
		return
	}
	if !v.funcs[c] {
		v.errorf("call of %s, which is not in the module", c.Name)
	}
	var scalars []*Param
	var arrays []*Param
	for _, p := range c.Params {
		if p.Arr != nil {
			arrays = append(arrays, p)
		} else {
			scalars = append(scalars, p)
		}
	}
	// After legalization the callee's scalar parameters are limbs already,
	// one argument each; a region bound is an IndexType limb group.
	k := v.m.Limbs(IndexType)
	ns := len(scalars)
	if len(in.Arrs) != len(arrays) || len(in.Args) != ns+2*k*len(arrays) {
		v.errorf("call of %s: argument counts do not match", c.Name)
		return
	}
	for i, p := range scalars {
		if in.Args[i] != nil && in.Args[i].Type != p.Val.Type {
			v.errorf("call of %s: argument %s has type %s, want %s", c.Name, p.Name, in.Args[i].Type, p.Val.Type)
		}
	}
	for i, p := range arrays {
		a := in.Arrs[i]
		if a == nil {
			v.errorf("call of %s: nil array", c.Name)
			continue
		}
		if !v.arrays[a] {
			v.errorf("call of %s: array %s does not belong to the function", c.Name, a.Name)
		}
		if a.Elem != p.Arr.Elem || a.Per != p.Arr.Per {
			v.errorf("call of %s: array %s has elements %s (%d limbs), want %s (%d)", c.Name, a.Name, a.Elem, a.Per, p.Arr.Elem, p.Arr.Per)
		}
		if p.Arr.Mut && (a.Kind == ArrGlobal || (a.Kind == ArrParam && !a.Mut)) {
			v.errorf("call of %s: read-only %s passed as mut", c.Name, a.Name)
		}
		off := ns + 2*k*i
		v.group(in.Args[off:off+k], IndexType, "region offset")
		v.group(in.Args[off+k:off+2*k], IndexType, "region length")
	}
	v.nresults(in, c.Results...)
}
