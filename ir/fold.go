// Pass fold evaluates instructions whose operands are constants (with the
// interpreter's own definitions, so folding never changes a result),
// applies algebraic identities (x+0, x&0, x^x, select with a constant or
// equal arms, trunc of zext, ...), reads constant tables at constant
// indexes, drops checks that always pass, replaces an if with a constant
// condition by the branch taken, and a loop with zero or one trip by its
// initial values or its body.
//
// Requires: nothing. Preserves: the meaning; leaves unused instructions for dce.
package ir

func fold(m *Module, _ *Options) error {
	for _, f := range m.Funcs {
		fd := &folder{m: m, f: f, sub: subst{}}
		f.Body.Instrs = fd.instrs(f.Body.Instrs)
	}
	return nil
}

type folder struct {
	m   *Module
	f   *Function
	sub subst
	out []*Instr
	// negBit maps the borrow of a limb of 0 - b, b a single bit (a mask
	// of all ones or zeros), to that limb: the next limbs are the same.
	negBit map[*Value]*Value
	// bounds maps a limb of a loop index with constant bounds to the
	// bits it can have set (maybeOnes).
	bounds map[*Value]uint64
}

// instrs folds a list of instructions and returns the new list.
func (fd *folder) instrs(list []*Instr) []*Instr {
	saved := fd.out
	fd.out = nil
	for _, in := range list {
		fd.instr(in)
	}
	res := fd.out
	fd.out = saved
	return res
}

func (fd *folder) emit(in *Instr) { fd.out = append(fd.out, in) }

// replace makes later uses of in's only result use v instead; in is dropped.
func (fd *folder) replace(in *Instr, v *Value) { fd.sub[in.Results[0]] = v }

// toConst turns in into a constant instruction in place.
func toConst(in *Instr, c uint64) {
	in.Op, in.Args, in.Aux, in.Type, in.Arr = OpConst, nil, c&in.Results[0].Type.Mask(), TInvalid, nil
}

// newConst emits a constant and returns it.
func (fd *folder) newConst(t Type, c uint64) *Value {
	in := fd.f.newInstr(OpConst, []Type{t})
	in.Aux = c & t.Mask()
	fd.emit(in)
	return in.Results[0]
}

func (fd *folder) instr(in *Instr) {
	fd.sub.apply(in)
	switch in.Op {
	case OpIf:
		fd.ifInstr(in)
		return
	case OpFor:
		fd.forInstr(in)
		return
	case OpCheck:
		if isConst(in.Args[0], 1) {
			return
		}
	case OpLoad:
		if in.Arr.Kind == ArrGlobal {
			if i, ok := constGroup(in.Args, fd.m.W); ok && i < uint64(len(in.Arr.Data)) {
				toConst(in, in.Arr.Data[i])
			}
		}
	case OpAddC, OpSubB, OpMulW:
		if fd.pair(in) {
			return
		}
	case OpClmulLo, OpClmulHi, OpAESEnc, OpAESEncLast:
		if fd.builtin(in) {
			return
		}
	case OpHave, OpSHA256Rnds2, OpSHA256Msg1, OpSHA256Msg2:
		// Nothing to fold: have is the backend's, and the SHA-256 ops
		// only meet constants in tests.
	default:
		if in.Op.IsPure() && in.Op != OpConst && len(in.Results) == 1 {
			if v := fd.simplify(in); v != nil {
				fd.replace(in, v)
				return
			}
		}
	}
	fd.emit(in)
}

// simplify folds a single-result pure op: it returns a value to use
// instead, or turns in into a constant in place and returns nil.
func (fd *folder) simplify(in *Instr) *Value {
	var c [3]uint64
	all := true
	for i, a := range in.Args {
		v, ok := ConstOf(a)
		if !ok {
			all = false
		} else if i < 3 {
			c[i] = v
		}
	}
	t := in.Results[0].Type
	if all {
		at := TInvalid
		if len(in.Args) > 0 {
			at = in.Args[0].Type
		}
		toConst(in, eval1(in.Op, t, at, in.Aux, c[0], c[1], c[2]))
		return nil
	}
	a := in.Args
	isC := func(i int, x uint64) bool { return i < len(a) && isConst(a[i], x) }
	mask := t.Mask()
	switch in.Op {
	case OpCopy:
		return a[0]
	case OpAdd, OpOr, OpXor:
		if isC(1, 0) {
			return a[0]
		}
		if isC(0, 0) {
			return a[1]
		}
		if in.Op == OpOr && (isC(0, mask) || isC(1, mask)) {
			toConst(in, mask)
		} else if in.Op == OpOr && a[0] == a[1] {
			return a[0]
		} else if in.Op == OpXor && a[0] == a[1] {
			toConst(in, 0)
		}
	case OpSub:
		if isC(1, 0) {
			return a[0]
		}
		if a[0] == a[1] {
			toConst(in, 0)
		}
	case OpAnd:
		if isC(1, mask) || a[0] == a[1] {
			return a[0]
		}
		if isC(0, mask) {
			return a[1]
		}
		if isC(0, 0) || isC(1, 0) {
			toConst(in, 0)
		}
	case OpMul:
		if isC(1, 1) {
			return a[0]
		}
		if isC(0, 1) {
			return a[1]
		}
		if isC(0, 0) || isC(1, 0) {
			toConst(in, 0)
		} else if k, ok := log2Const(a[1]); ok {
			fd.strength(in, OpShl, uint64(k))
		} else if k, ok := log2Const(a[0]); ok {
			// 2^k * x, as source writes an index (16 * g): the same
			// shift, the operands swapped first.
			in.Args[0], in.Args[1] = a[1], a[0]
			fd.strength(in, OpShl, uint64(k))
		}
	case OpDivU, OpRemU:
		// By a power of two: a shift or a mask (also what keeps index
		// arithmetic cheap once legalized).
		if k, ok := log2Const(a[1]); ok {
			if in.Op == OpDivU {
				fd.strength(in, OpShr, uint64(k))
			} else {
				fd.strength(in, OpAnd, 1<<uint(k)-1)
			}
		}
	case OpShl, OpShr, OpRotl, OpRotr:
		if s, ok := ConstOf(a[1]); ok && in.Op == OpShr && s < 64 && fd.maybeOnes(a[0], 4)>>s == 0 {
			// Every bit that could be set is shifted out: the high byte
			// of a masked index ((i & 15) * 4 >> 8) is zero.
			toConst(in, 0)
			return nil
		}
		if s, ok := ConstOf(a[1]); ok {
			n := uint64(t.Bits())
			if (in.Op == OpRotl || in.Op == OpRotr) && s%n == 0 || s == 0 {
				return a[0]
			}
			if (in.Op == OpShl || in.Op == OpShr) && s >= n {
				toConst(in, 0)
			}
		}
		if isC(0, 0) {
			toConst(in, 0)
		}
	case OpFshl, OpFshr:
		n, k := uint64(t.Bits()), in.Aux
		hi, lo := fd.maybeOnes(a[0], 4), fd.maybeOnes(a[1], 4)
		if k < n && (in.Op == OpFshl && (hi<<k)&mask == 0 && lo>>(n-k) == 0 ||
			in.Op == OpFshr && lo>>k == 0 && (hi<<(n-k))&mask == 0) {
			toConst(in, 0)
		}
	case OpNot:
		if d := a[0].Def; d != nil && d.Op == OpNot {
			return d.Args[0]
		}
	case OpEq, OpUle:
		if a[0] == a[1] {
			toConst(in, 1)
		}
	case OpNe, OpUlt:
		if a[0] == a[1] {
			toConst(in, 0)
		}
		if in.Op == OpUlt && isC(1, 0) {
			toConst(in, 0)
		}
	case OpZext:
		if a[0].Type == t {
			return a[0]
		}
	case OpTrunc:
		if a[0].Type == t {
			return a[0]
		}
		if d := a[0].Def; d != nil && d.Op == OpZext && d.Args[0].Type == t {
			return d.Args[0]
		}
	case OpSelect:
		if c, ok := ConstOf(a[0]); ok {
			if c != 0 {
				return a[1]
			}
			return a[2]
		}
		if a[1] == a[2] {
			return a[1]
		}
	}
	return nil
}

// log2Const reports k when v is the constant 2^k.
// maybeOnes returns a mask of the bits of v that can be set, looking
// through at most depth definitions (and with a constant, zext, or, xor,
// add, shifts by a constant, a loop index with a constant bound); the
// type's mask where it cannot tell.
func (fd *folder) maybeOnes(v *Value, depth int) uint64 {
	if c, ok := ConstOf(v); ok {
		return c
	}
	mask := v.Type.Mask()
	if m, ok := fd.bounds[v]; ok {
		return m
	}
	d := v.Def
	if d == nil || depth == 0 || len(d.Results) != 1 && (d.Op != OpAddC || v != d.Results[0]) {
		return mask
	}
	switch d.Op {
	case OpAdd, OpAddC:
		ms := []uint64{fd.maybeOnes(d.Args[0], depth-1), fd.maybeOnes(d.Args[1], depth-1)}
		if d.Op == OpAddC {
			ms = append(ms, fd.maybeOnes(d.Args[2], depth-1))
		}
		sum, ok := boundSum(mask, ms...)
		if !ok {
			return mask
		}
		m := uint64(0)
		for m < sum {
			m = m<<1 | 1
		}
		return m
	case OpAnd:
		return fd.maybeOnes(d.Args[0], depth-1) & fd.maybeOnes(d.Args[1], depth-1)
	case OpOr, OpXor:
		return (fd.maybeOnes(d.Args[0], depth-1) | fd.maybeOnes(d.Args[1], depth-1)) & mask
	case OpZext:
		return fd.maybeOnes(d.Args[0], depth-1) & mask
	case OpShr, OpShl:
		if s, ok := ConstOf(d.Args[1]); ok && s < 64 {
			if d.Op == OpShl {
				return fd.maybeOnes(d.Args[0], depth-1) << s & mask
			}
			return fd.maybeOnes(d.Args[0], depth-1) >> s
		}
	}
	return mask
}

// boundSum adds the largest values xs (masks of maybeOnes) and reports
// whether the sum stays within mask: no carry out.
func boundSum(mask uint64, xs ...uint64) (uint64, bool) {
	sum := uint64(0)
	for _, x := range xs {
		if x > mask || sum > mask-x {
			return mask, false
		}
		sum += x
	}
	return sum, true
}

func log2Const(v *Value) (int, bool) {
	c, ok := ConstOf(v)
	if !ok || c == 0 || c&(c-1) != 0 {
		return 0, false
	}
	k := 0
	for c > 1 {
		c >>= 1
		k++
	}
	return k, true
}

// strength turns `x op' 2^k` into `x op c` in place (a new constant c).
func (fd *folder) strength(in *Instr, op Op, c uint64) {
	in.Op = op
	in.Args = []*Value{in.Args[0], fd.newConst(in.Args[0].Type, c)}
}

// pair folds addc, subb and mulw; it reports whether in was replaced.
func (fd *folder) pair(in *Instr) bool {
	a := in.Args
	var c [3]uint64
	all := true
	for i, x := range a {
		v, ok := ConstOf(x)
		all = all && ok
		c[i] = v
	}
	t := in.Results[0].Type
	switch {
	case all:
		r0, r1 := eval2(in.Op, t, c[0], c[1], c[2])
		fd.sub[in.Results[0]] = fd.newConst(t, r0)
		fd.sub[in.Results[1]] = fd.newConst(in.Results[1].Type, r1)
	case in.Op == OpMulW && (isConst(a[0], 0) || isConst(a[1], 0)):
		z := fd.newConst(t, 0)
		fd.sub[in.Results[0]], fd.sub[in.Results[1]] = z, z
	case in.Op == OpMulW && (isConst(a[0], 1) || isConst(a[1], 1)):
		x := a[0]
		if isConst(a[0], 1) {
			x = a[1]
		}
		fd.sub[in.Results[0]], fd.sub[in.Results[1]] = x, fd.newConst(t, 0)
	case in.Op != OpMulW && isConst(a[2], 0) && isConst(a[1], 0):
		fd.sub[in.Results[0]], fd.sub[in.Results[1]] = a[0], a[2]
	case in.Op == OpAddC && isConst(a[2], 0) && isConst(a[0], 0):
		fd.sub[in.Results[0]], fd.sub[in.Results[1]] = a[1], a[2]
	case in.Op == OpSubB && isConst(a[0], 0) && isConst(a[1], 0) && fd.negBit[a[2]] != nil && fd.negBit[a[2]].Type == t:
		// A higher limb of 0 - b for a bit b: 0 - 0 - borrow is the
		// lowest limb again (all ones when b is 1), and so is the borrow.
		fd.sub[in.Results[0]], fd.sub[in.Results[1]] = fd.negBit[a[2]], a[2]
	default:
		if in.Op == OpSubB && isConst(a[0], 0) && isConst(a[2], 0) && isBit(a[1]) {
			// The lowest limb of 0 - b: its borrow is b.
			if fd.negBit == nil {
				fd.negBit = map[*Value]*Value{}
			}
			fd.negBit[in.Results[1]] = in.Results[0]
		}
		if in.Op == OpAddC {
			if _, ok := boundSum(t.Mask(), fd.maybeOnes(a[0], 4), fd.maybeOnes(a[1], 4), fd.maybeOnes(a[2], 4)); ok {
				// No carry out: an index's higher limbs then fold away.
				fd.sub[in.Results[1]] = fd.newConst(in.Results[1].Type, 0)
			}
		}
		return false
	}
	return true
}

// isBit reports whether v is 0 or 1 by its definition: x & 1.
func isBit(v *Value) bool {
	d := v.Def
	return d != nil && d.Op == OpAnd && (isConst(d.Args[0], 1) || isConst(d.Args[1], 1))
}

// builtin folds clmul and AES on constant (limb group) operands.
func (fd *folder) builtin(in *Instr) bool {
	n := fd.m.Limbs(U64)
	args := make([]uint64, len(in.Args)/n)
	for i := range args {
		v, ok := constGroup(in.Args[i*n:i*n+n], fd.m.W)
		if !ok {
			return false
		}
		args[i] = v
	}
	limbs := make([]uint64, n)
	for i, r := range evalBuiltin(in.Op, args) {
		if n == 1 {
			limbs[0] = r
		} else {
			splitLimbs(r, fd.m.W, limbs)
		}
		for j, res := range in.Results[i*n : i*n+n] {
			fd.sub[res] = fd.newConst(res.Type, limbs[j])
		}
	}
	return true
}

func (fd *folder) ifInstr(in *Instr) {
	for _, b := range in.Blocks {
		b.Instrs = fd.instrs(b.Instrs)
	}
	c, ok := ConstOf(in.Args[0])
	if !ok {
		fd.emit(in)
		return
	}
	taken := in.Blocks[1]
	if c != 0 {
		taken = in.Blocks[0]
	}
	fd.splice(taken, in.Results)
}

// splice moves a block's instructions (but its terminator) to the output
// and makes results stand for the values it yields.
func (fd *folder) splice(b *Block, results []*Value) {
	body := b.Instrs
	fd.out = append(fd.out, body[:len(body)-1]...)
	for i, r := range results {
		fd.sub[r] = body[len(body)-1].Args[i]
	}
}

func (fd *folder) forInstr(in *Instr) {
	body := in.Blocks[0]
	k := len(in.Results)
	n := len(body.Params) - k
	lo, ok1 := constGroup(in.Args[:n], fd.m.W)
	hi, ok2 := constGroup(in.Args[n:2*n], fd.m.W)
	if ok2 && hi > 0 && fd.m.W < 64 {
		// The index stays below hi: limb j has no bit above those of
		// (hi-1) >> (W*j).
		if fd.bounds == nil {
			fd.bounds = map[*Value]uint64{}
		}
		for j, p := range body.Params[:n] {
			top := (hi - 1) >> (uint(fd.m.W) * uint(j))
			m := uint64(0)
			for m < top {
				m = m<<1 | 1
			}
			fd.bounds[p] = m & p.Type.Mask()
		}
	}
	body.Instrs = fd.instrs(body.Instrs)
	switch {
	case ok1 && ok2 && hi <= lo:
		for i, r := range in.Results {
			fd.sub[r] = in.Args[2*n+i]
		}
	case ok1 && ok2 && hi == lo+1:
		// One trip: the body runs once with the index at lo. Its uses of
		// the parameters are rewritten by a second folding of the body.
		for i, p := range body.Params[:n] {
			fd.sub[p] = in.Args[i]
		}
		for i, p := range body.Params[n:] {
			fd.sub[p] = in.Args[2*n+i]
		}
		fd.out = append(fd.out, fd.instrs(body.Instrs[:len(body.Instrs)-1])...)
		y := body.Term()
		fd.sub.apply(y)
		for i, r := range in.Results {
			fd.sub[r] = y.Args[i]
		}
	default:
		fd.emit(in)
	}
}
