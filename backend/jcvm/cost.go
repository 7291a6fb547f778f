package jcvm

import (
	"fmt"
	"sort"
)

// The cost model: microseconds per opcode on an NXP JCOP4 (J3R180). Each
// opcode has a base figure derived from the published stack-neutral pair
// measurements (CrystalPeakSecurity/jcc, examples/bench/results.md; see
// docs/jcvm.md) and belongs to a class; each class has a multiplier fitted
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
	clBranch        // if<cond>_w, if_scmp<cond>_w, goto_w
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

// baseCost is each opcode's base figure and class. The figures solve the
// pair measurements one opcode at a time (sconst 5; pop = 5.7 split evenly
// gives sconst and pop 2.85; then sconst 5; sconst 3; sadd; pop = 12.5
// gives sadd 3.95, and so on); iaload is an assumption (saload + 0.3, like
// iload against sload) and iastore is persistentWrite sastores.
var baseCost = func() [256]opCost {
	var t [256]opCost
	set := func(class int, us float64, ops ...int) {
		for _, o := range ops {
			t[o] = opCost{us, class}
		}
	}
	set(clConst, 2.85, 2, 3, 4, 5, 6, 7, 8) // sconst: half of sconst;pop 5.7
	set(clConst, 2.7, 9, 10, 11, 12, 13, 14, 15)
	set(clConst, 3.75, opBspush)
	set(clConst, 3.95, opSspush)
	set(clConst, 3.2, opBipush)
	set(clConst, 3.1, opSipush)
	set(clConst, 4.1, opIipush)
	set(clLoad, 3.05, opSload, 28, 29, 30, 31)
	set(clLoad, 3.25, opAload, 24, 25, 26, 27)
	set(clLoad, 2.8, opIload, 32, 33, 34, 35)
	set(clStore, 4.15, opSstore, 47, 48, 49, 50)
	set(clStore, 5.6, opIstore, 51, 52, 53, 54)
	set(clStore, 4.2, opSinc)
	set(clStore, 4.3, opIinc)
	set(clStack, 2.85, opPop)
	set(clStack, 3.6, opPop2)
	set(clSALU, 3.95, 65) // sadd
	set(clSALU, 3.85, 67) // ssub
	set(clSALU, 4.55, 69) // smul
	set(clSALU, 6.15, 71) // sdiv
	set(clSALU, 6.95, 73) // srem
	set(clSALU, 3.4, opSneg)
	set(clSALU, 5.65, 77)     // sshl
	set(clSALU, 5.45, 79, 81) // sshr, sushr
	set(clSALU, 4.35, 83)     // sand
	set(clSALU, 4.15, 85)     // sor
	set(clSALU, 4.05, 87)     // sxor
	set(clSALU, 3.4, opS2b)
	set(clSALU, 3.4, opS2i) // not measured: as s2b
	set(clIALU, 4.9, 66)    // iadd
	set(clIALU, 4.8, 68)    // isub
	set(clIALU, 6.5, 70)    // imul
	set(clIALU, 7.6, 72)    // idiv
	set(clIALU, 10.0, 74)   // irem
	set(clIALU, 3.4, opIneg)
	set(clIALU, 6.0, 78) // ishl
	set(clIALU, 6.2, 80) // ishr
	set(clIALU, 5.9, 82) // iushr
	set(clIALU, 4.8, 84) // iand
	set(clIALU, 4.9, 86) // ior
	set(clIALU, 4.8, 88) // ixor
	set(clIALU, 5.95, opIcmp)
	set(clIALU, 4.15, opI2b)
	set(clIALU, 2.95, opI2s)
	set(clBranch, 4.75, 152, 153, 154, 155, 156, 157) // ifeq 4.35, ifne 5.15
	set(clBranch, 5.75, 162, 163, 164, 165, 166, 167) // if_scmplt 5.7, if_scmpeq 5.8
	set(clBranch, 3.1, opGotoW)
	set(clArray, 7.85, opGetstaticA)
	set(clArray, 15.45, opBaload)
	set(clArray, 17.15, opSaload)
	set(clArray, 17.45, opIaload)
	set(clArray, 15.65, opBastore)
	set(clArray, 20.05, opSastore)
	set(clArray, persistentWrite*20.05, opIastore)
	set(clInvoke, 16.7, opInvokestatic) // invokestatic (void) 21.7 with its return
	set(clInvoke, 5.0, opReturn)
	set(clInvoke, 6.9, opReturnS)
	set(clInvoke, 6.6, opReturnI)
	set(clInvoke, argCellMicros, cntArgCells)
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

// Card is a card profile of the cost model.
type Card struct {
	Name   string
	Factor float64 // multiplies the JCOP4 per-opcode figures
	APDUms float64 // one command-response round trip
	Note   string
}

// Cards are the profiles --card accepts.
var Cards = map[string]Card{
	"jcop4":  {"jcop4", 1, 6, "NXP JCOP4 J3R180: the measured per-opcode figures"},
	"jcop3":  {"jcop3", 1.55, 6, "JCOP3: 1.4-1.7x slower bytecode than JCOP4 (JCMathLib); midpoint"},
	"jcop41": {"jcop41", 1.55, 5.15, "JCOP41 v2.2 (2009): assumed as fast as JCOP3 (no published link to JCOP4); APDU 5.15 ms measured"},
	"jcop31": {"jcop31", 1.55 * 2.495, 28.13, "JCOP31 v2.2: JCOP41's speed / 2.495 (vm_perf 1.844 s vs 0.739 s); APDU 28.13 ms measured"},
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
		return Card{}, fmt.Errorf("jcvm: unknown --card %q (want one of %v)", name, names)
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
