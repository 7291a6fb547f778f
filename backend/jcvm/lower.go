package jcvm

import (
	"fmt"
	"strings"

	"github.com/lowent/lowentc/ir"
)

// lowerer turns one legalized IR function into a JIR method. Every IR value
// becomes an expression: a constant, a tree built at its single use (pure
// ops and loads that no write separates from their use), or a local
// variable assigned where the IR defines it.
type lowerer struct {
	cls  *Class
	m    *Method
	f    *ir.Function
	w    int
	val  map[*ir.Value]Expr
	uses map[*ir.Value]int
	at   map[*ir.Value]*ir.Block // the block of a value's (last) use
	arrs map[*ir.Array]*Arr
	rt   map[string]*Method
	out  *[]Stmt
	pre  string // prefix of the names of constant tables
	// clmul remembers, per block, the product of each operand pair, so a
	// clmul_hi next to its clmul_lo costs no second call.
	clmul map[clmulKey][]Expr
	cur   *ir.Block
	// What the sinking of loads found (lower_sink.go): per block, its uses,
	// barriers and stores; per instruction, whether its result is inlined
	// and the position of the root of its tree.
	sink   map[*ir.Block]*sinkBlock
	inline map[*ir.Instr]bool
	root   map[*ir.Instr]int
	// target is, for the result of an if, the variable it is assigned to
	// (yieldTargets).
	target map[*ir.Value]*Var
}

type clmulKey struct {
	b    *ir.Block
	args string
}

// lowerError is a program the backend cannot compile (not a bug).
type lowerError struct{ msg string }

func (e *lowerError) Error() string { return e.msg }

func (l *lowerer) fail(format string, args ...any) {
	panic(&lowerError{fmt.Sprintf("jcvm: %s: %s", l.f.Name, fmt.Sprintf(format, args...))})
}

// kindOf is where a value of IR type t lives.
func (l *lowerer) kindOf(t ir.Type) Kind {
	if t == ir.U32 {
		return KInt
	}
	if t == ir.U64 {
		l.fail("u64 value at limb width %d", l.w)
	}
	return KShort
}

func (l *lowerer) emit(s Stmt) { *l.out = append(*l.out, s) }

// assign stores e in a fresh variable and returns it.
func (l *lowerer) assign(e Expr) *Var {
	v := l.m.newVar(e.Kind())
	l.emit(&SAssign{V: v, X: e})
	return v
}

// atom returns e if it is a constant or variable, else a variable holding it:
// for operands the lowering reads more than once.
func (l *lowerer) atom(e Expr) Expr {
	switch e.(type) {
	case *EConst, *EVar:
		return e
	}
	return &EVar{V: l.assign(e)}
}

func (l *lowerer) get(v *ir.Value) Expr {
	e, ok := l.val[v]
	if !ok {
		panic(fmt.Sprintf("BUG: jcvm: %s: value %d used before it is lowered", l.f.Name, v.ID))
	}
	return e
}

// countUses records how often each value is used and in which block.
func (l *lowerer) countUses(b *ir.Block) {
	for _, in := range b.Instrs {
		for _, a := range in.Args {
			l.uses[a]++
			l.at[a] = b
		}
		for _, blk := range in.Blocks {
			l.countUses(blk)
		}
	}
}

// inlinable reports whether result v of in (at position i of block b) may be
// computed where it is used instead of where it is defined.
func (l *lowerer) inlinable(b *ir.Block, i int, in *ir.Instr) bool {
	if ok, done := l.inline[in]; done {
		return ok
	}
	ok := l.canInline(b, i, in)
	l.inline[in] = ok
	return ok
}

// canInline is inlinable, computed.
func (l *lowerer) canInline(b *ir.Block, i int, in *ir.Instr) bool {
	if len(in.Results) == 0 {
		return false
	}
	v := in.Results[0]
	for _, r := range in.Results[1:] {
		if l.uses[r] > 0 {
			return false
		}
	}
	if l.uses[v] != 1 || l.at[v] != b {
		return false
	}
	if in.Op.IsPure() {
		return true
	}
	if in.Op != ir.OpLoad && in.Op != ir.OpLoadLE && in.Op != ir.OpLoadBE && in.Op != ir.OpLen {
		return false
	}
	return l.noWriteUntilUse(b, i)
}

// lowerFunc builds the method of IR function f.
func lowerFunc(cls *Class, f *ir.Function, rt map[string]*Method, name, pre string) (m *Method, err error) {
	defer func() {
		if r := recover(); r != nil {
			if le, ok := r.(*lowerError); ok {
				m, err = nil, le
				return
			}
			panic(r)
		}
	}()
	m = &Method{Name: name, Export: f.Export, Pos: f.Pos}
	l := &lowerer{cls: cls, m: m, f: f, w: cls.W, val: map[*ir.Value]Expr{}, uses: map[*ir.Value]int{},
		at: map[*ir.Value]*ir.Block{}, arrs: map[*ir.Array]*Arr{}, rt: rt, pre: pre,
		sink: map[*ir.Block]*sinkBlock{}, inline: map[*ir.Instr]bool{}, root: map[*ir.Instr]int{},
		target: map[*ir.Value]*Var{}}
	for _, p := range f.Params {
		if p.Val != nil {
			v := m.newVar(l.kindOf(p.Val.Type))
			m.Params = append(m.Params, v)
			l.val[p.Val] = &EVar{V: v}
			continue
		}
		a := &Arr{Name: jname(p.Arr.Name), Elem: l.elemOf(p.Arr), Wide: p.Arr.Elem == ir.U32}
		a.Ref = m.newVar(KRef)
		a.Ref.Arr = a
		a.Off = m.newVar(KShort)
		m.Params = append(m.Params, a.Ref, a.Off)
		if p.Arr.IsSlice() {
			lv := m.newVar(KShort)
			m.Params = append(m.Params, lv)
			a.Len = -1
			a.LenV = lv
		} else {
			a.Len = p.Arr.Len
		}
		l.arrs[p.Arr] = a
	}
	switch len(f.Results) {
	case 0:
		m.Ret = KVoid
	case 1:
		m.Ret = l.kindOf(f.Results[0])
	default:
		m.Ret = KVoid
	}
	l.countUses(f.Body)
	l.out = &m.Body
	l.block(f.Body, nil)
	return m, nil
}

// elemOf is the Java array type holding IR array a.
func (l *lowerer) elemOf(a *ir.Array) ElemKind {
	switch a.Elem {
	case ir.U8, ir.Bool:
		return EByte
	case ir.U16, ir.U32:
		return EShort
	}
	l.fail("array %s of %s at limb width %d", a.Name, a.Elem, l.w)
	return 0
}

// arr returns the JIR array of an IR array, making static fields on first use.
func (l *lowerer) arr(a *ir.Array) *Arr {
	if x, ok := l.arrs[a]; ok {
		return x
	}
	x := &Arr{Elem: l.elemOf(a), Wide: a.Elem == ir.U32, Len: a.Len}
	if l.cls.IntArrs && a.Kind == ir.ArrLocal && a.Elem == ir.U32 {
		x.Elem, x.Wide = EInt, false
	}
	if a.Kind == ir.ArrGlobal {
		x.Name = jname(l.pre + a.Name)
		for _, f := range l.cls.Fields {
			if f.Name == x.Name && f.Data != nil {
				l.arrs[a] = f
				return f
			}
		}
		for _, d := range a.Data {
			if x.Wide {
				x.Data = append(x.Data, int32(int16(d>>16)), int32(int16(d)))
			} else if x.Elem == EByte {
				x.Data = append(x.Data, int32(int8(d)))
			} else {
				x.Data = append(x.Data, int32(int16(d)))
			}
		}
	} else {
		x.Name = jname(l.m.Name + "_" + a.Name)
	}
	x.Field = len(l.cls.Fields)
	l.cls.Fields = append(l.cls.Fields, x)
	l.arrs[a] = x
	return x
}

// jname makes a Java identifier of an IR name.
func jname(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		return '_'
	}, s)
}

// block lowers the instructions of b; at its terminator it calls term with
// the terminator's operands (nil for the function body's return).
func (l *lowerer) block(b *ir.Block, term func(args []Expr)) {
	outer := l.cur
	l.cur = b
	defer func() { l.cur = outer }()
	for i, in := range b.Instrs {
		switch in.Op {
		case ir.OpYield:
			args := make([]Expr, len(in.Args))
			for j, a := range in.Args {
				args[j] = l.get(a)
			}
			term(args)
			return
		case ir.OpReturn:
			l.ret(in)
			return
		case ir.OpIf:
			l.ifInstr(in)
			continue
		case ir.OpFor:
			l.forInstr(in)
			continue
		}
		inline := l.inlinable(b, i, in)
		res := l.instr(in)
		for j, r := range in.Results {
			e := res[j]
			if e == nil {
				continue
			}
			switch e.(type) {
			case *EConst, *EVar:
			default:
				if !inline && l.uses[r] > 0 {
					e = &EVar{V: l.assign(e)}
				}
			}
			l.val[r] = e
		}
	}
}

// ret lowers the function's return: one result is the method's value, more
// go through the carry array.
func (l *lowerer) ret(in *ir.Instr) {
	switch len(in.Args) {
	case 0:
		l.emit(&SReturn{})
	case 1:
		l.emit(&SReturn{X: l.get(in.Args[0])})
	default:
		exprs := make([]Expr, len(in.Args))
		for i, a := range in.Args {
			exprs[i] = l.get(a)
		}
		k := 0
		for _, e := range exprs {
			k = l.storeCarry(k, e)
		}
		l.emit(&SReturn{})
	}
}

// storeCarry writes e to the carry array at short index k and returns the next index.
func (l *lowerer) storeCarry(k int, e Expr) int {
	c := l.cls.Carry
	if e.Kind() == KInt {
		e = l.atom(e)
		l.emit(&SStore{A: c, I: sconst(int32(k)), X: conv(bin(OUshr, KInt, e, iconst(16)), KShort)})
		l.emit(&SStore{A: c, I: sconst(int32(k + 1)), X: conv(e, KShort)})
		k += 2
	} else {
		l.emit(&SStore{A: c, I: sconst(int32(k)), X: e})
		k++
	}
	if k > c.Len {
		c.Len = k
	}
	return k
}

// loadCarry reads a value of kind kd from the carry array at short index k.
func (l *lowerer) loadCarry(k int, kd Kind) (Expr, int) {
	c := l.cls.Carry
	if kd == KInt {
		// One call of rt_carry (4 bytes) instead of its 20 bytes inline.
		return &ECall{M: l.cls.carryInt(), Args: []Expr{sconst(int32(k))}}, k + 2
	}
	return &ELoad{A: c, I: sconst(int32(k))}, k + 1
}

func (l *lowerer) ifInstr(in *ir.Instr) {
	c := condOf(l.get(in.Args[0]))
	res := make([]*Var, len(in.Results))
	for i, r := range in.Results {
		if v := l.target[r]; v != nil && v.Kind == l.kindOf(r.Type) {
			res[i] = v
		} else {
			res[i] = l.m.newVar(l.kindOf(r.Type))
		}
		l.val[r] = &EVar{V: res[i]}
	}
	s := &SIf{C: c}
	saved := l.out
	for bi, dst := range []*[]Stmt{&s.Then, &s.Else} {
		l.out = dst
		l.yieldTargets(in.Blocks[bi], res)
		l.block(in.Blocks[bi], func(args []Expr) {
			// A result may be a variable the branch reads (a loop's,
			// through yieldTargets): assign them all at once.
			l.parallelMove(res, args)
		})
	}
	l.out = saved
	l.emit(s)
}

// yieldTargets lets the if that ends block b (just before its yield) assign
// the variables res that b's yield assigns, when b yields its results and
// nothing else uses them: a chain of else-ifs at the end of a loop body then
// moves each value once, into the loop's own variable, not once per level.
// The if's branches assign their results all at once at their end, and
// nothing runs after the if in b, so a variable res names is read with its
// old value wherever the code before reads it.
func (l *lowerer) yieldTargets(b *ir.Block, res []*Var) {
	n := len(b.Instrs)
	if n < 2 || b.Instrs[n-1].Op != ir.OpYield || b.Instrs[n-2].Op != ir.OpIf {
		return
	}
	last := b.Instrs[n-2]
	for j, a := range b.Instrs[n-1].Args {
		if j < len(res) && a.Def == last && l.uses[a] == 1 {
			l.target[a] = res[j]
		}
	}
}

// forInstr lowers `for idx = lo to hi iter(...)` to a while loop. At W=16
// the index is two limbs; when both bounds' high limbs are constant zero the
// high limb stays zero and only the low one is counted.
func (l *lowerer) forInstr(in *ir.Instr) {
	body := in.Blocks[0]
	k := len(in.Results)
	n := len(body.Params) - k
	lo, hi := in.Args[:n], in.Args[n:2*n]
	inits := in.Args[2*n:]
	iters := make([]*Var, k)
	initExprs := make([]Expr, k)
	for i := range inits {
		initExprs[i] = l.get(inits[i])
	}
	for i, p := range body.Params[n:] {
		iters[i] = l.m.newVar(l.kindOf(p.Type))
		l.val[p] = &EVar{V: iters[i]}
		l.val[in.Results[i]] = &EVar{V: iters[i]}
	}
	for i, e := range initExprs {
		l.emit(&SAssign{V: iters[i], X: e})
	}
	zeroHigh := n == 2 && isConst(l.get(lo[1]), 0) && isConst(l.get(hi[1]), 0)
	idx := make([]*Var, n)
	for i := range idx {
		if i == 1 && zeroHigh {
			l.val[body.Params[1]] = kconst(l.kindOf(body.Params[1].Type), 0)
			continue
		}
		idx[i] = l.m.newVar(l.kindOf(body.Params[i].Type))
		l.val[body.Params[i]] = &EVar{V: idx[i]}
		l.emit(&SAssign{V: idx[i], X: l.get(lo[i])})
	}
	bounds := make([]Expr, n)
	for i := range hi {
		bounds[i] = l.atom(l.get(hi[i]))
	}
	var cond Cond
	lt := body.Params[0].Type // the limb type of the index
	if n == 1 || zeroHigh {
		cond = l.ult(&EVar{V: idx[0]}, bounds[0], lt)
	} else {
		// (ihi, ilo) < (bhi, blo) unsigned: compare the low limbs only when
		// the high ones are equal.
		ih, il := &EVar{V: idx[1]}, &EVar{V: idx[0]}
		cond = Cond{Rel: RNe, X: &ECond{C: Cond{Rel: REq, X: ih, Y: bounds[1]},
			T: flag(l.ult(il, bounds[0], lt)),
			F: flag(l.ult(ih, bounds[1], lt))}, Y: sconst(0)}
	}
	w := &SWhile{C: cond}
	saved := l.out
	l.out = &w.Body
	l.yieldTargets(body, iters)
	l.block(body, func(args []Expr) {
		l.parallelAssign(iters, args)
		one := kconst(idx[0].Kind, 1)
		l.emit(&SAssign{V: idx[0], X: bin(OAdd, idx[0].Kind, &EVar{V: idx[0]}, one)})
		if n == 2 && !zeroHigh {
			k := idx[1].Kind
			carry := conv(flag(Cond{Rel: REq, X: &EVar{V: idx[0]}, Y: kconst(idx[0].Kind, 0)}), k)
			l.emit(&SAssign{V: idx[1], X: bin(OAdd, k, &EVar{V: idx[1]}, carry)})
		}
	})
	l.out = saved
	l.emit(w)
}

// parallelAssign sets dst[i] = src[i] for all i at once: a source reading a
// destination already written is evaluated into a temporary first.
func (l *lowerer) parallelAssign(dst []*Var, src []Expr) {
	var pre []Stmt
	final := make([]Expr, len(src))
	for i, e := range src {
		final[i] = e
		for j := 0; j < i; j++ {
			if mentions(e, dst[j]) {
				v := l.m.newVar(e.Kind())
				pre = append(pre, &SAssign{V: v, X: e})
				final[i] = &EVar{V: v}
				break
			}
		}
	}
	for _, s := range pre {
		l.emit(s)
	}
	for i, e := range final {
		if ev, ok := e.(*EVar); ok && ev.V == dst[i] {
			continue
		}
		l.emit(&SAssign{V: dst[i], X: e})
	}
}

// parallelMove sets dst[i] = src[i] for all i at once. An assignment
// goes first when no other pending source reads its variable; when every
// pending one is read by another (a cycle, as in a permutation), one
// variable's old value moves to a temporary, which the sources reading it
// read instead.
func (l *lowerer) parallelMove(dst []*Var, src []Expr) {
	type move struct {
		v *Var
		x Expr
	}
	var pending []move
	for i, e := range src {
		if ev, ok := e.(*EVar); ok && ev.V == dst[i] {
			continue
		}
		pending = append(pending, move{dst[i], e})
	}
	for len(pending) > 0 {
		done := false
		for i, mv := range pending {
			read := false
			for j, o := range pending {
				if j != i && mentions(o.x, mv.v) {
					read = true
					break
				}
			}
			if !read {
				l.emit(&SAssign{V: mv.v, X: mv.x})
				pending = append(pending[:i], pending[i+1:]...)
				done = true
				break
			}
		}
		if done {
			continue
		}
		// A cycle: save the first pending variable's old value.
		v := pending[0].v
		t := l.m.newVar(v.Kind)
		l.emit(&SAssign{V: t, X: &EVar{V: v}})
		for i := range pending {
			pending[i].x = replaceVar(pending[i].x, v, t)
		}
	}
}

// replaceVar returns e reading t where it read v.
func replaceVar(e Expr, v, t *Var) Expr {
	switch x := e.(type) {
	case *EVar:
		if x.V == v {
			return &EVar{V: t}
		}
	case *EBin:
		return &EBin{Op: x.Op, K: x.K, X: replaceVar(x.X, v, t), Y: replaceVar(x.Y, v, t)}
	case *ENeg:
		return &ENeg{X: replaceVar(x.X, v, t)}
	case *EConv:
		return &EConv{To: x.To, B: x.B, X: replaceVar(x.X, v, t)}
	case *ELoad:
		return &ELoad{A: x.A, I: replaceVar(x.I, v, t)}
	case *ECond:
		c := Cond{Rel: x.C.Rel, X: replaceVar(x.C.X, v, t), Y: replaceVar(x.C.Y, v, t)}
		return &ECond{C: c, T: replaceVar(x.T, v, t), F: replaceVar(x.F, v, t)}
	case *ECall:
		args := make([]Expr, len(x.Args))
		for i, a := range x.Args {
			args[i] = replaceVar(a, v, t)
		}
		return &ECall{M: x.M, Args: args}
	}
	return e
}

// mentions reports whether e reads v.
func mentions(e Expr, v *Var) bool {
	switch x := e.(type) {
	case *EVar:
		return x.V == v
	case *EBin:
		return mentions(x.X, v) || mentions(x.Y, v)
	case *ENeg:
		return mentions(x.X, v)
	case *EConv:
		return mentions(x.X, v)
	case *ELoad:
		return mentions(x.I, v)
	case *ECond:
		return mentions(x.C.X, v) || mentions(x.C.Y, v) || mentions(x.T, v) || mentions(x.F, v)
	case *ECall:
		for _, a := range x.Args {
			if mentions(a, v) {
				return true
			}
		}
	}
	return false
}
