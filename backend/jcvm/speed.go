package jcvm

import (
	"math/rand"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

// Unrolling where it pays. The default unroll budget (sizeUnroll) is one
// figure for every loop of every module: below it SHA-512's 80 rounds and
// SHA-256's four groups of 16 stay loops, and a module well within
// sizeGoal leaves room that a larger budget for one function would turn
// into speed (SHA-256 fully unrolled: 27.9 ms per block against 35.0). A
// larger budget is not always faster on a card, though: a method past 255
// local cells spills its values to a transient array, and one past the
// piece size is split into methods passing their values. So growUnroll
// measures: it runs every export once in the simulator on a fixed
// workload and keeps a larger budget for a function only when the module
// stays within sizeGoal and the card's limits (a deeper stack, say) and
// the modeled time of the workload falls.

// growBudgets are the unroll budgets growUnroll tries for a function, in
// order; it stops at the first that makes the workload slower or the
// module too big.
var growBudgets = []int{600, 1200, 2400, 4800}

// workloadBytes is the length of every slice argument of the workload.
const workloadBytes = 256

// A larger budget is kept when it saves at least minGain of the
// workload's modeled time, and at least gainPerKB for each KB of bytecode
// it adds: ChaCha20's block at 1,200 saves 1.2 % for 7.6 KB more, and
// stays as it was.
const (
	minGain   = 0.01
	gainPerKB = 0.005
)

// growUnroll returns base, or the class of a plan that gives functions
// with loops left rolled a larger unroll budget, and then inlines the
// runtime's own callees (see above and inlineRuntime). io is base's plan.
func growUnroll(in *backend.Input, io ir.Options, opts backend.Options, base *Class) *Class {
	mod, err := in.Module(io)
	if err != nil {
		return base
	}
	card, err := cardOf(opts.Card)
	if err != nil {
		return base
	}
	w := newWorkload(base)
	ms, ok := w.cost(base)
	if !ok || len(w.calls) == 0 {
		return base
	}
	st, err := statsOf(base)
	if err != nil {
		return base
	}
	g := &grower{in: in, opts: opts, card: card, w: w, best: base, io: io, ms: ms, bytes: st.methodBytes}
	for _, name := range rolledLoopFuncs(mod) {
		lastBytes, lastMs := -1, g.ms
		for _, b := range growBudgets {
			if cur, ok := g.io.UnrollFunc[name]; ok && cur >= b || !ok && g.io.Unroll >= b {
				continue
			}
			trial := map[string]int{name: b}
			for k, v := range g.io.UnrollFunc {
				if k != name {
					trial[k] = v
				}
			}
			tio := g.io
			tio.UnrollFunc = trial
			kept, bytes, ms, ok := g.try(tio)
			if kept {
				lastBytes, lastMs = bytes, ms
				continue
			}
			if !ok {
				break
			}
			if bytes == lastBytes && ms == lastMs {
				continue // the budget changed nothing yet
			}
			if lastBytes < 0 && ms == g.ms {
				lastBytes, lastMs = bytes, ms
				continue
			}
			break
		}
	}
	g.inlineRuntime()
	return g.best
}

// grower is growUnroll's state: the best class so far, its plan, its
// workload time and bytes.
type grower struct {
	in    *backend.Input
	opts  backend.Options
	card  Card
	w     *workload
	best  *Class
	io    ir.Options
	ms    float64
	bytes int
}

// try compiles plan tio and keeps it when it fits and pays (minGain,
// gainPerKB). It returns whether it kept it, the class's bytes and
// workload time, and false as ok when the plan does not compile, fit or
// run.
func (g *grower) try(tio ir.Options) (kept bool, bytes int, ms float64, ok bool) {
	cls, err := compileClassIO(g.in, tio, g.opts)
	if err != nil {
		return false, 0, 0, false
	}
	st, err := statsOf(cls)
	if err != nil || st.methodBytes > sizeGoal || st.fits(cls, g.card) != nil {
		return false, 0, 0, false
	}
	ms, ok = g.w.cost(cls)
	if !ok {
		return false, 0, 0, false
	}
	need := max(minGain, gainPerKB*float64(st.methodBytes-g.bytes)/1024)
	if ms < g.ms*(1-need) {
		g.best, g.io, g.ms, g.bytes = cls, tio, ms, st.methodBytes
		return true, st.methodBytes, ms, true
	}
	return false, st.methodBytes, ms, true
}

// inlineRuntime tries the runtime (lwrt) with every call inlined into its
// exports: AES's sub_bytes, one method that rt_enc and rt_enclast call
// with the state's words and that returns them through carry, is about
// 1.5 KB once and costs a call and four carry reads a round (AES-CTR with
// int: 72.5 -> 65.1 ms per block). The runtime's functions are named in
// the plan's InlineFunc, which the runtime's plan inherits (runtimePlan).
func (g *grower) inlineRuntime() {
	rt, err := g.in.Runtime(runtimePlan(g.io))
	if err != nil {
		return
	}
	tio := g.io
	tio.InlineFunc = map[string]int{}
	for k, v := range g.io.InlineFunc {
		tio.InlineFunc[k] = v
	}
	n := 0
	for _, f := range rt.Funcs {
		if !f.Export && g.best.hasMethod("rt_"+jname(f.Name)) {
			tio.InlineFunc[f.QualName] = ir.InlineAll
			n++
		}
	}
	if n > 0 {
		g.try(tio)
	}
}

// rolledLoopFuncs names the functions of mod (by QualName, in the
// module's order) that keep a loop of a constant trip count rolled.
func rolledLoopFuncs(mod *ir.Module) []string {
	var names []string
	for _, f := range mod.Funcs {
		found := false
		ir.WalkInstrs(f.Body, func(in *ir.Instr) {
			if in.Op == ir.OpFor && constTrips(mod, in) > 1 {
				found = true
			}
		})
		if found {
			names = append(names, f.QualName)
		}
	}
	return names
}

// workload is one call of each export with fixed arguments: slices of
// workloadBytes elements, fixed arrays and words pseudo-random (words
// small: a word may be a count).
type workload struct {
	calls []workCall
}

type workCall struct {
	export string
	args   []sem.Value
}

func newWorkload(cls *Class) *workload {
	rng := rand.New(rand.NewSource(1))
	w := &workload{}
	for _, e := range cls.Exports {
		f := e.Fn.(*ir.Function)
		ok := true
		for _, r := range f.Sig.Results {
			if r.Array || r.Slice {
				ok = false
			}
		}
		var args []sem.Value
		for _, p := range f.Sig.Params {
			n := p.Len
			if p.Slice {
				n = workloadBytes
			}
			if !p.Array && !p.Slice {
				x := uint64(rng.Intn(4))
				if p.Type == ir.Bool {
					x &= 1
				}
				args = append(args, sem.Value{Word: x})
				continue
			}
			v := sem.Value{IsArray: true, Elems: make([]uint64, n)}
			for i := range v.Elems {
				v.Elems[i] = rng.Uint64() & p.Type.Mask()
			}
			args = append(args, v)
		}
		if ok {
			w.calls = append(w.calls, workCall{export: e.Name, args: args})
		}
	}
	// Keep the calls the class runs (a call may fail a requires).
	r := &Runner{cls: cls, sim: newSim(cls), card: Cards["jcop4"]}
	kept := w.calls[:0]
	for _, c := range w.calls {
		if _, _, err := r.call(c.export, sem.CopyValues(c.args)); err == nil {
			kept = append(kept, c)
		}
	}
	w.calls = kept
	return w
}

// cost is the modeled time of the workload on cls (jcop4, without the
// APDU); false if a call fails.
func (w *workload) cost(cls *Class) (float64, bool) {
	card := Cards["jcop4"]
	r := &Runner{cls: cls, sim: newSim(cls), card: card}
	ms := 0.0
	for _, c := range w.calls {
		_, counts, err := r.call(c.export, sem.CopyValues(c.args))
		if err != nil {
			return 0, false
		}
		ms += modeledMs(&counts, card) - card.APDUms
	}
	return ms, true
}
