package jcvm

import "fmt"

// The code generator turns a method's statements into JCVM bytecode. Local
// slots must be allocated first. Branches always use the _w forms, so no
// offset can overflow and sizes are known without a relaxation pass.
// Constant-pool indexes: the class's static fields first, then its methods,
// then ISOException.throwIt.

type codegen struct {
	cls    *Class
	m      *Method
	code   []Insn
	depth  int
	max    int
	labels int32
}

func (g *codegen) push(cells int) {
	g.depth += cells
	if g.depth > g.max {
		g.max = g.depth
	}
}

// op appends opcode o with operand a; the opcode table gives its stack
// effect.
func (g *codegen) op(o byte, a int32) {
	g.emit(Insn{Op: o, A: a})
}

// invoke appends an invokestatic of constant-pool entry a that takes pop
// argument cells and leaves push.
func (g *codegen) invoke(a int32, pop, push int) {
	g.emit(Insn{Op: opInvokestatic, A: a, Pop: pop, Ret: push})
}

func (g *codegen) emit(in Insn) {
	if opName(in.Op) == "" {
		panic(fmt.Sprintf("BUG: jcvm codegen: opcode %d is not in the opcode table", in.Op))
	}
	g.code = append(g.code, in)
	pop, push := in.stackEffect()
	g.depth -= pop
	g.push(push)
}

func (g *codegen) label() int32 { g.labels++; return g.labels }

func (g *codegen) place(l int32) { g.code = append(g.code, Insn{Op: opLabel, A: l}) }

// throwIndex is the constant-pool index of ISOException.throwIt.
func (c *Class) throwIndex() int32 { return int32(len(c.Fields) + len(c.Methods)) }

// genMethod generates m's bytecode and sets Code, Stack and Size.
func genMethod(cls *Class, m *Method) {
	g := &codegen{cls: cls, m: m}
	g.stmts(m.Body)
	if m.Ret == KVoid {
		if len(g.code) == 0 || g.code[len(g.code)-1].Op != opReturn {
			g.op(opReturn, 0)
		}
	}
	m.Code, m.Stack = g.code, g.max
	m.Size = 0
	for _, in := range g.code {
		m.Size += in.size()
	}
}

func (g *codegen) stmts(ss []Stmt) {
	for _, s := range ss {
		g.stmt(s)
	}
}

func (g *codegen) stmt(s Stmt) {
	switch s := s.(type) {
	case *SAssign:
		if g.inc(s) {
			return
		}
		g.expr(s.X)
		g.storeLocal(s.V)
	case *SStore:
		g.arrayRef(s.A)
		g.expr(s.I)
		g.expr(s.X)
		if s.A.Elem == EByte {
			g.op(opBastore, 0)
		} else if s.A.Elem == EInt {
			g.op(opIastore, 0)
		} else {
			g.op(opSastore, 0)
		}
	case *SIf:
		els, end := g.label(), g.label()
		g.jumpUnless(s.C, els)
		g.stmts(s.Then)
		if len(s.Else) == 0 {
			g.place(els)
			return
		}
		g.op(opGotoW, end)
		g.place(els)
		g.stmts(s.Else)
		g.place(end)
	case *SWhile:
		body, test := g.label(), g.label()
		g.op(opGotoW, test)
		g.place(body)
		g.stmts(s.Body)
		g.place(test)
		c := s.C
		c.Rel = c.Rel.negate()
		g.jumpUnless(c, body)
	case *SReturn:
		if s.X == nil {
			g.op(opReturn, 0)
			return
		}
		g.expr(s.X)
		if s.X.Kind() == KInt {
			g.op(opReturnI, 0)
		} else {
			g.op(opReturnS, 0)
		}
	case *SThrow:
		g.constant(sconst(s.SW))
		g.invoke(g.cls.throwIndex(), 1, 0)
		g.code[len(g.code)-1].Check = s.Check
	case *SCall:
		g.call(s.C)
		switch s.C.M.Ret {
		case KInt:
			g.op(opPop2, 0)
		case KShort:
			g.op(opPop, 0)
		}
	default:
		panic(fmt.Sprintf("BUG: jcvm codegen: statement %T", s))
	}
}

// inc emits sinc/iinc for v = v + small constant.
func (g *codegen) inc(s *SAssign) bool {
	b, ok := s.X.(*EBin)
	if !ok || b.Op != OAdd && b.Op != OSub {
		return false
	}
	x, okx := b.X.(*EVar)
	c, okc := b.Y.(*EConst)
	if !okx || !okc || x.V != s.V {
		return false
	}
	d := c.V
	if b.Op == OSub {
		d = -d
	}
	if d < -128 || d > 127 {
		return false
	}
	o := byte(opSinc)
	if s.V.Kind == KInt {
		o = opIinc
	}
	g.emit(Insn{Op: o, A: int32(s.V.Slot), B: d})
	return true
}

func (g *codegen) storeLocal(v *Var) {
	if v.Slot < 0 {
		panic("BUG: jcvm codegen: unallocated local")
	}
	if v.Kind == KInt {
		if v.Slot <= 3 {
			g.op(opIstore0+byte(v.Slot), 0)
		} else {
			g.op(opIstore, int32(v.Slot))
		}
		return
	}
	if v.Slot <= 3 {
		g.op(opSstore0+byte(v.Slot), 0)
	} else {
		g.op(opSstore, int32(v.Slot))
	}
}

func (g *codegen) loadLocal(v *Var) {
	if v.Slot < 0 {
		panic("BUG: jcvm codegen: unallocated local")
	}
	base, short := byte(opSload0), byte(opSload)
	switch v.Kind {
	case KInt:
		base, short = opIload0, opIload
	case KRef:
		base, short = opAload0, opAload
	}
	if v.Slot <= 3 {
		g.op(base+byte(v.Slot), 0)
	} else {
		g.op(short, int32(v.Slot))
	}
}

func (g *codegen) arrayRef(a *Arr) {
	if a.Static() {
		g.op(opGetstaticA, int32(a.Field))
		return
	}
	g.loadLocal(a.Ref)
}

func (g *codegen) constant(c *EConst) {
	v := c.V
	if c.K == KInt {
		switch {
		case v >= -1 && v <= 5:
			g.op(opIconstM1+byte(v+1), 0)
		case v >= -128 && v <= 127:
			g.op(opBipush, v)
		case v >= -32768 && v <= 32767:
			g.op(opSipush, v)
		default:
			g.op(opIipush, v)
		}
		return
	}
	switch {
	case v >= -1 && v <= 5:
		g.op(opSconstM1+byte(v+1), 0)
	case v >= -128 && v <= 127:
		g.op(opBspush, v)
	default:
		g.op(opSspush, v)
	}
}

func (g *codegen) call(c *ECall) {
	cells := 0
	for _, a := range c.Args {
		g.expr(a)
		cells += a.Kind().Cells()
	}
	g.invoke(int32(len(g.cls.Fields)+c.M.Index), cells, c.M.Ret.Cells())
}

func (g *codegen) expr(e Expr) {
	switch e := e.(type) {
	case *EConst:
		g.constant(e)
	case *EVar:
		g.loadLocal(e.V)
	case *EBin:
		g.expr(e.X)
		g.expr(e.Y)
		o := binOpcode[e.Op]
		if e.K == KInt {
			o++
		}
		g.op(o, 0)
	case *ENeg:
		g.expr(e.X)
		if e.X.Kind() == KInt {
			g.op(opIneg, 0)
		} else {
			g.op(opSneg, 0)
		}
	case *EConv:
		g.expr(e.X)
		from := e.X.Kind()
		switch {
		case from == KShort && e.To == KInt:
			g.op(opS2i, 0)
		case from == KInt && e.To == KShort && e.B:
			g.op(opI2b, 0)
		case from == KInt && e.To == KShort:
			g.op(opI2s, 0)
		case from == KShort && e.B:
			g.op(opS2b, 0)
		default:
			panic("BUG: jcvm codegen: conversion")
		}
	case *ELoad:
		g.arrayRef(e.A)
		g.expr(e.I)
		if e.A.Elem == EByte {
			g.op(opBaload, 0)
		} else if e.A.Elem == EInt {
			g.op(opIaload, 0)
		} else {
			g.op(opSaload, 0)
		}
	case *ECond:
		f, end := g.label(), g.label()
		g.jumpUnless(e.C, f)
		d := g.depth
		g.expr(e.T)
		g.op(opGotoW, end)
		g.place(f)
		g.depth = d
		g.expr(e.F)
		g.place(end)
	case *ECall:
		g.call(e)
	case *EArr:
		g.arrayRef(e.A)
	default:
		panic(fmt.Sprintf("BUG: jcvm codegen: expression %T", e))
	}
}

// jumpUnless branches to l when c is false.
func (g *codegen) jumpUnless(c Cond, l int32) {
	rel := c.Rel.negate()
	k := c.X.Kind()
	if k == KInt {
		g.expr(c.X)
		g.expr(c.Y)
		g.op(opIcmp, 0)
		g.op(opIfeqW+byte(rel), l)
		return
	}
	if isConst(c.Y, 0) {
		g.expr(c.X)
		g.op(opIfeqW+byte(rel), l)
		return
	}
	g.expr(c.X)
	g.expr(c.Y)
	g.op(opIfScmpeqW+byte(rel), l)
}
