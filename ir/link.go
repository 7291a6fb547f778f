package ir

import (
	"fmt"

	"github.com/lowent/lowentc/sem"
)

// Link is a set of builtins a target computes with the runtime (package
// lwrt) linked into the program, instead of selecting them itself: pass
// features replaces each such builtin by a call of the runtime function
// that computes it, and the inlining policy then treats the call as any
// other.
type Link uint8

const (
	LinkAES   Link = 1 << iota // aes_enc, aes_enclast: the runtime's enc, enclast
	LinkClmul                  // clmul_lo, clmul_hi: the runtime's clmul
)

// runtimePrefix starts the names of the runtime's functions once linked
// into a program (a Lowent identifier cannot hold a dot).
const runtimePrefix = "lwrt."

// adoptRuntime moves the functions of rt (the lowered runtime, not yet
// optimized) into m, renamed and not exported, and returns them by their
// runtime names.
func adoptRuntime(m, rt *Module) (map[string]*Function, error) {
	if rt == nil {
		return nil, fmt.Errorf("BUG: Options.Link without Options.Runtime")
	}
	if len(rt.Globals) > 0 {
		return nil, fmt.Errorf("BUG: the runtime has constant tables")
	}
	fs := map[string]*Function{}
	for _, f := range rt.Funcs {
		fs[f.Name] = f
		f.Name = runtimePrefix + f.Name
		f.QualName = f.Name
		f.Export = false
		m.Funcs = append(m.Funcs, f)
	}
	rt.Funcs = nil
	return fs, nil
}

// linkBuiltin replaces the builtin in by a call of the runtime function
// that computes it, when the plan links it and the target does not run it
// directly; with KeepHave, by `if have F { builtin } else { call }`. It
// returns nil to keep in.
func linkBuiltin(nb *Builder, in *Instr, o *Options, rt map[string]*Function) []*Value {
	var name string
	var feat sem.Feature
	switch {
	case (in.Op == OpAESEnc || in.Op == OpAESEncLast) && o.Link&LinkAES != 0:
		name, feat = "enc", sem.FeatAES
		if in.Op == OpAESEncLast {
			name = "enclast"
		}
	case (in.Op == OpClmulLo || in.Op == OpClmulHi) && o.Link&LinkClmul != 0:
		name, feat = "clmul", sem.FeatPCLMUL
	default:
		return nil
	}
	if o.Features.Has(feat) && !o.KeepHave {
		return nil
	}
	f := rt[name]
	if f == nil {
		panic("BUG: the runtime has no function " + name)
	}
	call := func(b *Builder) []*Value {
		args := make([]CallArg, len(in.Args))
		for i, a := range in.Args {
			args[i] = CallArg{Val: a}
		}
		rs := b.Call(f, args)
		switch in.Op {
		case OpClmulLo:
			return rs[:1]
		case OpClmulHi:
			return rs[1:]
		}
		return rs
	}
	if !o.KeepHave {
		return call(nb)
	}
	have := nb.Instr(OpHave, []Type{Bool})
	have.Aux = uint64(feat)
	types := make([]Type, len(in.Results))
	for i, r := range in.Results {
		types[i] = r.Type
	}
	return nb.If(have.Results[0], types, func(t *Builder) []*Value {
		return t.Instr(in.Op, types, in.Args...).Results
	}, call)
}
