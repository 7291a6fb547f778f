package jcvm

import (
	"fmt"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
)

// specOp is an opcode as the JCVM specification numbers it, with its
// encoded size.
type specOp struct {
	num  int
	size int
}

// jcvmSpec is the specification's numbering (chapter 7, as summarized in
// the project's tool notes), written out independently of opList: the
// opcodes of the families the backend draws from.
func jcvmSpec() map[string]specOp {
	s := map[string]specOp{}
	add := func(name string, num, size int) {
		if _, dup := s[name]; dup {
			panic("spec: " + name + " twice")
		}
		s[name] = specOp{num, size}
	}
	for i, n := range []string{"m1", "0", "1", "2", "3", "4", "5"} {
		add("sconst_"+n, 2+i, 1)
		add("iconst_"+n, 9+i, 1)
	}
	add("bspush", 16, 2)
	add("sspush", 17, 3)
	add("bipush", 18, 2)
	add("sipush", 19, 3)
	add("iipush", 20, 5)
	for i, t := range []string{"a", "s", "i"} {
		add(t+"load", 21+i, 2)
		add(t+"store", 40+i, 2)
		for n := 0; n < 4; n++ {
			add(fmt.Sprintf("%sload_%d", t, n), 24+4*i+n, 1)
			add(fmt.Sprintf("%sstore_%d", t, n), 43+4*i+n, 1)
		}
	}
	for i, t := range []string{"a", "b", "s", "i"} {
		add(t+"aload", 36+i, 1)
		add(t+"astore", 55+i, 1)
	}
	add("pop", 59, 1)
	add("pop2", 60, 1)
	for i, o := range []string{"add", "sub", "mul", "div", "rem", "neg", "shl", "shr", "ushr", "and", "or", "xor"} {
		add("s"+o, 65+2*i, 1)
		add("i"+o, 66+2*i, 1)
	}
	add("sinc", 89, 3)
	add("iinc", 90, 3)
	for i, c := range []string{"s2b", "s2i", "i2b", "i2s", "icmp"} {
		add(c, 91+i, 1)
	}
	for i, r := range []string{"areturn", "sreturn", "ireturn", "return"} {
		add(r, 119+i, 1)
	}
	for i, f := range []string{"getstatic", "putstatic", "getfield"} {
		for j, t := range []string{"a", "b", "s", "i"} {
			add(fmt.Sprintf("%s_%s", f, t), 123+4*i+j, 3)
		}
	}
	for i, v := range []string{"invokevirtual", "invokespecial", "invokestatic"} {
		add(v, 139+i, 3)
	}
	conds := []string{"eq", "ne", "lt", "ge", "gt", "le"}
	for i, c := range conds {
		add("if"+c+"_w", 152+i, 3)
		add("if_scmp"+c+"_w", 162+i, 3)
		add("if"+c, 96+i, 2)
		add("if_scmp"+c, 106+i, 2)
	}
	add("goto", 112, 2)
	add("goto_w", 168, 3)
	return s
}

// TestOpcodeTable checks the opcode table: no number or mnemonic twice,
// every entry's number and size as the JCVM specification has them, a
// stack effect that matches what the simulator does with it, and every
// opcode the code generator can name present.
func TestOpcodeTable(t *testing.T) {
	spec := jcvmSpec()
	nums, names := map[byte]string{}, map[string]byte{}
	for _, o := range opList {
		if prev, dup := nums[o.op]; dup {
			t.Errorf("opcode %d is both %s and %s", o.op, prev, o.name)
		}
		if prev, dup := names[o.name]; dup {
			t.Errorf("%s is both opcode %d and %d", o.name, prev, o.op)
		}
		nums[o.op], names[o.name] = o.name, o.op
		sp, ok := spec[o.name]
		switch {
		case !ok:
			t.Errorf("%s (%d) is not a JCVM opcode the backend may use", o.name, o.op)
		case sp.num != int(o.op):
			t.Errorf("%s is opcode %d, the table says %d", o.name, sp.num, o.op)
		case sp.size != layoutSize[o.layout]:
			t.Errorf("%s takes %d bytes, the table says %d", o.name, sp.size, layoutSize[o.layout])
		}
		if ops[o.op].name != o.name {
			t.Errorf("ops[%d] is %q, want %s", o.op, ops[o.op].name, o.name)
		}
		if o.op == opLabel {
			t.Errorf("%s takes the label's number %d", o.name, o.op)
		}
		if o.sem == sUnknown {
			t.Errorf("%s has no simulator semantics", o.name)
		}
		if o.us <= 0 || o.class < 0 || o.class >= nClasses {
			t.Errorf("%s has no cost (%.2f µs, class %d)", o.name, o.us, o.class)
		}
		// The stack effect follows from the semantics and the kind.
		c := int8(o.k.Cells())
		want := map[opSem][2]int8{
			sConst: {0, c}, sPush: {0, c}, sLoad: {0, c}, sStore: {c, 0},
			sALoad: {2, c}, sAStore: {2 + c, 0}, sPop: {o.pop, 0}, sArith: {2 * c, c},
			sNeg: {c, c}, sInc: {0, 0}, sS2B: {1, 1}, sS2I: {1, 2}, sI2B: {2, 1}, sI2S: {2, 1},
			sCmp: {4, 1}, sIf: {1, 0}, sIfCmp: {2, 0}, sGoto: {0, 0}, sReturn: {c, 0},
			sGetstatic: {0, 1}, sInvoke: {-1, -1},
		}[o.sem]
		if o.pop != want[0] || o.push != want[1] {
			t.Errorf("%s pops %d and pushes %d cells; its semantics say %d and %d", o.name, o.pop, o.push, want[0], want[1])
		}
		// An implied local or constant is the mnemonic's suffix.
		if o.layout == lNone && (o.sem == sLoad || o.sem == sStore) && o.name[len(o.name)-1] != byte('0'+o.arg) {
			t.Errorf("%s: implied local %d", o.name, o.arg)
		}
	}

	// Every opcode the code generator names: the single ones and the
	// families it indexes (sconst_m1 + v + 1, sload_0 + slot, ifeq_w +
	// rel, binOpcode[op] and the int form after it).
	families := []struct {
		first byte
		n     int
	}{
		{opSconstM1, 7}, {opIconstM1, 7}, {opBspush, 1}, {opSspush, 1}, {opBipush, 1}, {opSipush, 1},
		{opIipush, 1}, {opAload, 1}, {opSload, 1}, {opIload, 1}, {opAload0, 4}, {opSload0, 4},
		{opIload0, 4}, {opBaload, 1}, {opSaload, 1}, {opIaload, 1}, {opSstore, 1}, {opIstore, 1},
		{opSstore0, 4}, {opIstore0, 4}, {opBastore, 1}, {opSastore, 1}, {opIastore, 1}, {opPop, 1},
		{opPop2, 1}, {opSneg, 2}, {opSinc, 1}, {opIinc, 1}, {opS2b, 1}, {opS2i, 1}, {opI2b, 1},
		{opI2s, 1}, {opIcmp, 1}, {opReturnS, 1}, {opReturnI, 1}, {opReturn, 1}, {opGetstaticA, 1},
		{opInvokestatic, 1}, {opIfeqW, 6}, {opIfScmpeqW, 6}, {opGotoW, 1},
	}
	for op, b := range binOpcode {
		families = append(families, struct {
			first byte
			n     int
		}{b, 2})
		if ops[b].sem != sArith || BinOp(ops[b].arg) != BinOp(op) || ops[b+1].k != KInt {
			t.Errorf("binOpcode[%d] = %s", op, opName(b))
		}
	}
	for _, f := range families {
		for i := 0; i < f.n; i++ {
			if opName(f.first+byte(i)) == "" {
				t.Errorf("opcode %d (family of %d) is not in the table", f.first+byte(i), f.first)
			}
		}
	}
	for r := REq; r <= RLe; r++ {
		if Rel(ops[opIfeqW+byte(r)].arg) != r || Rel(ops[opIfScmpeqW+byte(r)].arg) != r {
			t.Errorf("branch on %s: wrong opcode", relJava[r])
		}
	}

	// What the code generator emits for the standard library, in every
	// layout: every instruction in the table, each method's size the sum
	// of the table's sizes, and its .stack what the table's stack effects
	// give along the code.
	for _, noInt := range []bool{false, true} {
		for _, storage := range []string{"", "arrays", "pairs"} {
			for _, mod := range []string{"sha256", "aes"} {
				p := testprog.Stdlib(t, mod)
				cls, err := compileClass(input(p), backend.Options{NoInt: noInt, Storage: storage})
				if err != nil {
					t.Fatalf("%s noInt=%v storage=%q: %v", mod, noInt, storage, err)
				}
				for _, m := range cls.Methods {
					size := 0
					for _, in := range m.Code {
						if in.Op != opLabel && opName(in.Op) == "" {
							t.Errorf("%s: %s emits opcode %d, not in the table", mod, m.Name, in.Op)
						}
						size += in.size()
					}
					if size != m.Size {
						t.Errorf("%s: %s has %d bytes, its instructions %d", mod, m.Name, m.Size, size)
					}
					if got := stackDepth(m.Code); got != m.Stack {
						t.Errorf("%s: %s has .stack %d, the table's stack effects give %d", mod, m.Name, m.Stack, got)
					}
				}
			}
		}
	}
}

// stackDepth is the deepest operand stack along code, following branches
// (a branch target takes the depth of the branch that reaches it first).
func stackDepth(code []Insn) int {
	at := map[int32]int{} // label -> depth
	depth, max, dead := 0, 0, false
	for _, in := range code {
		if in.Op == opLabel {
			if d, ok := at[in.A]; ok && dead {
				depth = d
			}
			dead = false
			continue
		}
		pop, push := in.stackEffect()
		depth += push - pop
		if depth > max {
			max = depth
		}
		if isBranch(in.Op) {
			if _, ok := at[in.A]; !ok {
				at[in.A] = depth
			}
		}
		if ops[in.Op].sem == sGoto || ops[in.Op].sem == sReturn {
			dead = true
		}
	}
	return max
}

// TestSimNegate: sneg and ineg run in the simulator (its arithmetic
// range 65..88 once caught them as binary operations: a stack underflow).
func TestSimNegate(t *testing.T) {
	for _, c := range []struct {
		code []Insn
		ret  Kind
		want []int16
	}{
		{[]Insn{{Op: opSconstM1 + 4}, {Op: opSneg}, {Op: opReturnS}}, KShort, []int16{-3}},
		{[]Insn{{Op: opSspush, A: -32768}, {Op: opSneg}, {Op: opReturnS}}, KShort, []int16{-32768}},
		{[]Insn{{Op: opIipush, A: 100000}, {Op: opIneg}, {Op: opReturnI}}, KInt, []int16{-2, 31072}},
	} {
		m := &Method{Name: "f", Ret: c.ret, Code: c.code, Stack: 2}
		cls := &Class{Name: "C", Methods: []*Method{m}}
		got, err := newSim(cls).call(m, nil)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: %v, %v; want %v", opName(c.code[1].Op), got, err, c.want)
		}
	}
}
