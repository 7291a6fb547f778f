// Package middle runs lowentc's middle end for the backends: given a
// checked program and a target, it builds the backend.Input the target
// compiles from. Each distinct plan (ir.Options) the target asks for is
// lowered and run through the IR pipeline once, verified, and its -d dump
// text kept; once the target is done, only the dumps of the plans whose
// modules it used are written, so that each function is printed once.
// --emit ir, for every target, is the text of those modules.
package middle

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/driver"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
	"github.com/lowent/lowentc/lwrt"
)

// Session is one program compiled for one target.
type Session struct {
	p         *lang.Program
	t         *backend.Target
	dumpAfter string

	mu      sync.Mutex
	plans   map[string]*plan // by planKey
	order   []*plan          // in the order first compiled
	rt      map[string]*plan // the runtime's, by planKey
	rtProg  *lang.Program
	rtErr   error
	rtOnce  sync.Once
	handed  map[*ir.Module]*plan // every copy handed out, to its plan
	input   *backend.Input
	lowered error // the lowering's error, if any (Module returns it too)
}

// plan is one ir.Options compiled once.
type plan struct {
	m    *ir.Module
	err  error
	dump bytes.Buffer
}

// New builds the session of program p for target t; opts.DumpAfter is the
// -d dump the user asked for.
func New(p *lang.Program, t *backend.Target, opts backend.Options) *Session {
	s := &Session{p: p, t: t, dumpAfter: opts.DumpAfter, plans: map[string]*plan{}, rt: map[string]*plan{}, handed: map[*ir.Module]*plan{}}
	in := &backend.Input{Module: s.module, Runtime: s.runtime}
	in.Exports, s.lowered = exports(p)
	in.Arrays = arrays(p)
	in.Chains = chains(p)
	s.input = in
	return s
}

// Input is what the target compiles from.
func (s *Session) Input() *backend.Input { return s.input }

// planKey identifies a plan: every option but the dump's.
func planKey(o ir.Options) string {
	o.Dump, o.DumpAfter, o.Runtime = nil, "", nil
	return fmt.Sprintf("%#v", o)
}

// module is Input.Module.
func (s *Session) module(o ir.Options) (*ir.Module, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lowered != nil {
		return nil, s.lowered
	}
	key := planKey(o)
	pl, ok := s.plans[key]
	if !ok {
		pl = &plan{}
		o.Dump, o.DumpAfter = nil, ""
		if s.dumpAfter != "" {
			o.Dump, o.DumpAfter = &pl.dump, s.dumpAfter
		}
		if o.Link != 0 {
			o.Runtime, pl.err = linkedRuntime()
		}
		if pl.err == nil {
			pl.m, pl.err = lower.Compile(s.p, o)
		}
		s.plans[key] = pl
		s.order = append(s.order, pl)
	}
	if pl.err != nil {
		return nil, pl.err
	}
	cp := pl.m.Clone()
	s.handed[cp] = pl
	return cp, nil
}

// runtime is Input.Runtime: the target's runtime source, compiled with o
// (without dumps: -d dump shows the user's program).
func (s *Session) runtime(o ir.Options) (*ir.Module, error) {
	if s.t == nil || s.t.Runtime == nil {
		return nil, fmt.Errorf("BUG: target has no runtime")
	}
	s.rtOnce.Do(func() {
		var ds lang.Diags
		s.rtProg, ds = driver.LoadSource(s.t.Runtime.Name, s.t.Runtime.Text)
		if len(ds) > 0 {
			s.rtErr = fmt.Errorf("BUG: %s runtime does not compile: %v", s.t.Name, ds)
		}
	})
	if s.rtErr != nil {
		return nil, s.rtErr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	key := planKey(o)
	pl, ok := s.rt[key]
	if !ok {
		pl = &plan{}
		o.Dump, o.DumpAfter = nil, ""
		pl.m, pl.err = lower.Compile(s.rtProg, o)
		if pl.err != nil {
			pl.err = fmt.Errorf("BUG: %s runtime: %v", s.t.Name, pl.err)
		}
		s.rt[key] = pl
	}
	if pl.err != nil {
		return nil, pl.err
	}
	return pl.m.Clone(), nil
}

// The runtime linked into programs (ir.Options.Link), loaded once.
var (
	lwrtOnce sync.Once
	lwrtProg *lang.Program
	lwrtErr  error
)

// linkedRuntime returns a fresh lowering of the runtime (package lwrt)
// for pass features to move into a program's module.
func linkedRuntime() (*ir.Module, error) {
	lwrtOnce.Do(func() {
		var ds lang.Diags
		lwrtProg, ds = driver.LoadSource(lwrt.Name, lwrt.Source())
		if len(ds) > 0 {
			lwrtErr = fmt.Errorf("BUG: the runtime does not compile: %v", ds)
		}
	})
	if lwrtErr != nil {
		return nil, lwrtErr
	}
	m, err := lower.Program(lwrtProg)
	if err != nil {
		return nil, fmt.Errorf("BUG: the runtime: %v", err)
	}
	return m, nil
}

// used returns the plans of the modules the target used, in the order it
// used them; when it used none (it failed first), the last plan compiled.
func (s *Session) used() []*plan {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ps []*plan
	seen := map[*plan]bool{}
	for _, m := range s.input.Used() {
		if pl := s.handed[m]; pl != nil && !seen[pl] {
			seen[pl] = true
			ps = append(ps, pl)
		}
	}
	if len(ps) == 0 && len(s.order) > 0 {
		ps = append(ps, s.order[len(s.order)-1])
	}
	return ps
}

// WriteDumps writes the -d dump of the plans the target used to w.
func (s *Session) WriteDumps(w io.Writer) {
	if s.dumpAfter == "" || w == nil {
		return
	}
	for _, pl := range s.used() {
		w.Write(pl.dump.Bytes())
	}
}

// IR is the text of the modules the target used (--emit ir), as the
// pipeline left them.
func (s *Session) IR() []byte {
	var b bytes.Buffer
	for i, pl := range s.used() {
		if pl.m == nil {
			continue
		}
		if i > 0 {
			b.WriteString("\n")
		}
		pl.m.Print(&b)
	}
	return b.Bytes()
}

// Compile produces the artifact opts.Emit of p for target t, and writes
// the -d dump opts asks for to opts.Dump. --emit ir compiles the target's
// default artifact and answers the IR it was generated from.
func Compile(t *backend.Target, p *lang.Program, opts backend.Options) ([]byte, error) {
	return New(p, t, opts).Compile(opts)
}

// Compile is the package's Compile on the session's program and target.
func (s *Session) Compile(opts backend.Options) ([]byte, error) {
	emit := opts.Emit
	if emit == "" || emit == "ir" {
		opts.Emit = s.t.Emits[0]
	}
	data, err := s.t.Compile(s.Input(), opts)
	s.WriteDumps(opts.Dump)
	if err != nil {
		return nil, err
	}
	if emit == "ir" {
		return s.IR(), nil
	}
	return data, nil
}

// Prepare compiles p for target t and returns a runner for its exports,
// writing the -d dump opts asks for to opts.Dump.
func Prepare(t *backend.Target, p *lang.Program, opts backend.Options) (backend.Runner, error) {
	return New(p, t, opts).Prepare(opts)
}

// Prepare is the package's Prepare on the session's program and target.
func (s *Session) Prepare(opts backend.Options) (backend.Runner, error) {
	r, err := s.t.Prepare(s.Input(), opts)
	s.WriteDumps(opts.Dump)
	return r, err
}

// IR compiles p with plan o for the targets without a backend (the IR
// interpreter's): the middle end in one place for every target.
func IR(p *lang.Program, o ir.Options) (*ir.Module, error) { return lower.Compile(p, o) }

// Emits are the artifact kinds of t: its own and ir.
func Emits(t *backend.Target) []string {
	return append(append([]string(nil), t.Emits...), "ir")
}

// exports are p's exports with their signatures, read off the lowered
// program.
func exports(p *lang.Program) (es []backend.Export, err error) {
	defer func() {
		if r := recover(); r != nil {
			es, err = nil, fmt.Errorf("internal compiler error: %v", r)
		}
	}()
	m, err := lower.Program(p)
	if err != nil {
		return nil, err
	}
	for _, f := range p.Exports() {
		e := backend.Export{Name: f.Name, Pos: f.Pos}
		if irf := m.Func(f.Name); irf != nil {
			e.Sig = irf.Sig
		}
		for _, prm := range f.Params {
			_, nested := lang.ElemOf(prm.Type).(*lang.ArrayType)
			e.Nested = append(e.Nested, nested)
		}
		es = append(es, e)
	}
	return es, nil
}

// arrays lists every array p declares: constants, results, parameters and
// locals, in source order.
func arrays(p *lang.Program) []backend.ArrayDecl {
	var as []backend.ArrayDecl
	add := func(pos lang.Pos, what, name string, t lang.Type) {
		a, ok := t.(*lang.ArrayType)
		if !ok {
			return
		}
		as = append(as, backend.ArrayDecl{Pos: pos, What: what, Name: name, Elem: irType(lang.LeafType(a)), Len: int64(lang.FlatLen(a))})
	}
	for _, f := range p.Files {
		for _, c := range f.Consts {
			add(c.Pos, "constant", c.Name, c.Type)
		}
		for _, fn := range f.Funcs {
			for i, r := range fn.ResultTypes {
				add(fn.Results[i].Pos, "result of", fn.Name, r)
			}
			for _, sym := range fn.Locals {
				switch sym.Kind {
				case lang.SymLocal:
					add(sym.Pos, "local array", sym.Name, sym.Type)
				case lang.SymParam:
					add(sym.Pos, "parameter", sym.Name, sym.Type)
				}
			}
		}
	}
	return as
}

// irType is the IR type of a scalar source type.
func irType(t lang.Type) ir.Type {
	if w, ok := t.(*lang.WordType); ok {
		return ir.WordType(w.Bits)
	}
	return ir.Bool
}

// chains are the local array chains of p's exports.
func chains(p *lang.Program) []backend.ArrayChain {
	var cs []backend.ArrayChain
	for _, f := range p.Exports() {
		c := lang.LocalArrayChain(f, lang.ArrayBytes)
		ac := backend.ArrayChain{Export: f.Name, Bytes: c.Bytes, Where: c.Describe("bytes")}
		if c.Largest.Sym != nil {
			ac.Pos = c.Largest.Sym.Pos
		}
		cs = append(cs, ac)
	}
	return cs
}
