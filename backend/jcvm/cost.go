package jcvm

import (
	"fmt"
	"sort"
)

// The cost model: microseconds per opcode on an NXP JCOP4 (J3R180), from
// the published stack-neutral pair measurements (CrystalPeakSecurity/jcc,
// examples/bench/results.md; see docs/jcvm.md), times one card-speed factor
// fitted on the notebook's BLAKE2b variants, plus the time of one APDU per
// call.

// baseMicros is the JCOP4 cost of each opcode before the card factor.
var baseMicros = func() [256]float64 {
	var t [256]float64
	set := func(us float64, ops ...int) {
		for _, o := range ops {
			t[o] = us
		}
	}
	set(2.8, 2, 3, 4, 5, 6, 7, 8) // sconst
	set(3.0, 9, 10, 11, 12, 13, 14, 15, opBspush)
	set(3.2, opSspush, opBipush)
	set(3.4, opSipush)
	set(3.8, opIipush)
	set(3.2, opAload, opSload, 24, 25, 26, 27, 28, 29, 30, 31) // local load
	set(3.4, opIload, 32, 33, 34, 35)
	set(4.3, opSstore, 47, 48, 49, 50)
	set(5.1, opIstore, 51, 52, 53, 54) // istore
	set(17, opBaload, opSaload)        // array read
	set(20, opBastore, opSastore)      // array write
	set(18, opIaload)                  // int array read (assumed: saload + a cell)
	set(21, opIastore)                 // int array write (assumed, RAM speed)
	set(2.7, opPop)
	set(3.0, opPop2)
	set(3.4, 65, 67, 83, 85, 87, opSneg) // short alu
	set(4.0, 69, 77, 79, 81)             // smul, short shifts
	set(4.4, 66, 68, 84, 86, 88, opIneg) // int alu
	set(6.0, 70)                         // imul
	set(6.0, 71, 73)                     // sdiv, srem (assumed)
	set(8.0, 72, 74)                     // idiv, irem (assumed)
	set(5.5, 78, 80, 82)                 // int shifts
	set(4.2, opSinc)
	set(5.0, opIinc)
	set(3.0, opS2b, opS2i, opI2b, opI2s)
	set(4.4, opIcmp)
	set(4.5, 152, 153, 154, 155, 156, 157)
	set(5.0, 162, 163, 164, 165, 166, 167)
	set(3.1, opGotoW)
	set(5.0, opReturnS, opReturnI, opReturn)
	set(8.0, opGetstaticA)
	set(24.5, opInvokestatic)
	return t
}()

// cardFactor is the JCOP4 card-speed factor: the least-squares fit of the
// modeled BLAKE2b compression to the notebook's 395 ms (--storage arrays)
// and 144 ms (--storage locals) variants; see TestCalibration.
const cardFactor = 1.334

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

// rawMicros is the JCOP4 cost of the counted opcodes before the card factor.
func rawMicros(counts *[256]int64) float64 {
	us := 0.0
	for op, n := range counts {
		us += float64(n) * baseMicros[op]
	}
	return us
}

// modeledMs is the modeled time of one APDU running the counted opcodes.
func modeledMs(counts *[256]int64, card Card) float64 {
	return rawMicros(counts)*cardFactor*card.Factor/1000 + card.APDUms
}
