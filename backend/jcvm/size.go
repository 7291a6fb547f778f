package jcvm

import (
	"sort"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/ir"
)

// Code size is a goal of this backend as much as speed: a JCOP4 card takes
// one compact CAP file per package, whose Method component holds at most
// 65,535 bytes, and the standard library's modules must fit it with room
// to spare. The default layout (--storage auto) therefore asks the IR
// pipeline for two budgets instead of inlining and unrolling everything:
//
//   - sizeInline: a function whose optimized, legalized body has more IR
//     instructions stays a call, to a static method that every export of
//     the module shares (lower_call.go), unless it has a single call site.
//     BLAKE2b's compression (called from three places in two exports)
//     is one method; byte swaps and small helpers are inlined.
//   - sizeUnroll: a loop is unrolled fully only when trips × body stays
//     within this many instructions (counted before legalization, so at
//     both widths). BLAKE2b's 12 rounds stay a loop (stdlib/blake2b.lw
//     keeps its message words in variables, reordered between rounds by
//     constant permutations), and so do AES's rounds over eight blocks
//     and SHA-256's four groups of 16 rounds.
//
// Measured (jcop4; bytes of bytecode, ms per block by `bench --block`;
// before rt_carry, which took aes and gcm to 20,659 and 33,911 bytes with
// int):
//
//	unroll  blake2b          sha256           aes (ctr)        gcm (seal)
//	1000    13,275 94.1 ms   7,113 35.7 ms    43,544 70.0 ms   70,139 125.5 ms  (int)
//	         17,869 259.8 ms  18,110 169.5 ms  45,911 76.3 ms   63,167 231.8 ms  (--no-int)
//	500     13,275 94.1 ms   14,353 27.9 ms   30,040 70.0 ms   70,139 125.5 ms
//	         17,869 259.8 ms  48,419 140.0 ms  31,192 76.2 ms   63,167 231.8 ms
//	300     12,151 94.1 ms   4,996 77.5 ms    24,040 76.1 ms   45,667 125.5 ms
//	         17,086 259.8 ms  6,975 202.6 ms   22,456 81.4 ms   44,186 231.8 ms
//
// 300 is the largest budget at which every module fits the Method
// component at both widths (gcm does not at 500). SHA-256's 16-round
// groups unroll from about 480; stdlib/sha256.lw runs each group as two
// loops of eight rounds (and its schedule likewise), which unroll at 300,
// so that its schedule words stay in variables: 6,126 bytes and 35.0 ms
// with int, 16,767 bytes and 167.3 ms without (the table's 300 row is
// before that change).
//
// The budgets are where the default layout starts; fitSize (below) then
// fits the module to sizeGoal, inlines round functions updating a state
// (inlineRoundCalls) and unrolls further where the simulator measures a
// gain (growUnroll, speed.go). The table above is of the budgets alone.
//
// The forced layouts (locals, arrays, pairs) reproduce the calibration's
// variants and keep inlining everything.
const (
	sizeInline = 200
	sizeUnroll = 300
)

// sizeGoal is the bytecode a module of the default layout should take at
// most: half the compact CAP's Method component, the room to spare asked
// of every standard module (issue 11).
const sizeGoal = 32 << 10

// minUnroll is the smallest per-function unroll budget fitSize tries.
const minUnroll = 8

// fitSize compiles the default layout. A module within sizeGoal gets its
// round functions inlined (inlineRoundCalls) and larger unroll budgets
// where they pay (growUnroll). While the module's bytecode is over
// sizeGoal, fitSize halves the unroll budget of the function whose methods
// (with the pieces split made of them) take the most bytes, down to
// minUnroll, then of the next largest, and so on: the largest unrolled
// loops of the largest function roll first. The budgets are the IR's
// per-function ones (ir.Options.UnrollFunc), so a loop inlined from a
// callee rolls in the function it was inlined into. A module still over
// sizeGoal then keeps functions out of line that the IR's budget inlined
// (outlineCallees). It returns the smallest class found.
func fitSize(in *backend.Input, io ir.Options, opts backend.Options) (*Class, error) {
	best, err := compileClassIO(in, io, opts)
	if err != nil {
		return best, err
	}
	st, err := statsOf(best)
	if err != nil {
		return best, err
	}
	bestBytes := st.methodBytes
	if bestBytes <= sizeGoal {
		if cls, tio, ok := inlineRoundCalls(in, io, opts); ok {
			best, io = cls, tio
		}
		return growUnroll(in, io, opts, best), nil
	}
	bestIO := io
	budgets := map[string]int{}
	done := map[string]bool{}
	for bestBytes > sizeGoal {
		bytes := map[string]int{}
		for _, m := range best.Methods {
			if m.fn != nil {
				bytes[m.fn.QualName] += m.Size
			}
		}
		f := ""
		for name, n := range bytes {
			if !done[name] && (f == "" || n > bytes[f] || n == bytes[f] && name < f) {
				f = name
			}
		}
		if f == "" {
			break
		}
		b, ok := budgets[f]
		if !ok {
			b = io.Unroll
		}
		if b /= 2; b < minUnroll {
			done[f] = true
			continue
		}
		trial := map[string]int{f: b}
		for name, x := range budgets {
			if name != f {
				trial[name] = x
			}
		}
		tio := io
		tio.UnrollFunc = trial
		cls, err := compileClassIO(in, tio, opts)
		if err != nil {
			done[f] = true
			continue
		}
		s, err := statsOf(cls)
		if err != nil {
			done[f] = true
			continue
		}
		budgets = trial
		if s.methodBytes < bestBytes {
			best, bestBytes, bestIO = cls, s.methodBytes, tio
		}
	}
	if bestBytes > sizeGoal {
		best = outlineCallees(in, bestIO, opts, best, bestBytes)
	}
	return best, nil
}

// outlineCallees keeps functions out of line while the module is over
// sizeGoal once its loops are rolled: a function whose body the IR's
// budget (sizeInline) finds small enough to inline at each call site may
// still take many bytes of bytecode at each, and its copies then weigh
// more than anything rolling saves. Each round tries, for every function
// that is not exported, is called from two places or more and is inlined
// in best, the plan that keeps its calls calls (ir.InlineNone, one shared
// static method), and keeps the plan of fewest bytes if it is smaller
// than best; it stops when the module fits or no such plan is smaller.
// io is best's plan.
func outlineCallees(in *backend.Input, io ir.Options, opts backend.Options, best *Class, bestBytes int) *Class {
	nio := io
	nio.InlineBudget = ir.InlineNone
	nio.InlineFunc = nil
	mod, err := in.Module(nio)
	if err != nil {
		return best
	}
	sites := map[string]int{}
	for _, f := range mod.Funcs {
		ir.WalkInstrs(f.Body, func(in *ir.Instr) {
			if in.Op == ir.OpCall && !in.Callee.Export {
				sites[in.Callee.QualName]++
			}
		})
	}
	var cands []string
	for name, n := range sites {
		if n >= 2 {
			cands = append(cands, name)
		}
	}
	sort.Strings(cands)
	for bestBytes > sizeGoal {
		kept := map[string]bool{}
		for _, m := range best.Methods {
			if m.fn != nil {
				kept[m.fn.QualName] = true
			}
		}
		var pick *Class
		var pickIO ir.Options
		pickBytes := bestBytes
		for _, name := range cands {
			if kept[name] {
				continue
			}
			tio := io
			tio.InlineFunc = map[string]int{name: ir.InlineNone}
			for k, v := range io.InlineFunc {
				if k != name {
					tio.InlineFunc[k] = v
				}
			}
			cls, err := compileClassIO(in, tio, opts)
			if err != nil {
				continue
			}
			s, err := statsOf(cls)
			if err != nil || s.methodBytes >= pickBytes {
				continue
			}
			pick, pickIO, pickBytes = cls, tio, s.methodBytes
		}
		if pick == nil {
			break
		}
		best, bestBytes, io = pick, pickBytes, pickIO
	}
	return best
}

// inlineRoundCalls inlines the module's functions that update an array
// parameter and are called at least minRoundCalls times per call of their
// caller (from a round loop: Keccak's 24 rounds calling theta and chi on
// the state), when the module stays within sizeGoal. Kept as calls, such
// functions get their state as an array, in memory at every round;
// inlined, a local state is scalar-replaced (its lanes in locals) and a
// parameter's can be promoted to locals across the loop (promote.go).
// Functions called once per block (BLAKE2b's compression, from a chunks
// loop) and functions of words stay shared. It returns the class and true
// when it inlined something and the module fits.
func inlineRoundCalls(in *backend.Input, io ir.Options, opts backend.Options) (*Class, ir.Options, bool) {
	mod, err := in.Module(io)
	if err != nil {
		return nil, io, false
	}
	names := roundLoopCallees(mod)
	if len(names) == 0 {
		return nil, io, false
	}
	tio := io
	tio.InlineFunc = map[string]int{}
	for _, n := range names {
		tio.InlineFunc[n] = ir.InlineAll
	}
	cls, err := compileClassIO(in, tio, opts)
	if err != nil {
		return nil, io, false
	}
	st, err := statsOf(cls)
	card, cerr := cardOf(opts.Card)
	if err != nil || cerr != nil || st.methodBytes > sizeGoal || st.fits(cls, card) != nil {
		return nil, io, false
	}
	return cls, tio, true
}

// minRoundCalls is how many times per call of its caller a function must
// be called for inlineRoundCalls to inline it.
const minRoundCalls = 8

// roundLoopCallees names the module's functions (not exported, with a
// mut array parameter) that some function calls at least minRoundCalls times per call of its own: the
// call sites weighted by the trip counts of the constant loops around
// them (a chunks loop counts once), sorted. Keccak's theta is called 24
// times a block, from its round loop or, where calls are small enough
// for the round loop to unroll, from 24 places.
func roundLoopCallees(mod *ir.Module) []string {
	seen := map[string]bool{}
	for _, f := range mod.Funcs {
		calls := map[*ir.Function]uint64{}
		var walk func(b *ir.Block, weight uint64)
		walk = func(b *ir.Block, weight uint64) {
			for _, in := range b.Instrs {
				if in.Op == ir.OpCall && !in.Callee.Export && mutArrayParam(in.Callee) {
					calls[in.Callee] += weight
				}
				w := weight
				if in.Op == ir.OpFor {
					w *= constTrips(mod, in)
				}
				for _, blk := range in.Blocks {
					walk(blk, w)
				}
			}
		}
		walk(f.Body, 1)
		for g, n := range calls {
			if n >= minRoundCalls {
				seen[g.QualName] = true
			}
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// mutArrayParam reports whether f updates an array parameter: its state
// goes through memory at each call.
func mutArrayParam(f *ir.Function) bool {
	for _, p := range f.Params {
		if p.Arr != nil && p.Arr.Mut {
			return true
		}
	}
	return false
}

// constTrips is the trip count of a loop whose bounds are constants (at
// most 1<<16), else 1.
func constTrips(mod *ir.Module, in *ir.Instr) uint64 {
	n := mod.Limbs(in.Type)
	var b [2]uint64
	for k := range b {
		for i, v := range in.Args[k*n : (k+1)*n] {
			c, ok := ir.ConstOf(v)
			if !ok {
				return 1
			}
			b[k] |= c << (uint(i) * uint(mod.W))
		}
	}
	if b[1] <= b[0] || b[1]-b[0] > 1<<16 {
		return 1
	}
	return b[1] - b[0]
}
