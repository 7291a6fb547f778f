package jcvm

import (
	"github.com/lowent/lowentc/ir"
)

// Calls of the module's own functions. When the IR keeps a call (irOptions
// sets an inline budget), its callee is one static method of the class that
// every caller shares, exported or not, with the ABI of an export: a word
// parameter is its limbs, an array parameter the array's reference and the
// start of the region in Java elements (and its length in source elements
// for a slice). One result is the method's value; more come back in the
// carry array, which the caller reads into locals right after the call.

// call lowers an OpCall.
func (l *lowerer) call(in *ir.Instr) []Expr {
	m := l.cls.Funcs[in.Callee]
	if m == nil {
		l.fail("BUG: call of %s, which has no method", in.Callee.Name)
	}
	group := 1 // limbs of an index, offset or length
	if l.w == 16 {
		group = 2
	}
	nScalar := len(in.Args) - 2*group*len(in.Arrs)
	if nScalar < 0 {
		l.fail("BUG: call of %s with %d arguments for %d arrays", in.Callee.Name, len(in.Args), len(in.Arrs))
	}
	var args []Expr
	si, ai := 0, 0
	for _, p := range in.Callee.Params {
		if p.Val != nil {
			if si >= nScalar {
				l.fail("BUG: call of %s: too few scalar arguments", in.Callee.Name)
			}
			args = append(args, l.get(in.Args[si]))
			si++
			continue
		}
		if ai >= len(in.Arrs) {
			l.fail("BUG: call of %s: too few array arguments", in.Callee.Name)
		}
		region := in.Args[nScalar+2*group*ai:]
		a := l.arr(in.Arrs[ai])
		ai++
		if a.Elem != l.elemOf(p.Arr) || a.Wide != (p.Arr.Elem == ir.U32) {
			l.fail("array %s passed to %s in another layout", a.Name, in.Callee.Name)
		}
		// The region starts at source element off: limbs off*Per on, two
		// shorts per u32 limb.
		scale := p.Arr.Per
		if a.Wide {
			scale *= 2
		}
		off := conv(l.get(region[0]), KShort)
		if scale != 1 {
			off = bin(OMul, KShort, off, sconst(int32(scale)))
		}
		off = at(a, off)
		var ref Expr = &EArr{A: a}
		if !a.Static() {
			ref = &EVar{V: a.Ref}
		}
		args = append(args, ref, off)
		if p.Arr.IsSlice() {
			args = append(args, conv(l.get(region[group]), KShort))
		}
	}
	if si != nScalar || ai != len(in.Arrs) {
		l.fail("BUG: call of %s: %d of %d scalar and %d of %d array arguments used", in.Callee.Name, si, nScalar, ai, len(in.Arrs))
	}
	c := &ECall{M: m, Args: args}
	res := make([]Expr, len(in.Results))
	switch {
	case len(in.Results) == 1 && l.uses[in.Results[0]] > 0:
		res[0] = &EVar{V: l.assign(c)}
	default:
		l.emit(&SCall{C: c})
		if len(in.Results) > 1 {
			k := 0
			for i, r := range in.Results {
				var e Expr
				e, k = l.loadCarry(k, l.kindOf(r.Type))
				if l.uses[r] > 0 {
					res[i] = &EVar{V: l.assign(e)}
				}
			}
		}
	}
	return res
}

// rtNeeded returns the runtime functions the program needs: the exported
// ones it uses as builtins and every function they call.
func rtNeeded(rtMod, mod *ir.Module) map[*ir.Function]bool {
	var roots []*ir.Function
	for _, f := range rtMod.Funcs {
		if f.Export && usesBuiltin(mod, f.Name) {
			roots = append(roots, f)
		}
	}
	return ir.CallClosure(roots...)
}

// hasMethod reports whether the class has a method named name (init()
// included).
func (c *Class) hasMethod(name string) bool {
	if name == "init" {
		return true
	}
	for _, m := range c.Methods {
		if m.Name == name {
			return true
		}
	}
	return false
}

// methodName is the name of the method of a module function: its own,
// unless a method of the class (the runtime's, init) has it already, as a
// function that is not exported may (an export's name is its interface).
func methodName(cls *Class, f *ir.Function) string {
	name := jname(f.Name)
	for !f.Export && cls.hasMethod(name) {
		name += "_"
	}
	return name
}

// carryInt returns the method reading the int at short index k of the
// carry array (two shorts, high first), making it on first use. Every
// multi-result call reads its int results through it: a call site takes
// 4 bytes of bytecode per int instead of 20, for about 23 µs more per int.
func (c *Class) carryInt() *Method {
	for _, m := range c.Methods {
		if m.carryInt {
			return m
		}
	}
	name := "rt_carry"
	for c.hasMethod(name) {
		name += "_"
	}
	m := &Method{Name: name, Ret: KInt, carryInt: true}
	k := m.newVar(KShort)
	m.Params = []*Var{k}
	hi := conv(&ELoad{A: c.Carry, I: &EVar{V: k}}, KInt)
	lo := bin(OAnd, KInt, conv(&ELoad{A: c.Carry, I: bin(OAdd, KShort, &EVar{V: k}, sconst(1))}, KInt), iconst(0xffff))
	m.Body = []Stmt{&SReturn{X: bin(OOr, KInt, bin(OShl, KInt, hi, iconst(16)), lo)}}
	c.Methods = append(c.Methods, m)
	return m
}
