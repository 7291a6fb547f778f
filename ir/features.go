// Pass features settles the program's hardware questions for the target.
// `have F` becomes the constant Options.Features.Has(F), and a SHA-256
// builtin stays an instruction only where the target runs it directly
// (Options.Features has sha and the IR stays at W=64 or unlegalized);
// everywhere else it is expanded into the u32 arithmetic it stands for.
// With Options.KeepHave (a backend that compiles one variant per CPU
// level) `have` stays, and each SHA-256 builtin becomes
// `if have sha { builtin } else { arithmetic }`, which the backend
// settles per variant. The AES and clmul builtins the plan links
// (Options.Link) become calls of the runtime's functions, which the pass
// first moves into the module (see link.go).
//
// Requires: nothing (it runs first). Preserves: the meaning for a machine
// with exactly Options.Features.
package ir

import (
	"fmt"

	"github.com/lowent/lowentc/sem"
)

func features(m *Module, o *Options) error {
	native := o.Features.Has(sem.FeatSHA) && (o.W == 0 || o.W == 64)
	var rt map[string]*Function
	if o.Link != 0 {
		var err error
		if rt, err = adoptRuntime(m, o.Runtime); err != nil {
			return err
		}
	}
	rewrite(m, func(nb *Builder, in *Instr) []*Value {
		if rt != nil {
			if vs := linkBuiltin(nb, in, o, rt); vs != nil {
				return vs
			}
		}
		switch {
		case in.Op == OpHave && !o.KeepHave:
			return []*Value{nb.Const(Bool, b2u(o.Features.Has(sem.Feature(in.Aux))))}
		case in.Op == OpIf && !o.KeepHave:
			// A branch on a settled `have` is gone before inline counts
			// call sites: the calls in the branch not taken must not
			// make a callee look shared (aes.lw's ctr16 on a target
			// without AES made rounds8 a method of its own on Java Card).
			if c, ok := ConstOf(in.Args[0]); ok {
				taken := in.Blocks[1]
				if c != 0 {
					taken = in.Blocks[0]
				}
				body := taken.Instrs
				nb.Blk.Instrs = append(nb.Blk.Instrs, body[:len(body)-1]...)
				return append([]*Value{}, body[len(body)-1].Args...)
			}
		case isSHA(in.Op) && o.KeepHave:
			have := nb.Instr(OpHave, []Type{Bool})
			have.Aux = uint64(sem.FeatSHA)
			u32s := []Type{U32, U32, U32, U32}
			return nb.If(have.Results[0], u32s, func(t *Builder) []*Value {
				return t.Instr(in.Op, u32s, in.Args...).Results
			}, func(e *Builder) []*Value {
				return expandSHA(e, in.Op, in.Args)
			})
		case isSHA(in.Op) && !native:
			return expandSHA(nb, in.Op, in.Args)
		}
		return nil
	})
	return nil
}

func isSHA(op Op) bool { return op == OpSHA256Rnds2 || op == OpSHA256Msg1 || op == OpSHA256Msg2 }

// expandSHA emits the arithmetic of a SHA-256 builtin (lang/sha.go) and
// returns its four lanes.
func expandSHA(b *Builder, op Op, a []*Value) []*Value {
	k := func(c uint64) *Value { return b.Const(U32, c) }
	rotr := func(x *Value, n uint64) *Value { return b.Bin(OpRotr, x, k(n)) }
	sigma := func(x *Value, r1, r2, r3 uint64, shift bool) *Value {
		y := b.Xor(rotr(x, r1), rotr(x, r2))
		if shift {
			return b.Xor(y, b.Shr(x, k(r3)))
		}
		return b.Xor(y, rotr(x, r3))
	}
	switch op {
	case OpSHA256Rnds2:
		h, g, d, c := a[0], a[1], a[2], a[3]
		f, e, bb, aa := a[4], a[5], a[6], a[7]
		for _, wk := range a[8:10] {
			ch := b.Xor(g, b.And(e, b.Xor(f, g)))
			t1 := b.Add(b.Add(b.Add(h, sigma(e, 6, 11, 25, false)), ch), wk)
			maj := b.Xor(bb, b.And(b.Xor(aa, bb), b.Xor(bb, c)))
			t2 := b.Add(sigma(aa, 2, 13, 22, false), maj)
			h, g, f, e = g, f, e, b.Add(d, t1)
			d, c, bb, aa = c, bb, aa, b.Add(t1, t2)
		}
		return []*Value{f, e, bb, aa}
	case OpSHA256Msg1:
		next := []*Value{a[1], a[2], a[3], a[4]}
		r := make([]*Value, 4)
		for i := range r {
			r[i] = b.Add(a[i], sigma(next[i], 7, 18, 3, true))
		}
		return r
	case OpSHA256Msg2:
		r := make([]*Value, 4)
		r[0] = b.Add(a[0], sigma(a[6], 17, 19, 10, true))
		r[1] = b.Add(a[1], sigma(a[7], 17, 19, 10, true))
		r[2] = b.Add(a[2], sigma(r[0], 17, 19, 10, true))
		r[3] = b.Add(a[3], sigma(r[1], 17, 19, 10, true))
		return r
	}
	panic(fmt.Sprintf("BUG: expandSHA of %s", op))
}

// SHA256Op is the op of a SHA-256 builtin (OpInvalid for any other builtin).
func SHA256Op(id sem.BuiltinID) Op { return shaOps[id] }

// shaOps maps the SHA-256 builtins to their ops, and shaBuiltin back.
var (
	shaOps     = map[sem.BuiltinID]Op{sem.BSHA256Rnds2: OpSHA256Rnds2, sem.BSHA256Msg1: OpSHA256Msg1, sem.BSHA256Msg2: OpSHA256Msg2}
	shaBuiltin = func() map[Op]sem.BuiltinID {
		m := map[Op]sem.BuiltinID{}
		for b, op := range shaOps {
			m[op] = b
		}
		return m
	}()
)
