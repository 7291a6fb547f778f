package jcvm

// rtClmul builds the method computing the carry-less product of two u64
// limb groups (limbs of w bits, least significant first) and returning its
// low then high u64 through the carry array. One pass per bit of b, lowest
// first: a mask of that bit selects the 128-bit shift register xh:x (a,
// shifted once more each pass) into the product; no branch depends on the
// operands.
func rtClmul(cls *Class) *Method {
	w := cls.W
	n := 64 / w
	k := KShort
	if w == 32 {
		k = KInt
	}
	m := &Method{Name: "rt_clmul", Ret: KVoid}
	vars := func(c int) []*Var {
		vs := make([]*Var, c)
		for i := range vs {
			vs[i] = m.newVar(k)
		}
		return vs
	}
	x, y := vars(n), vars(n)
	m.Params = append(append(m.Params, x...), y...)
	xh, lo, hi := vars(n), vars(n), vars(n)
	ev := func(v *Var) Expr { return &EVar{V: v} }
	kc := func(c int64) Expr { return kconst(k, c) }
	// ushr1 is the logical shift of a limb right by s (sushr sign-extends).
	ushr := func(e Expr, s int) Expr {
		if k == KInt {
			return bin(OUshr, KInt, e, iconst(int32(s)))
		}
		return bin(OAnd, KShort, bin(OShr, KShort, e, sconst(int32(s))), sconst(int32(0xffff>>uint(s))))
	}
	var body []Stmt
	set := func(v *Var, e Expr) { body = append(body, &SAssign{V: v, X: e}) }
	for i := 0; i < n; i++ {
		set(xh[i], kc(0))
		set(lo[i], kc(0))
		set(hi[i], kc(0))
	}
	mask := m.newVar(k)
	cnt := m.newVar(KShort)
	set(cnt, sconst(0))
	var loop []Stmt
	put := func(v *Var, e Expr) { loop = append(loop, &SAssign{V: v, X: e}) }
	put(mask, bin(OSub, k, kc(0), bin(OAnd, k, ev(y[0]), kc(1))))
	for i := 0; i < n; i++ {
		put(lo[i], bin(OXor, k, ev(lo[i]), bin(OAnd, k, ev(x[i]), ev(mask))))
		put(hi[i], bin(OXor, k, ev(hi[i]), bin(OAnd, k, ev(xh[i]), ev(mask))))
	}
	// xh:x <<= 1 and y >>= 1, limb by limb.
	for i := n - 1; i >= 0; i-- {
		below := ev(x[n-1])
		if i > 0 {
			below = ev(xh[i-1])
		}
		put(xh[i], bin(OOr, k, bin(OShl, k, ev(xh[i]), kc(1)), ushr(below, w-1)))
	}
	for i := n - 1; i >= 0; i-- {
		next := bin(OShl, k, ev(x[i]), kc(1))
		if i > 0 {
			next = bin(OOr, k, next, ushr(ev(x[i-1]), w-1))
		}
		put(x[i], next)
	}
	for i := 0; i < n; i++ {
		next := ushr(ev(y[i]), 1)
		if i < n-1 {
			next = bin(OOr, k, next, bin(OShl, k, ev(y[i+1]), kc(int64(w-1))))
		}
		put(y[i], next)
	}
	put(cnt, bin(OAdd, KShort, ev(cnt), sconst(1)))
	body = append(body, &SWhile{C: Cond{Rel: RLt, X: ev(cnt), Y: sconst(64)}, Body: loop})
	m.Body = body
	l := &lowerer{cls: cls, m: m, out: &m.Body}
	idx := 0
	for _, vs := range [][]*Var{lo, hi} {
		for _, v := range vs {
			idx = l.storeCarry(idx, ev(v))
		}
	}
	l.emit(&SReturn{})
	return m
}
