package jcvm

import (
	"fmt"
	"strings"

	"github.com/lowent/lowentc/ir"
)

// The applet class of --emit jca: <Module>Applet, the same applet as the
// Java of emit_applet.go (docs/jcvm.md, "The applet"), as Java Card
// bytecode. Its code is written here as instructions with their stack
// effects (in cells: a short or reference is one, an int two), not with
// the library's Insn lists: it calls the framework (APDU, Util, Applet),
// which the library's opcodes and simulator do not know.

// Tokens in javacard.framework's export file (exp2text) of the classes and
// methods the applet uses.
const (
	tokApplet      = 3
	tokAppletInit  = 0 // Applet.<init>()V
	tokRegister    = 1 // Applet.register()V (virtual)
	tokSelecting   = 3 // Applet.selectingApplet()Z (virtual)
	tokProcess     = 7 // Applet.process(APDU)V (virtual)
	tokAPDU        = 10
	tokGetBuffer   = 1  // APDU.getBuffer()[B
	tokReceive     = 3  // APDU.receiveBytes(S)S
	tokSendLong    = 5  // APDU.sendBytesLong([BSS)V
	tokSetInc      = 6  // APDU.setIncomingAndReceive()S
	tokSetOut      = 7  // APDU.setOutgoing()S
	tokSetOutSend  = 8  // APDU.setOutgoingAndSend(SS)V
	tokSetOutLen   = 9  // APDU.setOutgoingLength(S)V
	tokSystemExc   = 13 // SystemException
	tokUtil        = 16
	tokArrayCopyNA = 2 // Util.arrayCopyNonAtomic([BS[BSS)S
	tokGetShort    = 4 // Util.getShort([BS)S
	tokSetShort    = 6 // Util.setShort([BSS)S
	atypeByte      = 11
	swWrongLength  = 0x6700
	swInsNotSupp   = 0x6D00
)

// The applet's constant-pool entries, after the library's (indices from
// appletCP).
const (
	cpArgs = iota
	cpAppletInit
	cpArea
	cpLibInit
	cpRegister
	cpSelfClass
	cpSelfInit
	cpSystemExc
	cpSelecting
	cpGetBuffer
	cpGetShort
	cpSetInc
	cpArrayCopy
	cpReceive
	cpSetOut
	cpSetOutLen
	cpSendLong
	cpOverlap
	cpSetShort
	cpSetOutSend
	cpAppletEntries
)

// appletCPEntries are the entries' texts, in the order of the constants above.
func appletCPEntries(lib, app string) []string {
	fw := func(kind string, class, method int, desc, name string) string {
		return fmt.Sprintf("%s %d.%d.%d%s;\t\t// javacard/framework/%s", kind, pkgFramework, class, method, desc, name)
	}
	return []string{
		fmt.Sprintf("instanceFieldRef byte[] %s/args;", app),
		fw("staticMethodRef", tokApplet, tokAppletInit, "()V", "Applet.<init>()V"),
		fmt.Sprintf("staticMethodRef %s/area()[B;", app),
		fmt.Sprintf("staticMethodRef %s/init()V;", lib),
		fw("virtualMethodRef", tokApplet, tokRegister, "()V", "Applet.register()V"),
		fmt.Sprintf(".classRef %s;", app),
		fmt.Sprintf("staticMethodRef %s/<init>()V;", app),
		fmt.Sprintf(".classRef %d.%d;\t\t// javacard/framework/SystemException", pkgFramework, tokSystemExc),
		fw("virtualMethodRef", tokApplet, tokSelecting, "()Z", "Applet.selectingApplet()Z"),
		fw("virtualMethodRef", tokAPDU, tokGetBuffer, "()[B", "APDU.getBuffer()[B"),
		fw("staticMethodRef", tokUtil, tokGetShort, "([BS)S", "Util.getShort([BS)S"),
		fw("virtualMethodRef", tokAPDU, tokSetInc, "()S", "APDU.setIncomingAndReceive()S"),
		fw("staticMethodRef", tokUtil, tokArrayCopyNA, "([BS[BSS)S", "Util.arrayCopyNonAtomic([BS[BSS)S"),
		fw("virtualMethodRef", tokAPDU, tokReceive, "(S)S", "APDU.receiveBytes(S)S"),
		fw("virtualMethodRef", tokAPDU, tokSetOut, "()S", "APDU.setOutgoing()S"),
		fw("virtualMethodRef", tokAPDU, tokSetOutLen, "(S)V", "APDU.setOutgoingLength(S)V"),
		fw("virtualMethodRef", tokAPDU, tokSendLong, "([BSS)V", "APDU.sendBytesLong([BSS)V"),
		fmt.Sprintf("staticMethodRef %s/overlap(SSSS)Z;", app),
		fw("staticMethodRef", tokUtil, tokSetShort, "([BSS)S", "Util.setShort([BSS)S"),
		fw("virtualMethodRef", tokAPDU, tokSetOutSend, "(SS)V", "APDU.setOutgoingAndSend(SS)V"),
	}
}

// aInsn is one instruction of the applet, or a label (label >= 0, text "").
type aInsn struct {
	text   string
	delta  int // stack effect in cells
	label  int // a label placed here; -1: none
	target int // a branch's label; -1: none
}

// aCode builds an applet method and computes its .stack.
type aCode struct {
	code   []aInsn
	labels int
	cp0    int // the first applet constant
}

func (c *aCode) op(delta int, format string, args ...any) {
	c.code = append(c.code, aInsn{text: fmt.Sprintf(format, args...), delta: delta, label: -1, target: -1})
}

// cp is an instruction naming the applet's constant k.
func (c *aCode) cp(delta int, op string, k int) { c.op(delta, "%s %d", op, c.cp0+k) }

func (c *aCode) newLabel() int { c.labels++; return c.labels - 1 }

func (c *aCode) place(l int) { c.code = append(c.code, aInsn{label: l, target: -1}) }

// br is a branch (the _w forms: any distance) popping pop cells.
func (c *aCode) br(op string, pop, l int) {
	c.code = append(c.code, aInsn{text: op, delta: -pop, label: -1, target: l})
}

func (c *aCode) short(v int) { c.op(1, "%s", shortConst(int32(v))) }

// throw throws ISOException with status sw (ISOException.throwIt).
func (c *aCode) throw(sw int, throwIt int) {
	c.short(sw)
	c.op(-1, "invokestatic %d", throwIt)
}

// maxStack is the deepest the operand stack gets, following each branch;
// it fails on a label reached at two depths.
func (c *aCode) maxStack() int {
	at := map[int]int{}
	depth, max := 0, 0
	for _, in := range c.code {
		if in.label >= 0 {
			if d, ok := at[in.label]; ok {
				depth = d
			}
			at[in.label] = depth
			continue
		}
		depth += in.delta
		if depth > max {
			max = depth
		}
		if in.target >= 0 {
			if d, ok := at[in.target]; ok && d != depth {
				panic(fmt.Sprintf("jcvm: applet: label %d at depths %d and %d", in.target, d, depth))
			}
			at[in.target] = depth
		}
		if in.text == "goto_w" || strings.HasSuffix(in.text, "return") {
			depth = 0
		}
	}
	return max
}

func (c *aCode) print(f func(string, ...any)) {
	pending := ""
	for _, in := range c.code {
		if in.label >= 0 {
			pending = fmt.Sprintf("A%d", in.label)
			continue
		}
		lead := "\t\t\t"
		if pending != "" {
			lead = "\t\t" + pending + ":\t"
			pending = ""
		}
		if in.target >= 0 {
			f("%s%s A%d;\n", lead, in.text, in.target)
		} else {
			f("%s%s;\n", lead, in.text)
		}
	}
}

// printApplet writes the applet class (class token 1) of the library
// class cls; cp0 is its first constant, throwIt the constant of
// ISOException.throwIt.
func printApplet(f func(string, ...any), cls *Class, cp0, throwIt int) {
	app := cls.Name + "Applet"
	f("\n\t.class public final %s 1 extends %d.%d {\t\t// extends javacard/framework/Applet\n", app, pkgFramework, tokApplet)
	f("\t\t.fields {\n\t\t\tprivate final byte[] args 0;\n\t\t}\n\n")
	f("\t\t.publicMethodTable 7 {\n")
	for _, m := range []string{"equals(Ljava/lang/Object;)Z", "register()V", "register([BSB)V", "selectingApplet()Z", "deselect()V",
		"getShareableInterfaceObject(Ljavacard/framework/AID;B)Ljavacard/framework/Shareable;", "select()Z", "process(Ljavacard/framework/APDU;)V"} {
		f("\t\t\t%s;\n", m)
	}
	f("\t\t}\n\n\t\t.packageMethodTable 0 {\n\t\t}\n")
	method := func(head string, locals int, c *aCode, tail string) {
		f("\n\t\t.method %s {\n\t\t\t.stack %d;\n\t\t\t.locals %d;\n\n%s", head, c.maxStack(), locals, tail)
		c.print(f)
		f("\t\t}\n")
	}
	// The constructor: the argument area, the library's init(), register().
	c := &aCode{cp0: cp0}
	c.op(1, "aload_0")
	c.cp(-1, "invokespecial", cpAppletInit)
	c.op(1, "aload_0")
	c.cp(1, "invokestatic", cpArea)
	c.cp(-2, "putfield_a", cpArgs)
	c.cp(0, "invokestatic", cpLibInit)
	c.op(1, "aload_0")
	c.cp(-1, "invokevirtual", cpRegister)
	c.op(0, "return")
	method("private <init>()V", 0, c, "")
	// install.
	c = &aCode{cp0: cp0}
	c.cp(1, "new", cpSelfClass)
	c.op(1, "dup")
	c.cp(-1, "invokespecial", cpSelfInit)
	c.op(-1, "pop")
	c.op(0, "return")
	method("public static install([BSB)V 0", 0, c, "")
	// area(): transient RAM, or EEPROM if the card has not that much.
	c = &aCode{cp0: cp0}
	l0, l1, l2 := c.newLabel(), c.newLabel(), c.newLabel()
	c.place(l0)
	c.short(argAreaSize)
	c.short(clearOnDeselect)
	c.op(-1, "invokestatic %d", throwIt+1)
	c.place(l1)
	c.op(-1, "areturn")
	c.place(l2)
	c.op(0, "astore_0") // the handler starts with the exception on the stack
	c.short(argAreaSize)
	c.op(0, "newarray %d", atypeByte)
	c.op(-1, "areturn")
	f("\n\t\t.method private static area()[B {\n\t\t\t.stack 2;\n\t\t\t.locals 1;\n\n")
	c.print(f)
	f("\t\t\t.exceptionTable {\n\t\t\t\t// start_block end_block handler_block catch_type_index\n")
	f("\t\t\t\tA%d A%d A%d %d;\n\t\t\t}\n\t\t}\n", l0, l1, l2, cp0+cpSystemExc)
	// process.
	c, locals := appletProcess(cls, cp0, throwIt)
	method(fmt.Sprintf("public process(Ljavacard/framework/APDU;)V %d", tokProcess), locals, c,
		fmt.Sprintf("\t\t\t.descriptor\tLjavacard/framework/APDU;\t%d.%d;\n\n", pkgFramework, tokAPDU))
	// overlap(p, n, q, m): the converter's code of the Java's.
	f(`
		.method private static overlap(SSSS)Z {
			.stack 3;
			.locals 0;

			sload_1;
			ifle O7;
			sload_3;
			ifle O7;
			sload_0;
			sload_2;
			sload_3;
			sadd;
			if_scmpge O7;
			sload_2;
			sload_0;
			sload_1;
			sadd;
			if_scmpge O7;
			sload_0;
			sload_2;
			if_scmpne O6;
			sload_1;
			sload_3;
			if_scmpeq O7;
		O6:	sconst_1;
			goto O8;
		O7:	sconst_0;
		O8:	sreturn;
		}
`)
	f("\t}\n")
}

// The locals of process: this, apdu, buf, p12, ins, n (also le and
// times), k; then the export's parameters and its loop counter.
const (
	lApdu  = 1
	lBuf   = 2
	lP12   = 3
	lIns   = 4
	lN     = 5
	lK     = 6
	lFirst = 7
)

func (c *aCode) sload(l int) {
	if l <= 3 {
		c.op(1, "sload_%d", l)
	} else {
		c.op(1, "sload %d", l)
	}
}

func (c *aCode) sstore(l int) {
	if l <= 3 {
		c.op(-1, "sstore_%d", l)
	} else {
		c.op(-1, "sstore %d", l)
	}
}

// lc pushes the command's Lc byte as 0..255.
func (c *aCode) lc() {
	c.op(1, "aload_2")
	c.short(4)
	c.op(-1, "baload")
	c.short(255)
	c.op(-1, "sand")
}

// appletProcess is process(APDU): LOAD, READ, and an INS per export.
func appletProcess(cls *Class, cp0, throwIt int) (*aCode, int) {
	c := &aCode{cp0: cp0}
	locals := lFirst
	wrongLength := func() { c.throw(swWrongLength, throwIt) }
	// if (selectingApplet()) return;
	lGo := c.newLabel()
	c.op(1, "aload_0")
	c.cp(0, "invokevirtual", cpSelecting)
	c.br("ifeq_w", 1, lGo)
	c.op(0, "return")
	c.place(lGo)
	c.op(1, "aload_1")
	c.cp(0, "invokevirtual", cpGetBuffer)
	c.op(-1, "astore_2")
	c.op(1, "aload_2")
	c.short(2)
	c.cp(-1, "invokestatic", cpGetShort)
	c.sstore(lP12)
	c.op(1, "aload_2")
	c.short(1)
	c.op(-1, "baload")
	c.sstore(lIns)
	// LOAD: P1P2 and Lc inside the argument area, else 6700.
	lNotLoad, lBad, lOK, lLoop, lRet := c.newLabel(), c.newLabel(), c.newLabel(), c.newLabel(), c.newLabel()
	c.sload(lIns)
	c.short(1)
	c.br("if_scmpne_w", 2, lNotLoad)
	c.lc()
	c.sstore(lN)
	c.sload(lP12)
	c.br("iflt_w", 1, lBad)
	c.sload(lP12)
	c.short(argAreaSize)
	c.sload(lN)
	c.op(-1, "ssub")
	c.br("if_scmple_w", 2, lOK)
	c.place(lBad)
	wrongLength()
	c.place(lOK)
	c.op(1, "aload_1")
	c.cp(0, "invokevirtual", cpSetInc)
	c.sstore(lN)
	c.place(lLoop)
	c.sload(lN)
	c.br("ifle_w", 1, lRet)
	c.op(1, "aload_2")
	c.short(5)
	c.cp(1, "getfield_a_this", cpArgs)
	c.sload(lP12)
	c.sload(lN)
	c.cp(-4, "invokestatic", cpArrayCopy)
	c.op(-1, "pop")
	c.sload(lP12)
	c.sload(lN)
	c.op(-1, "sadd")
	c.sstore(lP12)
	c.op(1, "aload_1")
	c.short(5)
	c.cp(-1, "invokevirtual", cpReceive)
	c.sstore(lN)
	c.br("goto_w", 0, lLoop)
	c.place(lRet)
	c.op(0, "return")
	// READ: P1P2 and Le inside the argument area, else 6700.
	c.place(lNotLoad)
	lNotRead, lBad, lOK := c.newLabel(), c.newLabel(), c.newLabel()
	c.sload(lIns)
	c.short(2)
	c.br("if_scmpne_w", 2, lNotRead)
	c.op(1, "aload_1")
	c.cp(0, "invokevirtual", cpSetOut)
	c.sstore(lN)
	c.sload(lP12)
	c.br("iflt_w", 1, lBad)
	c.sload(lP12)
	c.short(argAreaSize)
	c.sload(lN)
	c.op(-1, "ssub")
	c.br("if_scmple_w", 2, lOK)
	c.place(lBad)
	wrongLength()
	c.place(lOK)
	c.op(1, "aload_1")
	c.sload(lN)
	c.cp(-2, "invokevirtual", cpSetOutLen)
	c.op(1, "aload_1")
	c.cp(1, "getfield_a_this", cpArgs)
	c.sload(lP12)
	c.sload(lN)
	c.cp(-4, "invokevirtual", cpSendLong)
	c.op(0, "return")
	// times = 1, k = ins - 0x10; the timing INS: times = P1, k = P2.
	c.place(lNotRead)
	lK0 := c.newLabel()
	c.short(1)
	c.sstore(lN)
	c.sload(lIns)
	c.short(0x10)
	c.op(-1, "ssub")
	c.op(0, "s2b")
	c.sstore(lK)
	c.sload(lIns)
	c.short(0x20)
	c.br("if_scmpne_w", 2, lK0)
	c.op(1, "aload_2")
	c.short(2)
	c.op(-1, "baload")
	c.short(255)
	c.op(-1, "sand")
	c.sstore(lN)
	// N = 0 would call nothing and answer 9000: 6700, as the Java applet.
	lSome := c.newLabel()
	c.sload(lN)
	c.short(0)
	c.br("if_scmpne_w", 2, lSome)
	wrongLength()
	c.place(lSome)
	c.op(1, "aload_2")
	c.short(3)
	c.op(-1, "baload")
	c.sstore(lK)
	c.place(lK0)
	for i, e := range cls.Exports {
		if n := appletExport(c, cls, i, e, throwIt); n > locals {
			locals = n
		}
	}
	c.throw(swInsNotSupp, throwIt)
	c.op(0, "return")
	return c, locals - 2 // .locals excludes this and apdu
}

// appletExport is the code of export i's INS; it returns the locals used.
func appletExport(c *aCode, cls *Class, i int, e *Export, throwIt int) int {
	m := e.Method
	lNext := c.newLabel()
	c.sload(lK)
	c.short(i)
	c.br("if_scmpne_w", 2, lNext)
	// The parameters' bytes.
	nbytes := 0
	for j := 0; j < len(m.Params); j++ {
		switch v := m.Params[j]; v.Kind {
		case KRef:
			if v.Arr.Elem == EShort {
				continue
			}
			nbytes += 2
			if v.Arr.Len < 0 {
				nbytes += 2
				j++
			}
			j++
		case KInt:
			nbytes += 4
		default:
			nbytes += 2
		}
	}
	if len(m.Params) > 0 {
		// Lc must be the parameters' size, else 6700.
		lOK := c.newLabel()
		c.lc()
		c.short(nbytes)
		c.br("if_scmpeq_w", 2, lOK)
		c.throw(swWrongLength, throwIt)
		c.place(lOK)
		c.op(1, "aload_1")
		c.cp(0, "invokevirtual", cpSetInc)
		c.op(-1, "pop")
	}
	type arg struct {
		null bool
		args bool // the argument area
		int  bool
		loc  int
		imm  int // fixed length: the constant (loc < 0)
	}
	var args []arg
	var bufs []struct {
		off, n  arg
		written bool
	}
	irArrs := arrayParamsOf(e.Fn)
	ri := 0
	next := lFirst
	d := 5 // ISO7816.OFFSET_CDATA
	readShort := func() int {
		c.op(1, "aload_2")
		c.short(d)
		c.cp(-1, "invokestatic", cpGetShort)
		l := next
		c.sstore(l)
		next++
		d += 2
		return l
	}
	for j := 0; j < len(m.Params); j++ {
		v := m.Params[j]
		switch v.Kind {
		case KRef:
			ri++
			if v.Arr.Elem == EShort {
				args = append(args, arg{null: true})
				continue
			}
			args = append(args, arg{args: true})
			off := arg{loc: readShort()}
			args = append(args, off)
			size := arg{loc: -1, imm: v.Arr.Len}
			if v.Arr.Len < 0 {
				size = arg{loc: readShort()}
				args = append(args, size)
				j++
			}
			j++
			// if (off < 0 || off > 4096 || [n < 0 ||] n > 4096 - off) 6700
			lBad, lOK := c.newLabel(), c.newLabel()
			c.sload(off.loc)
			c.br("iflt_w", 1, lBad)
			c.sload(off.loc)
			c.short(argAreaSize)
			c.br("if_scmpgt_w", 2, lBad)
			if size.loc >= 0 {
				c.sload(size.loc)
				c.br("iflt_w", 1, lBad)
				c.sload(size.loc)
			} else {
				c.short(size.imm)
			}
			c.short(argAreaSize)
			c.sload(off.loc)
			c.op(-1, "ssub")
			c.br("if_scmple_w", 2, lOK)
			c.place(lBad)
			c.throw(swWrongLength, throwIt)
			c.place(lOK)
			if ri-1 < len(irArrs) {
				bufs = append(bufs, struct {
					off, n  arg
					written bool
				}{off, size, irArrs[ri-1].Mut})
			}
		case KInt:
			// (getShort(d) << 16) | (getShort(d+2) & 0xffff)
			c.op(1, "aload_2")
			c.short(d)
			c.cp(-1, "invokestatic", cpGetShort)
			c.op(1, "s2i")
			c.op(2, "bipush 16")
			c.op(-2, "ishl")
			c.op(1, "aload_2")
			c.short(d + 2)
			c.cp(-1, "invokestatic", cpGetShort)
			c.op(1, "s2i")
			c.op(2, "iipush 65535")
			c.op(-2, "iand")
			c.op(-2, "ior")
			c.op(-2, "istore %d", next)
			args = append(args, arg{int: true, loc: next})
			next += 2
			d += 4
		default:
			args = append(args, arg{loc: readShort()})
		}
	}
	push := func(a arg) {
		switch {
		case a.null:
			c.op(1, "aconst_null")
		case a.args:
			c.cp(1, "getfield_a_this", cpArgs)
		case a.int:
			c.op(2, "iload %d", a.loc)
		case a.loc < 0:
			c.short(a.imm)
		default:
			c.sload(a.loc)
		}
	}
	// Overlapping buffers: 6F05.
	for x := range bufs {
		for y := x + 1; y < len(bufs); y++ {
			if bufs[x].written || bufs[y].written {
				lOK := c.newLabel()
				push(bufs[x].off)
				push(bufs[x].n)
				push(bufs[y].off)
				push(bufs[y].n)
				c.cp(-3, "invokestatic", cpOverlap)
				c.br("ifeq_w", 1, lOK)
				c.throw(0x6f00+int(ir.CheckOverlap), throwIt)
				c.place(lOK)
			}
		}
	}
	// for (t = 0; t < times; t++) call
	t := next
	next++
	r := next
	if m.Ret == KInt {
		next += 2
	}
	lTop, lEnd := c.newLabel(), c.newLabel()
	c.short(0)
	c.sstore(t)
	c.place(lTop)
	c.sload(t)
	c.sload(lN)
	c.br("if_scmpge_w", 2, lEnd)
	if m.Ret == KShort {
		c.op(1, "aload_2")
		c.short(0)
	}
	cells := 0
	for _, a := range args {
		push(a)
		cells++
		if a.int {
			cells++
		}
	}
	mi := 0
	for k, mm := range cls.Methods {
		if mm == m {
			mi = k
		}
	}
	c.op(m.Ret.Cells()-cells, "invokestatic %d", len(cls.Fields)+mi)
	switch m.Ret {
	case KShort:
		c.cp(-2, "invokestatic", cpSetShort)
		c.op(-1, "pop")
	case KInt:
		c.op(-2, "istore %d", r)
		for _, half := range []struct{ at, shift int }{{0, 16}, {2, 0}} {
			c.op(1, "aload_2")
			c.short(half.at)
			c.op(2, "iload %d", r)
			if half.shift != 0 {
				c.op(2, "bipush %d", half.shift)
				c.op(-2, "iushr")
			}
			c.op(-1, "i2s")
			c.cp(-2, "invokestatic", cpSetShort)
			c.op(-1, "pop")
		}
	}
	c.op(0, "sinc %d 1", t)
	c.br("goto_w", 0, lTop)
	c.place(lEnd)
	if m.Ret == KShort || m.Ret == KInt {
		// The result (N = 0 was refused above: 6700).
		lNone := c.newLabel()
		c.sload(lN)
		c.br("ifeq_w", 1, lNone)
		c.op(1, "aload_1")
		c.short(0)
		c.short(2 * m.Ret.Cells())
		c.cp(-3, "invokevirtual", cpSetOutSend)
		c.place(lNone)
	}
	c.op(0, "return")
	c.place(lNext)
	return next
}
