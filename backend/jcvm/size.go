package jcvm

import (
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

// fitSize compiles the default layout and, while the module's bytecode is
// over sizeGoal, halves the unroll budget of the function whose methods
// (with the pieces split made of them) take the most bytes, down to
// minUnroll, then of the next largest, and so on: the largest unrolled
// loops of the largest function roll first. The budgets are the IR's
// per-function ones (ir.Options.UnrollFunc), so a loop inlined from a
// callee rolls in the function it was inlined into. It returns the
// smallest class found; a module within the goal is compiled once, as
// before.
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
			best, bestBytes = cls, s.methodBytes
		}
	}
	return best, nil
}
