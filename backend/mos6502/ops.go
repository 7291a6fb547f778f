package mos6502

import (
	"github.com/lowent/lowentc/ir"
)

// block emits the instructions of b, deciding for each result whether it
// can stay in A (its only use is the next instruction) and for each carry
// whether it can stay in the carry flag.
func (g *fgen) block(b *ir.Block) {
	for i, in := range b.Instrs {
		var next *ir.Instr
		if i+1 < len(b.Instrs) {
			next = b.Instrs[i+1]
		}
		if len(in.Results) >= 1 && next != nil && !g.lin.skip(in) && g.lin.group(in) == nil && g.fz[in] == nil && !g.dead[in] {
			v := in.Results[0]
			// A load may move the pointer a store's address reads.
			mem := memIndex(in) != nil && memIndex(next) != nil && g.addrNeedsA(next.Arr, memIndex(next))
			if g.lv.uses[v] == 1 && !mem && g.consumesFromA(next, v) && producesInA(in) {
				g.inA[v] = true
			}
		}
		g.instr(in, b.Instrs[i+1:])
	}
}

// producesInA reports whether in's template leaves its first result in A.
func producesInA(in *ir.Instr) bool {
	switch in.Op {
	case ir.OpXor, ir.OpAnd, ir.OpOr, ir.OpNot, ir.OpAddC, ir.OpSubB, ir.OpShl, ir.OpShr,
		ir.OpFshl, ir.OpFshr, ir.OpRotl, ir.OpRotr, ir.OpLoad, ir.OpLoadLE, ir.OpLoadBE:
		return true
	}
	return false
}

// consumesFromA reports whether next's template begins by using v from A
// without disturbing A first.
func (g *fgen) consumesFromA(next *ir.Instr, v *ir.Value) bool {
	if g.lin.root(next) != nil || g.lin.skip(next) || g.lin.group(next) != nil || g.dead[next] || g.fz[next] != nil {
		return false
	}
	if len(next.Results) == 1 && g.skipOr[next.Results[0]] {
		// An absorbed b|k (absorbedOrs) is never computed: the load or
		// store it indexes reads b from where it is stored.
		return false
	}
	a := next.Args
	switch next.Op {
	case ir.OpXor, ir.OpAnd, ir.OpOr, ir.OpAddC:
		return (a[0] == v) != (a[1] == v)
	case ir.OpNot:
		return a[0] == v
	case ir.OpSubB:
		return a[0] == v && a[1] != v
	case ir.OpStore, ir.OpStoreLE, ir.OpStoreBE:
		n := len(a) - 1
		for _, x := range a[:n] {
			if x == v {
				return false
			}
		}
		return a[n] == v && (!g.addrNeedsA(next.Arr, a[:n]) || g.addrReady(next))
	}
	return false
}

// clobbersC reports whether in's template may change the carry flag.
func (g *fgen) clobbersC(in *ir.Instr) bool {
	if _, ok := g.wrap[in]; ok {
		return true
	}
	if g.lin.root(in) != nil || g.lin.skip(in) || g.dead[in] || g.fz[in] != nil {
		return false
	}
	switch in.Op {
	case ir.OpConst, ir.OpCopy, ir.OpZext, ir.OpTrunc, ir.OpXor, ir.OpAnd, ir.OpOr, ir.OpNot,
		ir.OpCheck, ir.OpTrace, ir.OpSelect, ir.OpLen:
		return false
	case ir.OpLoad, ir.OpLoadLE, ir.OpLoadBE:
		return g.addrNeedsA(in.Arr, in.Args)
	case ir.OpStore, ir.OpStoreLE, ir.OpStoreBE:
		return g.addrNeedsA(in.Arr, in.Args[:len(in.Args)-1])
	}
	return true
}

// keepC reports whether the carry c produced by a chain op can stay in the
// flag: its only use is the carry input of a later op of the same kind in
// rest, and nothing between changes the flag.
func (g *fgen) keepC(c *ir.Value, kind ir.Op, rest []*ir.Instr) bool {
	if g.lv.uses[c] != 1 {
		return false
	}
	for _, in := range rest {
		uses := false
		for _, a := range in.Args {
			if a == c {
				uses = true
			}
		}
		if uses {
			return in.Op == kind && in.Args[2] == c && in.Args[0] != c && in.Args[1] != c &&
				g.lin.root(in) == nil && !g.lin.skip(in)
		}
		if g.clobbersC(in) || len(in.Blocks) > 0 {
			return false
		}
	}
	return false
}

// setCarry makes the carry flag hold v (inv: hold its negation).
func (g *fgen) setCarry(v *ir.Value, inv bool) {
	if g.cHolds == v && g.cInv == inv {
		return
	}
	if c, ok := g.constOf(v); ok {
		if (c != 0) != inv {
			g.a.op("sec")
		} else {
			g.a.op("clc")
		}
	} else if !inv {
		g.a.op("ldx %s", g.mem(v))
		g.a.op("cpx #$01")
	} else {
		g.a.op("ldx #$00")
		g.a.op("cpx %s", g.mem(v))
	}
	g.cHolds, g.cInv = v, inv
}

// afterCarry stores the carry c in its slot unless it stays in the flag.
// No branch: `rol a` moves the flag into A's bit 0 (an eor flips a
// borrow), and a compare with 1 sets the flag from it again, so the time
// does not depend on the carry. A value held only in A waits on the stack.
func (g *fgen) afterCarry(c *ir.Value, kind ir.Op, rest []*ir.Instr) {
	if g.lv.uses[c] == 0 || g.keepC(c, kind, rest) {
		return
	}
	keep := g.aHolds != nil && g.inA[g.aHolds]
	if keep {
		g.a.op("pha")
	}
	g.a.op("lda #$00")
	g.a.op("rol a")
	if g.cInv {
		g.a.op("eor #$01")
	}
	g.a.op("cmp #$01")
	g.cHolds, g.cInv = c, false
	if keep {
		g.a.op("sta %s", g.mem(c))
		g.a.op("pla")
		return
	}
	// When the next op starts by loading c into A (a not of the borrow,
	// say), A has it, and c needs no slot if that is its only use.
	if len(rest) > 0 && g.consumesFromA(rest[0], c) {
		if g.lv.uses[c] > 1 {
			g.a.op("sta %s", g.mem(c))
		}
		g.aHolds = c
		return
	}
	g.a.op("sta %s", g.mem(c))
	g.aHolds = c
}

// accOrder returns the operands of a commutative op with the one to load
// into A first.
func (g *fgen) accOrder(a, b *ir.Value) (*ir.Value, *ir.Value) {
	if g.aHolds == b && b != nil {
		return b, a
	}
	if g.aHolds == a {
		return a, b
	}
	if _, ok := g.constOf(a); ok {
		return b, a
	}
	return a, b
}

// instr emits one instruction; rest are the instructions after it in its block.
func (g *fgen) instr(in *ir.Instr, rest []*ir.Instr) {
	if g.lin.skip(in) || len(in.Results) == 1 && g.skipOr[in.Results[0]] || g.fz[in] != nil || g.dead[in] {
		return
	}
	g.rest = rest
	if w, ok := g.wrap[in]; ok {
		g.wrapped(in, w)
		return
	}
	if r := g.lin.root(in); r != nil {
		g.linearRoot(in, r, rest)
		return
	}
	if grp := g.lin.group(in); grp != nil {
		g.rotate(grp)
		return
	}
	var r *ir.Value
	if len(in.Results) > 0 {
		r = in.Results[0]
	}
	args := in.Args
	switch in.Op {
	case ir.OpConst, ir.OpLen, ir.OpTrace, ir.OpYield:
		// A yield's copies belong to its if or for.
		// Constants are immediates; lengths live in the parameter area.
	case ir.OpCopy, ir.OpZext, ir.OpTrunc:
		g.loadA(args[0])
		g.setA(r)
	case ir.OpXor, ir.OpAnd, ir.OpOr:
		x, y := g.accOrder(args[0], args[1])
		g.loadA(x)
		g.a.op("%s %s", map[ir.Op]string{ir.OpXor: "eor", ir.OpAnd: "and", ir.OpOr: "ora"}[in.Op], g.opnd(y))
		g.setA(r)
	case ir.OpNot:
		g.loadA(args[0])
		if r.Type == ir.Bool {
			g.a.op("eor #$01")
		} else {
			g.a.op("eor #$ff")
		}
		g.setA(r)
	case ir.OpNeg:
		g.a.op("lda #$00")
		g.a.op("sec")
		g.a.op("sbc %s", g.opnd(args[0]))
		g.cHolds = nil
		g.setA(r)
	case ir.OpAddC:
		g.setCarry(args[2], false)
		x, y := g.accOrder(args[0], args[1])
		g.loadA(x)
		g.a.op("adc %s", g.opnd(y))
		g.setA(r)
		g.cHolds, g.cInv = in.Results[1], false
		g.afterCarry(in.Results[1], ir.OpAddC, rest)
	case ir.OpAdd:
		x, y := g.accOrder(args[0], args[1])
		g.a.op("clc")
		g.loadA(x)
		g.a.op("adc %s", g.opnd(y))
		g.cHolds = nil
		g.setA(r)
	case ir.OpSub:
		g.a.op("sec")
		g.loadA(args[0])
		g.a.op("sbc %s", g.opnd(args[1]))
		g.cHolds = nil
		g.setA(r)
	case ir.OpMul:
		g.a.op("lda %s", g.opnd(args[0]))
		g.a.op("sta hma")
		g.a.op("lda %s", g.opnd(args[1]))
		g.a.op("sta hmb")
		g.a.op("jsr mulw")
		g.g.need["mulw"] = true
		g.forget()
		g.a.op("lda hma")
		g.setA(r)
	case ir.OpDivU, ir.OpRemU:
		// Run-time divisors are loops already (pass expand); a constant
		// one calls the helper.
		g.a.op("lda %s", g.opnd(args[0]))
		g.a.op("sta hda")
		g.a.op("lda %s", g.opnd(args[1]))
		g.a.op("sta hdb")
		g.a.op("jsr divu")
		g.g.need["divu"] = true
		g.forget()
		if in.Op == ir.OpDivU {
			g.a.op("lda hda")
		}
		g.setA(r)
	case ir.OpSubB:
		g.setCarry(args[2], true)
		g.loadA(args[0])
		g.a.op("sbc %s", g.opnd(args[1]))
		g.setA(r)
		g.cHolds, g.cInv = in.Results[1], true
		g.afterCarry(in.Results[1], ir.OpSubB, rest)
	case ir.OpShl, ir.OpShr, ir.OpRotl, ir.OpRotr:
		g.shift(in)
	case ir.OpFshl, ir.OpFshr:
		g.funnel(in)
	case ir.OpEq, ir.OpNe, ir.OpUlt, ir.OpUle:
		g.compare(in)
	case ir.OpSelect:
		// No branch: with m = c - 1 ($00 when c is true, $ff when
		// false), r = a ^ ((a ^ b) & m). The flags' carry is kept.
		g.a.op("ldx %s", g.opnd(args[0]))
		g.a.op("dex")
		g.a.op("stx $%02x", zpT)
		g.loadA(args[1])
		g.a.op("eor %s", g.opnd(args[2]))
		g.a.op("and $%02x", zpT)
		g.a.op("eor %s", g.opnd(args[1]))
		g.clobberA()
		g.setA(r)
	case ir.OpMulW:
		g.a.op("lda %s", g.opnd(args[0]))
		g.a.op("sta %s", "hma")
		g.a.op("lda %s", g.opnd(args[1]))
		g.a.op("sta %s", "hmb")
		g.a.op("jsr mulw")
		g.g.need["mulw"] = true
		g.forget()
		g.a.op("lda hma")
		g.setA(r)
		g.a.op("lda hmb")
		g.setA(in.Results[1])
	case ir.OpClmulLo, ir.OpClmulHi:
		g.clmul(in)
	case ir.OpAESEnc, ir.OpAESEncLast:
		g.aes(in)
	case ir.OpLoad, ir.OpLoadLE, ir.OpLoadBE:
		if in.Op != ir.OpLoad && in.Aux != 8 {
			g.bug("%d-bit byte-order load at W=8", in.Aux)
		}
		g.load(in)
	case ir.OpStore, ir.OpStoreLE, ir.OpStoreBE:
		if in.Op != ir.OpStore && in.Aux != 8 {
			g.bug("%d-bit byte-order store at W=8", in.Aux)
		}
		g.store(in)
	case ir.OpCheck:
		if c, ok := g.constOf(args[0]); ok && c != 0 {
			return
		}
		l := g.a.newLabel()
		g.a.op("lda %s", g.opnd(args[0]))
		g.clobberA()
		g.a.op("bne %s", l)
		g.a.op("ldx #$%02x", g.g.trapID(in.Check)&0xff)
		g.a.op("jmp trap")
		g.lblKeepC(l)
	case ir.OpCall:
		g.call(in)
	case ir.OpIf:
		g.ifInstr(in)
	case ir.OpFor:
		g.forInstr(in)
	case ir.OpReturn:
		for i, a := range args {
			g.loadA(a)
			g.a.op("sta %s", g.abi.ResultLocs[i])
		}
		g.a.op("rts")
	default:
		g.bug("cannot select instructions for %s", in.Op)
	}
}

// lblKeepC places a label reached by branches that change neither A's
// meaning (it is reset anyway) nor the carry.
func (g *fgen) lblKeepC(l string) {
	g.a.label(l)
	g.aHolds = nil
}

// shift emits shl, shr, rotl and rotr of a byte.
func (g *fgen) shift(in *ir.Instr) {
	x, amt, r := in.Args[0], in.Args[1], in.Results[0]
	g.cHolds = nil
	k, isConst := g.constOf(amt)
	if !isConst {
		// A run-time amount: a loop (shifts by >= 8 give 0, rotates wrap).
		g.a.op("lda %s", g.opnd(amt))
		if in.Op == ir.OpRotl || in.Op == ir.OpRotr {
			g.a.op("and #$07")
		}
		g.a.op("tax")
		g.a.op("lda %s", g.opnd(x))
		top, done := g.a.newLabel(), g.a.newLabel()
		g.a.op("cpx #$00")
		g.a.op("beq %s", done)
		g.a.label(top)
		switch in.Op {
		case ir.OpShl:
			g.a.op("asl a")
		case ir.OpShr:
			g.a.op("lsr a")
		case ir.OpRotl:
			g.a.op("cmp #$80")
			g.a.op("rol a")
		case ir.OpRotr:
			g.rorAKeepX()
		}
		g.a.op("dex")
		g.a.op("bne %s", top)
		g.a.label(done)
		g.clobberA()
		g.setA(r)
		return
	}
	switch in.Op {
	case ir.OpShl, ir.OpShr:
		if k >= 8 || (uint64(k) != constAmount(g, amt)) {
			g.a.op("lda #$00")
			g.clobberA()
			g.setA(r)
			return
		}
		g.loadA(x)
		for i := 0; i < int(k); i++ {
			if in.Op == ir.OpShl {
				g.a.op("asl a")
			} else {
				g.a.op("lsr a")
			}
		}
	default:
		n := int(k) & 7
		if in.Op == ir.OpRotr {
			n = (8 - n) & 7
		}
		g.loadA(x)
		if n <= rotLeftSteps {
			for i := 0; i < n; i++ {
				g.a.op("cmp #$80")
				g.a.op("rol a")
			}
		} else {
			for i := 0; i < 8-n; i++ {
				g.rorA()
			}
		}
	}
	g.clobberA()
	g.setA(r)
}

// rorA rotates A right by one bit (bit 0 to bit 7), without the carry's
// old value and without a branch: `lsr a` of a copy sets the carry to bit
// 0, then `ror a` of A moves it to bit 7 (8 cycles; X is lost).
func (g *fgen) rorA() {
	g.a.op("tax")
	g.a.op("lsr a")
	g.a.op("txa")
	g.a.op("ror a")
}

// rorAKeepX is rorA for loops that count in X: the copy is the scratch
// byte (10 cycles).
func (g *fgen) rorAKeepX() {
	g.a.op("sta $%02x", zpT)
	g.a.op("lsr $%02x", zpT)
	g.a.op("ror a")
}

// rotLeftSteps is the number of 1-bit steps left (`cmp #$80 / rol a`, 4
// cycles) at or below which a byte rotate left by n goes left rather than
// 8-n steps right (rorA, 8 cycles).
const rotLeftSteps = 5

// constAmount returns a shift amount's full constant value (a shift amount
// may be a wider word whose high limbs were not folded).
func constAmount(g *fgen, v *ir.Value) uint64 {
	c, _ := g.constOf(v)
	return uint64(c)
}

// funnel emits fshl(hi, lo, n) (the high byte of hi:lo << n) and
// fshr(hi, lo, n) (the low byte of hi:lo >> n), shifting the shorter way.
func (g *fgen) funnel(in *ir.Instr) {
	hi, lo, r := in.Args[0], in.Args[1], in.Results[0]
	left := int(in.Aux) // bits hi:lo moves left
	if in.Op == ir.OpFshr {
		left = 8 - int(in.Aux)
	}
	g.cHolds = nil
	if hi == lo {
		g.loadA(hi)
		if left <= rotLeftSteps {
			for i := 0; i < left; i++ {
				g.a.op("cmp #$80")
				g.a.op("rol a")
			}
		} else {
			for i := 0; i < 8-left; i++ {
				g.rorA()
			}
		}
		g.clobberA()
		g.setA(r)
		return
	}
	if left <= 4 {
		g.loadA(lo)
		g.a.op("sta $%02x", zpT)
		g.a.op("lda %s", g.opnd(hi))
		for i := 0; i < left; i++ {
			g.a.op("asl $%02x", zpT)
			g.a.op("rol a")
		}
	} else {
		g.loadA(hi)
		g.a.op("sta $%02x", zpT)
		g.a.op("lda %s", g.opnd(lo))
		for i := 0; i < 8-left; i++ {
			g.a.op("lsr $%02x", zpT)
			g.a.op("ror a")
		}
	}
	g.clobberA()
	g.setA(r)
}

// compare emits eq, ne, ult and ule as 0/1 bytes.
func (g *fgen) compare(in *ir.Instr) {
	a, b, r := in.Args[0], in.Args[1], in.Results[0]
	g.cHolds = nil
	switch in.Op {
	case ir.OpEq, ir.OpNe:
		g.loadA(a)
		g.a.op("eor %s", g.opnd(b))
		g.a.op("cmp #$01") // C = (a != b)
		g.a.op("lda #$00")
		g.a.op("rol a")
		if in.Op == ir.OpEq {
			g.a.op("eor #$01")
		}
	case ir.OpUlt:
		g.loadA(a)
		g.a.op("cmp %s", g.opnd(b)) // C = a >= b
		g.a.op("lda #$00")
		g.a.op("rol a")
		g.a.op("eor #$01")
	case ir.OpUle:
		g.loadA(b)
		g.a.op("cmp %s", g.opnd(a)) // C = b >= a
		g.a.op("lda #$00")
		g.a.op("rol a")
	}
	g.clobberA()
	g.setA(r)
}
