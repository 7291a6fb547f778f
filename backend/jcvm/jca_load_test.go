package jcvm

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// loadJCA builds, from a parsed .jca, the class the simulator runs: its
// static fields (the constant tables with their values, the work arrays
// with the sizes init() allocates them with), and every method with its
// .stack, .locals, parameters (from the descriptor) and bytecode, constant
// pool references resolved. Only the library package --emit jca writes is
// taken: one class extending java.lang.Object, references to its own
// members by name and to ISOException.throwIt and
// JCSystem.makeTransient{Byte,Short}Array by their export tokens, checked
// against the imported packages' AIDs.
// The kinds of constant-pool entries the library's code refers to.
const (
	cpField      = iota // a static field of the class
	cpMethod            // a method of the class
	cpThrow             // ISOException.throwIt
	cpTransByte         // JCSystem.makeTransientByteArray
	cpTransShort        // JCSystem.makeTransientShortArray
	cpOther             // the applet's: an error if the library uses it
)

type cpRef struct {
	kind  int
	field *Arr
	name  string // cpMethod: name + descriptor
	err   error  // cpOther: why the library's code cannot use it
}

func loadJCA(f *jcaFile, w int) (*Class, error) {
	// The library class: the one class that is not an applet.
	var lib []*jcaClass
	for _, c := range f.classes {
		if !slices.ContainsFunc(f.applets, func(a jcaApplet) bool { return a.class == c.name }) {
			lib = append(lib, c)
		}
	}
	if len(lib) != 1 {
		return nil, fmt.Errorf("jca: %d classes besides the applets, want the library class alone", len(lib))
	}
	jc := lib[0]
	cls := &Class{Name: jc.name, W: w}
	// External references: package token -> imported AID.
	ext := func(ref string) (pkg []byte, class, member int, err error) {
		parts := strings.Split(ref, ".")
		var n [3]int
		if len(parts) < 2 || len(parts) > 3 {
			return nil, 0, 0, fmt.Errorf("jca: bad token reference %q", ref)
		}
		for i, s := range parts {
			if n[i], err = strconv.Atoi(s); err != nil {
				return nil, 0, 0, fmt.Errorf("jca: bad token reference %q", ref)
			}
		}
		if n[0] < 0 || n[0] >= len(f.imports) {
			return nil, 0, 0, fmt.Errorf("jca: %q names package token %d; %d packages are imported", ref, n[0], len(f.imports))
		}
		return f.imports[n[0]].aid, n[1], n[2], nil
	}
	if pkg, class, _, err := ext(jc.extends); err != nil || !bytes.Equal(pkg, aidLang) || class != tokObject {
		return nil, fmt.Errorf("jca: class %s extends %q, not java.lang.Object (%v)", jc.name, jc.extends, err)
	}
	// Fields.
	fieldOf := map[string]*Arr{}
	for _, fd := range jc.fields {
		if !jcaIdent(fd.name) {
			return nil, fmt.Errorf("jca: bad field name %q", fd.name)
		}
		a := &Arr{Name: fd.name, Field: len(cls.Fields)}
		switch fd.typ {
		case "byte[]":
			a.Elem = EByte
		case "short[]":
			a.Elem = EShort
		case "int[]":
			a.Elem = EInt
		default:
			return nil, fmt.Errorf("jca: field %s has type %s, not an array of byte, short or int", fd.name, fd.typ)
		}
		if fd.hasValue {
			for _, v := range fd.init {
				var fits bool
				switch a.Elem {
				case EByte:
					fits = v >= -128 && v <= 127
				case EShort:
					fits = v >= -32768 && v <= 32767
				default:
					fits = v >= -1<<31 && v < 1<<31
				}
				if !fits {
					return nil, fmt.Errorf("jca: field %s: value %d does not fit its elements", fd.name, v)
				}
				a.Data = append(a.Data, int32(v))
			}
			if a.Elem == EInt {
				// The simulator holds an int as two shorts, high first.
				var d []int32
				for _, v := range a.Data {
					d = append(d, int32(int16(v>>16)), int32(int16(v)))
				}
				a.Data = d
			}
		} else {
			a.Len = -1 // until init() allocates it
		}
		fieldOf[fd.name] = a
		cls.Fields = append(cls.Fields, a)
		if fd.name == "carry" {
			cls.Carry = a
		}
	}
	// The constant pool.
	applet := func(cl string) bool {
		return slices.ContainsFunc(f.applets, func(a jcaApplet) bool { return a.class == cl })
	}
	cp := make([]cpRef, len(f.cp))
	for i, e := range f.cp {
		switch e.kind {
		case "staticFieldRef":
			if len(e.words) != 2 {
				return nil, fmt.Errorf("jca: constant %d: staticFieldRef type Class/field", i)
			}
			cl, name, ok := strings.Cut(e.words[1], "/")
			a := fieldOf[name]
			if !ok || cl != jc.name || a == nil || e.words[0] != map[ElemKind]string{EByte: "byte[]", EShort: "short[]", EInt: "int[]"}[a.Elem] {
				return nil, fmt.Errorf("jca: constant %d: no field %s %s in class %s", i, e.words[0], e.words[1], jc.name)
			}
			cp[i] = cpRef{kind: cpField, field: a}
		case "staticMethodRef":
			if len(e.words) != 1 {
				return nil, fmt.Errorf("jca: constant %d: staticMethodRef takes one reference", i)
			}
			ref := e.words[0]
			open := strings.IndexByte(ref, '(')
			if open < 0 {
				return nil, fmt.Errorf("jca: constant %d: %q has no descriptor", i, ref)
			}
			target, desc := ref[:open], ref[open:]
			if cl, name, ok := strings.Cut(target, "/"); ok {
				if cl != jc.name && applet(cl) {
					cp[i] = cpRef{kind: cpOther, err: fmt.Errorf("jca: constant %d: %q is the applet's", i, ref)}
					continue
				}
				if cl != jc.name {
					return nil, fmt.Errorf("jca: constant %d: %q is not a method of %s", i, ref, jc.name)
				}
				cp[i] = cpRef{kind: cpMethod, name: name + desc}
				continue
			}
			pkg, class, member, err := ext(target)
			if err != nil {
				return nil, err
			}
			known := map[string]int{
				fmt.Sprintf("%d.%d(S)V", tokISOException, tokThrowIt):         cpThrow,
				fmt.Sprintf("%d.%d(SB)[B", tokJCSystem, tokMakeTransientByte): cpTransByte,
				fmt.Sprintf("%d.%d(SB)[S", tokJCSystem, tokMakeTransientShrt): cpTransShort,
			}
			k, ok := known[fmt.Sprintf("%d.%d%s", class, member, desc)]
			if !ok || !bytes.Equal(pkg, aidFramework) {
				// Another external method (the applet's, Object.<init>):
				// refused where the library's code calls it.
				cp[i] = cpRef{kind: cpOther, err: fmt.Errorf("jca: constant %d: %s is none of the javacard.framework methods the library calls", i, ref)}
				continue
			}
			cp[i] = cpRef{kind: k}
		default:
			cp[i] = cpRef{kind: cpOther, err: fmt.Errorf("jca: constant %d: %s is not a static reference", i, e.kind)}
		}
	}
	// Methods, init() apart.
	var initM *jcaMethod
	byName := map[string]*Method{}
	for _, jm := range jc.methods {
		if jm.name == "<init>" {
			continue // the constructor: the class is never instantiated
		}
		if !jcaIdent(jm.name) {
			return nil, fmt.Errorf("jca: bad method name %q", jm.name)
		}
		if jm.name == "init" && jm.desc == "()V" {
			initM = jm
			continue
		}
		m := &Method{Name: jm.name, Stack: jm.stack, Locals: jm.locals, Export: jm.mods[0] == "public", Index: len(cls.Methods)}
		if err := jcaSignature(m, jm.desc); err != nil {
			return nil, err
		}
		byName[jm.name+jm.desc] = m
		cls.Methods = append(cls.Methods, m)
	}
	if initM == nil {
		return nil, fmt.Errorf("jca: class %s has no init()V", jc.name)
	}
	for i, r := range cp {
		if r.kind == cpMethod && byName[r.name] == nil && r.name != "init()V" { // init(): the applet's
			return nil, fmt.Errorf("jca: constant %d: class %s has no method %s", i, jc.name, r.name)
		}
	}
	throwIndex := int32(len(cls.Fields) + len(cls.Methods))
	// init(): the sizes of the work arrays.
	if err := jcaInit(initM, func(k int32) (int, *Arr, error) {
		if k < 0 || int(k) >= len(cp) {
			return 0, nil, fmt.Errorf("jca: init(): no constant %d", k)
		}
		return cp[k].kind, cp[k].field, cp[k].err
	}); err != nil {
		return nil, err
	}
	for _, a := range cls.Fields {
		if a.Len < 0 {
			return nil, fmt.Errorf("jca: init() never allocates %s", a.Name)
		}
	}
	// Bytecode.
	opByName := map[string]byte{}
	for _, o := range opList {
		opByName[o.name] = o.op
	}
	for _, jm := range jc.methods {
		m := byName[jm.name+jm.desc]
		if m == nil {
			continue
		}
		labels := map[string]int32{}
		for _, in := range jm.code {
			if in.label != "" {
				if _, dup := labels[in.label]; dup {
					return nil, fmt.Errorf("jca line %d: label %s placed twice", in.line, in.label)
				}
				labels[in.label] = int32(len(labels) + 1)
			}
		}
		for _, in := range jm.code {
			if in.label != "" {
				m.Code = append(m.Code, Insn{Op: opLabel, A: labels[in.label]})
				continue
			}
			op, ok := opByName[in.op]
			if !ok {
				return nil, fmt.Errorf("jca line %d: %s: not an opcode of the library's code", in.line, in.op)
			}
			want := map[layout]int{lNone: 0, lInc: 2}[ops[op].layout]
			if ops[op].layout != lNone && ops[op].layout != lInc {
				want = 1
			}
			if len(in.args) != want {
				return nil, fmt.Errorf("jca line %d: %s takes %d operands", in.line, in.op, want)
			}
			ins := Insn{Op: op}
			switch ops[op].layout {
			case lBranch:
				l, ok := labels[in.args[0]]
				if !ok {
					return nil, fmt.Errorf("jca line %d: no label %s", in.line, in.args[0])
				}
				ins.A = l
			case lInc:
				a, err1 := strconv.ParseInt(in.args[0], 0, 32)
				b, err2 := strconv.ParseInt(in.args[1], 0, 32)
				if err1 != nil || err2 != nil || a < 0 || a > 255 || b < -128 || b > 127 {
					return nil, fmt.Errorf("jca line %d: bad operands of %s", in.line, in.op)
				}
				ins.A, ins.B = int32(a), int32(b)
			case lNone:
			default:
				v, err := strconv.ParseInt(in.args[0], 0, 32)
				if err != nil {
					return nil, fmt.Errorf("jca line %d: bad operand %q", in.line, in.args[0])
				}
				ins.A = int32(v)
			}
			switch op {
			case opGetstaticA:
				if ins.A < 0 || int(ins.A) >= len(cp) || cp[ins.A].kind != cpField {
					return nil, fmt.Errorf("jca line %d: getstatic_a %d is not a static field", in.line, ins.A)
				}
				ins.A = int32(cp[ins.A].field.Field)
			case opInvokestatic:
				if ins.A < 0 || int(ins.A) >= len(cp) {
					return nil, fmt.Errorf("jca line %d: no constant %d", in.line, ins.A)
				}
				switch r := cp[ins.A]; r.kind {
				case cpThrow:
					ins.A, ins.Pop = throwIndex, 1
				case cpMethod:
					callee := byName[r.name]
					if callee == nil {
						return nil, fmt.Errorf("jca line %d: no method %s", in.line, r.name)
					}
					ins.A, ins.Pop, ins.Ret = int32(len(cls.Fields)+callee.Index), paramCells(callee), callee.Ret.Cells()
				case cpOther:
					return nil, fmt.Errorf("jca line %d: %v", in.line, r.err)
				default:
					return nil, fmt.Errorf("jca line %d: invokestatic %d outside init()", in.line, ins.A)
				}
			}
			m.Code = append(m.Code, ins)
			m.Size += ins.size()
		}
	}
	return cls, nil
}

// jcaSignature sets m's parameters and result from a descriptor such as
// ([BSS[SI)S.
func jcaSignature(m *Method, desc string) error {
	close := strings.IndexByte(desc, ')')
	if !strings.HasPrefix(desc, "(") || close < 0 {
		return fmt.Errorf("jca: bad descriptor %q", desc)
	}
	ps := desc[1:close]
	for i := 0; i < len(ps); i++ {
		var v *Var
		switch {
		case ps[i] == 'S':
			v = m.newVar(KShort)
		case ps[i] == 'I':
			v = m.newVar(KInt)
		case strings.HasPrefix(ps[i:], "[B"), strings.HasPrefix(ps[i:], "[S"):
			v = m.newVar(KRef)
			v.Arr = &Arr{Name: fmt.Sprintf("p%d", len(m.Params)), Elem: map[byte]ElemKind{'B': EByte, 'S': EShort}[ps[i+1]], Ref: v, Len: -1}
			i++
		default:
			return fmt.Errorf("jca: descriptor %q: parameter type %q is not one the library uses", desc, ps[i:])
		}
		m.Params = append(m.Params, v)
	}
	switch desc[close+1:] {
	case "V":
		m.Ret = KVoid
	case "S":
		m.Ret = KShort
	case "I":
		m.Ret = KInt
	default:
		return fmt.Errorf("jca: descriptor %q: result type is not one the library uses", desc)
	}
	return nil
}

// jcaInit runs init(): constants, JCSystem.makeTransient*Array(n,
// CLEAR_ON_DESELECT) or newarray int, then putstatic_a into a field of
// the class, which takes the array's size.
func jcaInit(m *jcaMethod, ref func(int32) (int, *Arr, error)) error {
	type val struct {
		n    int32
		elem ElemKind // an array's element type; 0: a short
	}
	var st []val
	pop := func() (val, error) {
		if len(st) == 0 {
			return val{}, fmt.Errorf("jca: init(): operand stack underflow")
		}
		v := st[len(st)-1]
		st = st[:len(st)-1]
		return v, nil
	}
	for _, in := range m.code {
		if in.label != "" {
			return fmt.Errorf("jca line %d: init() has a label", in.line)
		}
		arg := func() (int32, error) {
			if len(in.args) != 1 {
				return 0, fmt.Errorf("jca line %d: %s takes one operand", in.line, in.op)
			}
			v, err := strconv.ParseInt(in.args[0], 0, 32)
			return int32(v), err
		}
		switch {
		case strings.HasPrefix(in.op, "sconst_"):
			v := map[string]int32{"m1": -1, "0": 0, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5}
			n, ok := v[strings.TrimPrefix(in.op, "sconst_")]
			if !ok {
				return fmt.Errorf("jca line %d: %s", in.line, in.op)
			}
			st = append(st, val{n: n})
		case in.op == "bspush" || in.op == "sspush":
			n, err := arg()
			if err != nil {
				return err
			}
			st = append(st, val{n: n})
		case in.op == "newarray":
			t, err := arg()
			if err != nil || t != atypeInt {
				return fmt.Errorf("jca line %d: newarray of type %d (the library allocates int[] only)", in.line, t)
			}
			n, err := pop()
			if err != nil {
				return err
			}
			st = append(st, val{n: n.n, elem: EInt})
		case in.op == "invokestatic":
			k, err := arg()
			if err != nil {
				return err
			}
			kind, _, err := ref(k)
			if err != nil {
				return err
			}
			ev, err := pop()
			if err != nil {
				return err
			}
			n, err := pop()
			if err != nil {
				return err
			}
			if ev.n != clearOnDeselect {
				return fmt.Errorf("jca line %d: a transient array cleared on event %d, not CLEAR_ON_DESELECT", in.line, ev.n)
			}
			switch kind {
			case cpTransByte:
				st = append(st, val{n: n.n, elem: EByte})
			case cpTransShort:
				st = append(st, val{n: n.n, elem: EShort})
			default:
				return fmt.Errorf("jca line %d: init() calls constant %d", in.line, k)
			}
		case in.op == "putstatic_a":
			k, err := arg()
			if err != nil {
				return err
			}
			_, a, err := ref(k)
			if err != nil {
				return err
			}
			v, err := pop()
			if err != nil {
				return err
			}
			if a == nil || v.elem != a.Elem || a.Data != nil || a.Len >= 0 || v.n < 0 {
				return fmt.Errorf("jca line %d: putstatic_a %d: not a fresh array of the field's type", in.line, k)
			}
			a.Len = int(v.n)
		case in.op == "return":
			if len(st) != 0 {
				return fmt.Errorf("jca line %d: init() returns with values on the stack", in.line)
			}
			return nil
		default:
			return fmt.Errorf("jca line %d: init(): %s", in.line, in.op)
		}
		if len(st) > m.stack {
			return fmt.Errorf("jca line %d: init() exceeds its .stack %d", in.line, m.stack)
		}
	}
	return fmt.Errorf("jca: init() does not return")
}
