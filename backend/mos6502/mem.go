package mos6502

import (
	"fmt"

	"github.com/lowent/lowentc/ir"
)

// addrNeedsA reports whether addressing arr[idx] needs A and the carry (a
// computed 16-bit address) rather than just an index register.
func (g *fgen) addrNeedsA(arr *ir.Array, idx []*ir.Value) bool {
	_, _, ok := g.simpleAddr(arr, idx)
	return !ok
}

// simpleAddr returns the index-register setup and operand for arr[idx]
// when no address arithmetic is needed.
func (g *fgen) simpleAddr(arr *ir.Array, idx []*ir.Value) (setup, operand string, ok bool) {
	setup, operand, _, ok = g.simpleAddrIndex(arr, idx)
	return setup, operand, ok
}

// simpleAddrIndex is simpleAddr, also returning the value the setup loads
// into the index register (nil when there is no setup).
func (g *fgen) simpleAddrIndex(arr *ir.Array, idx []*ir.Value) (setup, operand string, index *ir.Value, ok bool) {
	info := g.arrs[arr]
	for _, v := range idx[min(2, len(idx)):] {
		if c, k := g.constOf(v); !k || c != 0 {
			return "", "", nil, false
		}
	}
	c0, k0 := g.constOf(idx[0])
	c1, k1 := byte(0), true
	if len(idx) > 1 {
		c1, k1 = g.constOf(idx[1])
	}
	if !k1 {
		return "", "", nil, false
	}
	if info.label != "" {
		base := info.label
		if k0 {
			return "", plus(base, int(c0)+256*int(c1)), nil, true
		}
		if g.g.lay.reusePtrs() {
			// arr[b|k] is arr+k indexed by b: the bytes of an element
			// share X, and b|k is never computed (absorbedOrs).
			b, k := splitLow(g, idx[0])
			if r, ok := g.rebase[b]; ok {
				// Indexed by an earlier copy's index (rebase.go).
				return "ldx " + g.opnd(r.base), plus(base, r.off+k+256*int(c1)) + ",x", r.base, true
			}
			if b != idx[0] {
				return "ldx " + g.opnd(b), plus(base, k+256*int(c1)) + ",x", b, true
			}
		}
		return "ldx " + g.opnd(idx[0]), plus(base, 256*int(c1)) + ",x", idx[0], true
	}
	if c1 != 0 {
		return "", "", nil, false
	}
	return "ldy " + g.opnd(idx[0]), fmt.Sprintf("($%02x),y", info.ptr), idx[0], true
}

func plus(label string, off int) string {
	if off == 0 {
		return label
	}
	return fmt.Sprintf("%s+%d", label, off)
}

// address emits what addressing in's array at idx needs and returns the
// operand. A computed address is kept in the pointer at zpTP: the next
// access with the same base (addr.go; splitLow under --opt size) only
// sets Y.
func (g *fgen) address(in *ir.Instr, idx []*ir.Value) string {
	arr := in.Arr
	if setup, operand, ok := g.simpleAddr(arr, idx); ok {
		if setup != "" {
			g.a.op("%s", setup)
			g.y = -1
		}
		return operand
	}
	key, off := g.addrKey(in, idx)
	if g.tp != nil && *g.tp == key {
		g.setY(off)
		return fmt.Sprintf("($%02x),y", zpTP)
	}
	info := g.arrs[arr]
	lo, hi := fmt.Sprintf("$%02x", info.ptr), fmt.Sprintf("$%02x", info.ptr+1)
	if info.label != "" {
		lo, hi = "#<"+info.label, "#>"+info.label
	}
	g.a.op("clc")
	g.a.op("lda %s", lo)
	g.a.op("adc %s", g.opnd(key.lo))
	g.a.op("sta $%02x", zpTP)
	g.a.op("lda %s", hi)
	if key.hi != nil {
		g.a.op("adc %s", g.opnd(key.hi))
	} else {
		g.a.op("adc #$00")
	}
	g.a.op("sta $%02x", zpTP+1)
	g.y = -1
	g.setY(off)
	g.tp = &key
	g.clobberA()
	g.cHolds = nil
	return fmt.Sprintf("($%02x),y", zpTP)
}

// addrKey returns the pointer a computed address of in needs and the
// offset from it.
func (g *fgen) addrKey(in *ir.Instr, idx []*ir.Value) (tpKey, int) {
	key := tpKey{arr: in.Arr, lo: idx[0]}
	if len(idx) > 1 {
		key.hi = idx[1]
	}
	off := 0
	if ab, ok := g.lin.addr(in); ok {
		key.lo, key.hi, off = ab.lo, ab.hi, ab.off
	} else if g.g.lay.reusePtrs() {
		// Under --opt size and balanced, arr[b|k] with b's low bits zero is
		// (arr+b),y with y = k: one pointer serves a run of accesses.
		key.lo, off = splitLow(g, idx[0])
	}
	return key, off
}

// addrReady reports whether in's address is the pointer at zpTP already,
// so that it needs neither A nor the carry.
func (g *fgen) addrReady(in *ir.Instr) bool {
	idx := memIndex(in)
	if g.tp == nil || len(idx) == 0 {
		return false
	}
	key, _ := g.addrKey(in, idx)
	return *g.tp == key
}

// setY puts k in Y, by INY when Y holds k-1 (--opt size only).
func (g *fgen) setY(k int) {
	switch {
	case g.y >= 0 && g.y == k:
	case g.y >= 0 && g.y == k-1:
		g.a.op("iny")
	default:
		g.a.op("ldy #$%02x", k)
	}
	g.y = k
}

// tpKey names the address in the pointer at zpTP: arr + lo + 256*hi.
type tpKey struct {
	arr    *ir.Array
	lo, hi *ir.Value
}

// splitLow returns b and k when v = b | k with k below a power of two that
// divides b (so b | k = b + k), else v and 0.
func splitLow(g *fgen, v *ir.Value) (*ir.Value, int) {
	d := v.Def
	if d == nil || d.Op != ir.OpOr || len(d.Args) != 2 {
		return v, 0
	}
	b, kv := d.Args[0], d.Args[1]
	k, ok := g.constOf(kv)
	if !ok {
		return v, 0
	}
	if _, isConst := g.constOf(b); isConst || b.Def == nil || b.Def.Op != ir.OpShl || len(b.Def.Args) != 2 {
		return v, 0
	}
	sh, ok := g.constOf(b.Def.Args[1])
	if !ok || sh >= 8 || int(k) >= 1<<sh {
		return v, 0
	}
	return b, int(k)
}

// simpleShape reports, before storage exists, whether simpleAddr will
// address arr[idx] without arithmetic.
func (g *fgen) simpleShape(arr *ir.Array, idx []*ir.Value) bool {
	for _, v := range idx[min(2, len(idx)):] {
		if c, k := g.constOf(v); !k || c != 0 {
			return false
		}
	}
	c1, k1 := byte(0), true
	if len(idx) > 1 {
		c1, k1 = g.constOf(idx[1])
	}
	return k1 && (g.arrs[arr].label != "" || c1 == 0)
}

// absorbedOrs returns the b|k values (splitLow) whose every use is the
// first index of a load or store that computes its address: address then
// reads b and puts k in y, so the OR itself is never emitted.
func (g *fgen) absorbedOrs(b *ir.Block) map[*ir.Value]bool {
	absorbed := map[*ir.Value]int{}
	ir.WalkInstrs(b, func(in *ir.Instr) {
		if idx := memIndex(in); len(idx) > 0 && (!g.simpleShape(in.Arr, idx) || g.arrs[in.Arr].label != "") {
			if base, _ := splitLow(g, idx[0]); base != idx[0] {
				absorbed[idx[0]]++
			}
		}
	})
	out := map[*ir.Value]bool{}
	for v, n := range absorbed {
		if n == g.lv.uses[v] {
			out[v] = true
		}
	}
	return out
}

func (g *fgen) load(in *ir.Instr) {
	operand := g.address(in, in.Args)
	g.a.op("lda %s", operand)
	g.clobberA()
	g.setA(in.Results[0])
}

func (g *fgen) store(in *ir.Instr) {
	n := len(in.Args) - 1
	v := in.Args[n]
	if g.inA[v] {
		// Forwarded: the address needs no A (consumesFromA checked it).
		if g.addrNeedsA(in.Arr, in.Args[:n]) && !g.addrReady(in) {
			g.bug("forwarded value %d would be lost computing an address", v.ID)
		}
		operand := g.address(in, in.Args[:n])
		g.a.op("sta %s", operand)
		return
	}
	operand := g.address(in, in.Args[:n])
	g.loadA(v)
	g.a.op("sta %s", operand)
}

// clmul copies the operands to the helper's area, calls it, and reads the
// half asked for. The pair clmul_lo/clmul_hi of the same operands shares
// one call.
func (g *fgen) clmul(in *ir.Instr) {
	g.g.need["clmul"] = true
	a, b := in.Args[:8], in.Args[8:16]
	same := g.lastClmul != nil
	for i := range a {
		if same && (g.lastClmul[i] != a[i] || g.lastClmul[8+i] != b[i]) {
			same = false
		}
	}
	if !same {
		for i, v := range a {
			g.loadA(v)
			g.a.op("sta ha+%d", i)
		}
		for i, v := range b {
			g.loadA(v)
			g.a.op("sta hb+%d", i)
		}
		g.a.op("jsr clmul")
		g.forget()
		g.lastClmul = append([]*ir.Value(nil), in.Args...)
	}
	off := 0
	if in.Op == ir.OpClmulHi {
		off = 8
	}
	for i, r := range in.Results {
		g.a.op("lda hp+%d", off+i)
		g.clobberA()
		g.setA(r)
	}
}

// aes runs one AES round in the helper on copies of the state and key.
func (g *fgen) aes(in *ir.Instr) {
	g.g.need["aes"] = true
	for i, v := range in.Args[:16] {
		g.loadA(v)
		g.a.op("sta as+%d", i)
	}
	for i, v := range in.Args[16:32] {
		g.loadA(v)
		g.a.op("sta ak+%d", i)
	}
	if in.Op == ir.OpAESEnc {
		g.a.op("jsr aesenc")
	} else {
		g.a.op("jsr aeslast")
	}
	g.forget()
	g.lastClmul = nil
	for i, r := range in.Results {
		g.a.op("lda as+%d", i)
		g.clobberA()
		g.setA(r)
	}
}
