package jcvm

import (
	"fmt"
	"sort"
	"strings"
)

// The cost model: microseconds per opcode on an NXP JCOP4 (J3R180). Each
// opcode has a base figure derived from the published stack-neutral pair
// measurements (CrystalPeakSecurity/jcc, examples/bench/results.md; see
// docs/jcvm.md) and belongs to a class, both in the opcode table
// (opcodes.go); each class has a multiplier fitted
// by non-negative least squares on those measurements and the notebook's
// three BLAKE2b variants (TestCalibration). A call is one APDU on top.

// Opcode classes of the fit.
const (
	clConst  = iota // sconst, iconst, bspush, sspush, bipush, sipush, iipush
	clLoad          // sload, aload, iload
	clStore         // sstore, istore, sinc, iinc
	clStack         // pop, pop2
	clSALU          // short arithmetic, logic, shifts, s2b, s2i
	clIALU          // int arithmetic, logic, shifts, icmp, i2b, i2s
	clBranch        // if<cond>[_w], if_scmp<cond>[_w], goto[_w]
	clArray         // getstatic_a and array element loads and stores (persistent int[] writes included)
	clInvoke        // invokestatic, returns, argument cells
	nClasses
)

var classNames = [nClasses]string{"constants", "local loads", "local stores", "pop", "short ALU", "int ALU", "branches", "arrays and statics", "invokes"}

// persistentWrite is how many times slower a write to persistent memory is
// than one to RAM: seed 000's 256-byte copy, ~31x. An int[] is persistent
// (there is no transient int array), so iastore costs that many sastores.
const persistentWrite = 31

// argCellMicros is the base cost of one argument cell invokestatic copies
// into the callee's frame: an assumption (no measurement passes
// arguments), about one stack-to-local move.
const argCellMicros = 1.0

type opCost struct {
	us    float64 // base JCOP4 µs
	class int
}

// baseCost is each opcode's base figure and class, from the opcode table
// (opList), and the argument cells' in the cntArgCells slot.
var baseCost = func() [256]opCost {
	var t [256]opCost
	for _, o := range opList {
		t[o.op] = opCost{o.us, o.class}
	}
	t[cntArgCells] = opCost{argCellMicros, clInvoke}
	return t
}()

// classScale is the fitted multiplier of each class (TestCalibration
// refits it and fails if these differ).
var classScale = [nClasses]float64{
	clConst:  1.0062,
	clLoad:   1.2392,
	clStore:  1.0267,
	clStack:  1.0794,
	clSALU:   1.2520,
	clIALU:   0.5237,
	clBranch: 1.0024,
	clArray:  0.7480,
	clInvoke: 0.9927,
}

// The band of a modeled figure: the true time is taken to lie between
// compute/(1+looOver) and compute/(1+looUnder), where looOver (≥ 0) and
// looUnder (≤ 0) are the largest over- and under-prediction among the
// leave-one-out errors of the whole-program calibration points
// (TestCalibration recomputes them).
const (
	looOver  = 0.4548  // --storage pairs, predicted without its own point
	looUnder = -0.3403 // --storage arrays --no-int, likewise
)

// Card is a card profile: the cost model's figures and what the card can
// load and run.
type Card struct {
	Name   string
	Factor float64 // multiplies the JCOP4 per-opcode figures
	APDUms float64 // one command-response round trip
	Note   string
	Limits Limits
}

// cardLimits are the limits of a card with persistent KB of persistent
// memory (the figure in its product name), the rest as every profile has
// them (docs/jcvm.md, "Card limits").
func cardLimits(persistentKB int) Limits {
	return Limits{
		MethodBytes:     capMethodBytes,
		StackBytes:      assumedStackBytes,
		TransientBytes:  maxTransient,
		PersistentBytes: persistentKB * 1024,
		Int:             true,
		MethodsPerClass: capClassMethods,
	}
}

// Cards are the profiles --card accepts.
var Cards = map[string]Card{
	"jcop4":  {"jcop4", 1, 6, "NXP JCOP4 J3R180: the measured per-opcode figures", cardLimits(180)},
	"jcop3":  {"jcop3", 1.55, 6, "JCOP3: 1.4-1.7x slower bytecode than JCOP4 (JCMathLib); midpoint", cardLimits(145)},
	"jcop41": {"jcop41", 1.55, 5.15, "JCOP41 v2.2 (2009): assumed as fast as JCOP3 (no published link to JCOP4); APDU 5.15 ms measured", cardLimits(72)},
	"jcop31": {"jcop31", 1.55 * 2.495, 28.13, "JCOP31 v2.2: JCOP41's speed / 2.495 (vm_perf 1.844 s vs 0.739 s); APDU 28.13 ms measured", cardLimits(36)},
}

// cardOf returns the profile named name ("" is jcop4).
func cardOf(name string) (Card, error) {
	if name == "" {
		name = "jcop4"
	}
	c, ok := Cards[name]
	if !ok {
		var names []string
		for n := range Cards {
			names = append(names, n)
		}
		sort.Strings(names)
		return Card{}, fmt.Errorf("jcvm: unknown --card %q (cards: %s)", name, strings.Join(names, ", "))
	}
	return c, nil
}

// classMicros is the base JCOP4 µs of the counted opcodes by class.
func classMicros(counts *[256]int64) [nClasses]float64 {
	var c [nClasses]float64
	for op, n := range counts {
		if n != 0 {
			b := baseCost[op]
			c[b.class] += float64(n) * b.us
		}
	}
	return c
}

// computeMicros is the modeled JCOP4 µs of the counted opcodes.
func computeMicros(counts *[256]int64) float64 {
	us := 0.0
	for k, v := range classMicros(counts) {
		us += v * classScale[k]
	}
	return us
}

// modeledMs is the modeled time of one APDU running the counted opcodes.
func modeledMs(counts *[256]int64, card Card) float64 {
	return computeMicros(counts)*card.Factor/1000 + card.APDUms
}

// modeledBand is the band around modeledMs (see looOver).
func modeledBand(counts *[256]int64, card Card) (lo, hi float64) {
	ms := computeMicros(counts) * card.Factor / 1000
	return ms/(1+looOver) + card.APDUms, ms/(1+looUnder) + card.APDUms
}
