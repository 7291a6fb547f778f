// Package jcvm is lowentc's Java Card backend (--target jcvm): legalized IR
// at W=32 (cards with the optional int) or W=16 (--no-int) becomes a
// Java-Card-level IR (typed short/int locals, byte/short arrays, structured
// statements) printed as a Java Card class (--emit java) or as its JCVM
// bytecode in Java Card Assembly (--emit jca). Its runner executes the
// bytecode in a JCVM simulator with a cost model calibrated on a JCOP4 card.
package jcvm

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lwrt"
	"github.com/lowent/lowentc/sem"
)

func init() {
	backend.Register(&backend.Target{
		Name:    "jcvm",
		Emits:   []string{"java", "jca", "cap"},
		Compile: compileArtifact,
		Prepare: prepare,
		Runtime: &backend.Source{Name: lwrt.Name, Text: lwrt.Source()},
		Validate: func(opts backend.Options) error {
			if _, err := cardOf(opts.Card); err != nil {
				return err
			}
			switch opts.Route {
			case "", "auto", "java", "jca":
			default:
				return fmt.Errorf("jcvm: unknown --route %q (want java, jca or auto)", opts.Route)
			}
			_, err := irOptions(opts)
			return err
		},
	})
}

// compileArtifact renders the class as Java source or JCA text, once it
// fits the card's limits (unless opts.NoCardLimits).
func compileArtifact(in *backend.Input, opts backend.Options) ([]byte, error) {
	var kit *Kit
	if opts.Emit == "cap" {
		// Before compiling: without a kit there is nothing to build with.
		var err error
		if kit, err = FindKit(opts.JCHome); err != nil {
			return nil, err
		}
	}
	cls, err := fittedClass(in, opts)
	if err != nil {
		return nil, err
	}
	switch opts.Emit {
	case "", "java":
		return []byte(printJava(cls, "lowent")), nil
	case "jca":
		return jcaArtifact(cls, opts)
	case "cap":
		return capArtifact(kit, cls, opts)
	}
	return nil, fmt.Errorf("jcvm: unknown --emit %q (want java, jca or cap)", opts.Emit)
}

// fittedClass compiles the class of an artifact and refuses it when it does
// not fit opts.Card (unless opts.NoCardLimits); opts.Stats receives its
// figures.
func fittedClass(in *backend.Input, opts backend.Options) (*Class, error) {
	card, cls, err := cardClass(in, opts)
	if err != nil {
		return nil, err
	}
	st, err := statsOf(cls)
	if err != nil {
		return nil, err
	}
	if opts.Stats != nil {
		*opts.Stats = st.stats(cls, card)
	}
	if err := st.fits(cls, card); err != nil && !opts.NoCardLimits {
		return nil, err
	}
	return cls, nil
}

// cardClass is the card opts.Card names and the class compiled for it.
func cardClass(in *backend.Input, opts backend.Options) (Card, *Class, error) {
	card, err := cardOf(opts.Card)
	if err != nil {
		return Card{}, nil, err
	}
	cls, err := compileClass(in, opts)
	return card, cls, err
}

// Runner runs exports in the simulator.
type Runner struct {
	cls  *Class
	sim  *Sim
	card Card
}

func prepare(in *backend.Input, opts backend.Options) (backend.Runner, error) {
	card, cls, err := cardClass(in, opts)
	if err != nil {
		return nil, err
	}
	return &Runner{cls: cls, sim: newSim(cls), card: card}, nil
}

// call runs export fn once and returns its results and the opcode counts.
func (r *Runner) call(fn string, args []sem.Value) ([]sem.Value, [256]int64, error) {
	var exp *Export
	for _, e := range r.cls.Exports {
		if e.Name == fn {
			exp = e
		}
	}
	if exp == nil {
		return nil, [256]int64{}, fmt.Errorf("jcvm: %s: %w", fn, errNoExport)
	}
	r.sim.Counts = [256]int64{}
	res, err := simCall(r.sim, r.cls, exp, args)
	return res, r.sim.Counts, err
}

// simCall calls export exp of cls, loaded in s, as the applet would:
// arguments marshalled by the ABI into fresh arrays, results read back
// from them, the return value and the carry array; a trap at a check is
// the check's error, a trap with a status word the card's.
func simCall(s *Sim, cls *Class, exp *Export, args []sem.Value) ([]sem.Value, error) {
	f := exp.Fn.(*ir.Function)
	jargs, err := marshal(cls.W, f, args)
	if err != nil {
		return nil, err
	}
	s.resetArrays()
	cells, refs := argCells(s, jargs)
	ret, err := s.call(exp.Method, cells)
	if err != nil {
		var t *Trap
		if errors.As(err, &t) && t.Check != nil {
			return nil, t.Check.Err()
		}
		if errors.As(err, &t) && t.SW != 0 {
			return nil, cardCheckError(t.SW)
		}
		return nil, err
	}
	for i, ref := range refs {
		d := s.arrays[ref-1].data
		if jargs[i].Shorts != nil {
			copy(jargs[i].Shorts, d)
			continue
		}
		for j := range jargs[i].Bytes {
			jargs[i].Bytes[j] = byte(d[j])
		}
	}
	rv := retVal{hasRet: len(ret) > 0, carry: s.arrays[s.fields[cls.Carry.Field]-1].data}
	switch len(ret) {
	case 1:
		rv.ret = int32(ret[0])
	case 2:
		rv.ret = join(ret[0], ret[1])
	}
	return unmarshal(cls.W, f, args, jargs, rv)
}

// CheckFailed is a run-time check of the program failing on a card (or a
// JVM) that reports only the ISOException 0x6F00 + kind its code throws:
// without the source position, the message has none (a trap that matches
// any of the reference VM's). The simulator knows the check and gives its
// position as every target does (ir.CheckInfo.Err).
type CheckFailed struct{ SW int }

func (c *CheckFailed) Error() string {
	return fmt.Sprintf(": trap: ISOException 0x%04x (a %s check failed on the card)", c.SW, ir.CheckKind(c.SW-0x6f00))
}

// Trapped says the error is a failed run-time check.
func (c *CheckFailed) Trapped() {}

// EntryFailed is CheckFailed for the export's own requires (status
// 0x6F04) or the applet's buffer rule (0x6F05): a fault of the caller,
// without the position and condition a card cannot know.
type EntryFailed struct{ SW int }

func (e *EntryFailed) Error() string {
	return fmt.Sprintf(": fault: ISOException 0x%04x (the arguments break the export's contract)", e.SW)
}

// Faulted says the error is a broken contract.
func (e *EntryFailed) Faulted() {}

// cardCheckError is the error of status sw thrown on a card or JVM.
func cardCheckError(sw int) error {
	if k := ir.CheckKind(sw - 0x6f00); k == ir.CheckEntry || k == ir.CheckOverlap {
		return &EntryFailed{SW: sw}
	}
	return &CheckFailed{SW: sw}
}

// Run calls fn in the simulator; the stats are the opcodes executed and the
// modeled time of the call as one APDU on the runner's card.
func (r *Runner) Run(fn string, args []sem.Value) ([]sem.Value, backend.Stats, error) {
	res, counts, err := r.call(fn, args)
	if err != nil {
		return nil, nil, err
	}
	lo, hi := modeledBand(&counts, r.card)
	n := int64(0)
	for op, c := range counts {
		if op != cntArgCells {
			n += c
		}
	}
	return res, backend.Stats{
		{Key: "bytecodes", Value: strconv.FormatInt(n, 10)},
		{Key: "modeled_ms", Value: strconv.FormatFloat(modeledMs(&counts, r.card), 'f', 3, 64)},
		{Key: "card", Value: r.card.Name},
		{Key: "modeled_ms_lo", Value: strconv.FormatFloat(lo, 'f', 3, 64)},
		{Key: "modeled_ms_hi", Value: strconv.FormatFloat(hi, 'f', 3, 64)},
	}, nil
}

// Measure returns the modeled milliseconds of one call of fn as one APDU
// (the applet's timing INS with N = 1, arguments already on the card).
func (r *Runner) Measure(fn string, args []sem.Value) (backend.Cost, error) {
	_, counts, err := r.call(fn, args)
	if err != nil {
		return backend.Cost{}, err
	}
	ms := modeledMs(&counts, r.card)
	lo, hi := modeledBand(&counts, r.card)
	return backend.Cost{Value: ms, Unit: "ms", Seconds: ms / 1000, Lo: lo, Hi: hi}, nil
}

// Close releases nothing: the simulator lives in memory.
func (r *Runner) Close() error { return nil }

// argCells places the marshalled arguments jargs in the simulator s, as the
// applet does: each array a new array of s, each word its cells. It
// returns the call's argument cells and, by jarg index, the arrays'
// references.
func argCells(s *Sim, jargs []jarg) (cells []int16, refs map[int]int16) {
	refs = map[int]int16{}
	for i, a := range jargs {
		switch a.Kind {
		case KRef:
			arr := &simArray{elem: EShort, data: append([]int16(nil), a.Shorts...)}
			if a.Shorts == nil {
				arr = &simArray{elem: EByte, data: make([]int16, len(a.Bytes))}
				for j, b := range a.Bytes {
					arr.data[j] = int16(int8(b))
				}
			}
			refs[i] = s.newArray(arr)
			cells = append(cells, refs[i])
		case KInt:
			cells = append(cells, int16(a.Val>>16), int16(a.Val))
		default:
			cells = append(cells, int16(a.Val))
		}
	}
	return cells, refs
}
