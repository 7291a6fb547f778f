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
// with loops left rolled a larger unroll budget (see above). io is base's
// plan.
func growUnroll(in *backend.Input, io ir.Options, opts backend.Options, base *Class) *Class {
	mod, err := in.Module(io)
	if err != nil {
		return base
	}
	names := rolledLoopFuncs(mod)
	card, err := cardOf(opts.Card)
	if len(names) == 0 || err != nil {
		return base
	}
	w := newWorkload(base)
	bestMs, ok := w.cost(base)
	if !ok || len(w.calls) == 0 {
		return base
	}
	st, err := statsOf(base)
	if err != nil {
		return base
	}
	best, bestBytes, budgets := base, st.methodBytes, io.UnrollFunc
	for _, name := range names {
		lastBytes, lastMs := -1, bestMs
		for _, b := range growBudgets {
			if cur, ok := budgets[name]; ok && cur >= b || !ok && io.Unroll >= b {
				continue
			}
			trial := map[string]int{name: b}
			for k, v := range budgets {
				if k != name {
					trial[k] = v
				}
			}
			tio := io
			tio.UnrollFunc = trial
			cls, err := compileClassIO(in, tio, opts)
			if err != nil {
				break
			}
			st, err := statsOf(cls)
			if err != nil || st.methodBytes > sizeGoal || st.fits(cls, card) != nil {
				break
			}
			ms, ok := w.cost(cls)
			if !ok {
				break
			}
			need := max(minGain, gainPerKB*float64(st.methodBytes-bestBytes)/1024)
			if ms < bestMs*(1-need) {
				best, bestMs, bestBytes, budgets = cls, ms, st.methodBytes, trial
				lastBytes, lastMs = st.methodBytes, ms
				continue
			}
			if st.methodBytes == lastBytes && ms == lastMs {
				continue // the budget changed nothing yet
			}
			if lastBytes < 0 && ms == bestMs {
				lastBytes, lastMs = st.methodBytes, ms
				continue
			}
			break
		}
	}
	return best
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
		if _, _, err := r.call(c.export, copyArgs(c.args)); err == nil {
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
		_, counts, err := r.call(c.export, copyArgs(c.args))
		if err != nil {
			return 0, false
		}
		ms += modeledMs(&counts, card) - card.APDUms
	}
	return ms, true
}

func copyArgs(args []sem.Value) []sem.Value {
	out := make([]sem.Value, len(args))
	for i, a := range args {
		out[i] = a
		out[i].Elems = append([]uint64(nil), a.Elems...)
	}
	return out
}
