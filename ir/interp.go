package ir

import (
	"fmt"

	"github.com/lowent/lowentc/sem"
)

// The interpreter runs IR at any stage: before and after inlining, with
// memory cells or SSA values, and legalized at any W (limb groups are joined
// and split as the op's definition says). It is the reference every pass is
// tested against.

// Trap is the error a failed check produces: the program stopped at Pos.
type Trap struct {
	Kind CheckKind
	Pos  sem.Pos
	Msg  string
}

func (t *Trap) Error() string { return t.Pos.String() + ": trap: " + t.Msg }

// Trapped says the error is a failed run-time check (tools that cannot
// import this package recognise traps by this method).
func (t *Trap) Trapped() {}

type interp struct {
	m *Module
	w int // limb width (0: none)
}

type frame struct {
	in   *interp
	f    *Function
	vals []uint64
	arrs [][]uint64
}

// group joins the limb group vs into one word.
func (fr *frame) group(vs []*Value) uint64 {
	if len(vs) == 1 {
		return fr.vals[vs[0].ID]
	}
	var x uint64
	for i, v := range vs {
		x |= fr.vals[v.ID] << uint(i*fr.in.w)
	}
	return x
}

// setGroup splits x into the limb group vs.
func (fr *frame) setGroup(vs []*Value, x uint64) {
	if len(vs) == 1 {
		fr.vals[vs[0].ID] = x & vs[0].Type.Mask()
		return
	}
	m := WordType(fr.in.w).Mask()
	for i, v := range vs {
		fr.vals[v.ID] = x >> uint(i*fr.in.w) & m
	}
}

func (fr *frame) arr(a *Array) []uint64 {
	if a.Kind == ArrGlobal {
		return a.Data
	}
	return fr.arrs[a.index]
}

// call runs f with scalar parameter values and array parameter storage.
func (it *interp) call(f *Function, scalars []uint64, arrays [][]uint64) ([]uint64, error) {
	fr := &frame{in: it, f: f, vals: make([]uint64, f.nextID)}
	si, ai := 0, 0
	for _, p := range f.Params {
		if p.Val != nil {
			fr.vals[p.Val.ID] = scalars[si] & p.Val.Type.Mask()
			si++
		} else {
			ai++
		}
	}
	fr.arrs = make([][]uint64, ai+len(f.Locals))
	copy(fr.arrs, arrays)
	for i, a := range f.Locals {
		fr.arrs[ai+i] = make([]uint64, a.Len)
	}
	term, err := fr.exec(f.Body)
	if err != nil {
		return nil, err
	}
	out := make([]uint64, len(term.Args))
	for i, v := range term.Args {
		out[i] = fr.vals[v.ID]
	}
	return out, nil
}

func (fr *frame) bug(in *Instr, format string, args ...any) error {
	return fmt.Errorf("%s: BUG: ir interpreter: %s: %s: %s", in.Pos, fr.f.Name, in.Op, fmt.Sprintf(format, args...))
}

// oob reports an access outside its array: an unchecked_get/set out of
// range (the program's fault, as the VM also reports), or a compiler bug.
func (fr *frame) oob(in *Instr, format string, args ...any) error {
	return fmt.Errorf("%s: out-of-range access in %s (unchecked, or a compiler bug): %s", in.Pos, fr.f.Name, fmt.Sprintf(format, args...))
}

// exec runs a block and returns its terminator.
func (fr *frame) exec(b *Block) (*Instr, error) {
	vals := fr.vals
	for _, in := range b.Instrs {
		switch op := in.Op; op {
		case OpConst:
			vals[in.Results[0].ID] = in.Aux
		case OpYield, OpReturn:
			return in, nil
		case OpAddC, OpSubB, OpMulW:
			c := uint64(0)
			if op != OpMulW {
				c = vals[in.Args[2].ID]
			}
			r0, r1 := eval2(op, in.Args[0].Type, vals[in.Args[0].ID], vals[in.Args[1].ID], c)
			vals[in.Results[0].ID], vals[in.Results[1].ID] = r0, r1
		case OpSHA256Rnds2, OpSHA256Msg1, OpSHA256Msg2:
			args := make([]uint64, len(in.Args))
			for i, a := range in.Args {
				args[i] = vals[a.ID]
			}
			for i, r := range evalBuiltin(op, args) {
				vals[in.Results[i].ID] = r
			}
		case OpHave:
			// The interpreter is a machine without any of the features.
			vals[in.Results[0].ID] = 0
		case OpClmulLo, OpClmulHi, OpAESEnc, OpAESEncLast:
			n := fr.in.m.Limbs(U64)
			args := make([]uint64, len(in.Args)/n)
			for i := range args {
				args[i] = fr.group(in.Args[i*n : i*n+n])
			}
			for i, r := range evalBuiltin(op, args) {
				fr.setGroup(in.Results[i*n:i*n+n], r)
			}
		case OpLoad:
			a := fr.arr(in.Arr)
			i := fr.group(in.Args)
			if i >= uint64(len(a)) {
				return nil, fr.oob(in, "index %d out of range of %s (%d)", i, in.Arr.Name, len(a))
			}
			vals[in.Results[0].ID] = a[i]
		case OpStore:
			a := fr.arr(in.Arr)
			n := len(in.Args) - 1
			i := fr.group(in.Args[:n])
			if i >= uint64(len(a)) {
				return nil, fr.oob(in, "index %d out of range of %s (%d)", i, in.Arr.Name, len(a))
			}
			a[i] = vals[in.Args[n].ID]
		case OpLen:
			fr.setGroup(in.Results, uint64(len(fr.arr(in.Arr))/in.Arr.Per))
		case OpLoadLE, OpLoadBE, OpStoreLE, OpStoreBE:
			if err := fr.byteOrder(in); err != nil {
				return nil, err
			}
		case OpCheck:
			if vals[in.Args[0].ID] == 0 {
				return nil, in.Check.Err()
			}
		case OpCall:
			if err := fr.callInstr(in); err != nil {
				return nil, err
			}
		case OpTrace:
		case OpIf:
			blk := in.Blocks[1]
			if vals[in.Args[0].ID] != 0 {
				blk = in.Blocks[0]
			}
			t, err := fr.exec(blk)
			if err != nil {
				return nil, err
			}
			for i, r := range in.Results {
				vals[r.ID] = vals[t.Args[i].ID]
			}
		case OpFor:
			if err := fr.loop(in); err != nil {
				return nil, err
			}
		default:
			if !op.IsPure() || len(in.Results) != 1 {
				return nil, fr.bug(in, "cannot run")
			}
			var x, y, z uint64
			at := TInvalid
			if len(in.Args) > 0 {
				x, at = vals[in.Args[0].ID], in.Args[0].Type
			}
			if len(in.Args) > 1 {
				y = vals[in.Args[1].ID]
			}
			if len(in.Args) > 2 {
				z = vals[in.Args[2].ID]
			}
			vals[in.Results[0].ID] = eval1(op, in.Results[0].Type, at, in.Aux, x, y, z)
		}
	}
	return nil, fmt.Errorf("BUG: ir interpreter: %s: block without terminator", fr.f.Name)
}

func (fr *frame) loop(in *Instr) error {
	body := in.Blocks[0]
	k := len(in.Results)
	n := len(body.Params) - k
	lo, hi := fr.group(in.Args[:n]), fr.group(in.Args[n:2*n])
	idx, iters := body.Params[:n], body.Params[n:]
	for i, v := range iters {
		fr.vals[v.ID] = fr.vals[in.Args[2*n+i].ID]
	}
	for i := lo; i < hi; i++ {
		fr.setGroup(idx, i)
		t, err := fr.exec(body)
		if err != nil {
			return err
		}
		// Read every yielded value before writing any parameter: a yield
		// may pass one loop-carried value into another's place.
		next := make([]uint64, k)
		for j, v := range t.Args {
			next[j] = fr.vals[v.ID]
		}
		for j, v := range iters {
			fr.vals[v.ID] = next[j]
		}
	}
	for i, r := range in.Results {
		fr.vals[r.ID] = fr.vals[iters[i].ID]
	}
	return nil
}

func (fr *frame) byteOrder(in *Instr) error {
	a := fr.arr(in.Arr)
	nb := int(in.Aux / 8)
	store := in.Op == OpStoreLE || in.Op == OpStoreBE
	offArgs := in.Args
	if store {
		offArgs = in.Args[:len(in.Args)-1]
	}
	off := fr.group(offArgs)
	if off > uint64(len(a)) || uint64(len(a))-off < uint64(nb) {
		return fr.oob(in, "bytes %d..%d out of range of %s (%d)", off, off+uint64(nb), in.Arr.Name, len(a))
	}
	big := in.Op == OpLoadBE || in.Op == OpStoreBE
	shift := func(i int) uint {
		if big {
			return uint(8 * (nb - 1 - i))
		}
		return uint(8 * i)
	}
	if store {
		v := fr.vals[in.Args[len(in.Args)-1].ID]
		for i := 0; i < nb; i++ {
			a[off+uint64(i)] = v >> shift(i) & 0xff
		}
		return nil
	}
	var v uint64
	for i := 0; i < nb; i++ {
		v |= a[off+uint64(i)] << shift(i)
	}
	fr.vals[in.Results[0].ID] = v
	return nil
}

// callInstr runs a call. After legalization a scalar argument is one limb
// per limb parameter of the callee, and a region's offset and length are
// limb groups counting source elements (Per limbs each).
func (fr *frame) callInstr(in *Instr) error {
	c := in.Callee
	k := fr.in.m.Limbs(IndexType)
	ns := len(in.Args) - 2*k*len(in.Arrs)
	scalars := make([]uint64, ns)
	for i := range scalars {
		scalars[i] = fr.vals[in.Args[i].ID]
	}
	arrays := make([][]uint64, len(in.Arrs))
	for i, a := range in.Arrs {
		st := fr.arr(a)
		at := ns + 2*k*i
		off := fr.group(in.Args[at:at+k]) * uint64(a.Per)
		n := fr.group(in.Args[at+k:at+2*k]) * uint64(a.Per)
		if off > uint64(len(st)) || uint64(len(st))-off < n {
			return fr.oob(in, "region [%d, +%d) out of range of %s (%d)", off, n, a.Name, len(st))
		}
		arrays[i] = st[off : off+n : off+n]
	}
	out, err := fr.in.call(c, scalars, arrays)
	if err != nil {
		return err
	}
	for i, r := range in.Results {
		fr.vals[r.ID] = out[i]
	}
	return nil
}
