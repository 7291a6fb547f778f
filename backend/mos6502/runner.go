package mos6502

import (
	"fmt"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

// PALHz is the C64 PAL CPU clock: cycles convert to seconds at this rate.
const PALHz = 985248

// program is a compiled, assembled module ready to run.
type program struct {
	mod  *ir.Module
	img  *image
	abis map[string]*funcABI
	src  string
	cfg  config // the IR configuration it was compiled with
	// checks are the module's run-time checks: trap id i is checks[i-1].
	checks []*ir.CheckInfo
	run    runOpts // how calls are timed and capped
	// startup, when not 0, is the routine a program runs once before
	// its exports (mktab: the tables built at start-up, tabbuild.go).
	startup int
}

// Runner runs exports of one program in the cycle-counting emulator.
type Runner struct {
	prog *program
	// Last is the emulator of the last call (tests inspect it).
	last *machine
}

// Run calls fn with args and reports `cycles=N`.
func (r *Runner) Run(fn string, args []sem.Value) ([]sem.Value, backend.Stats, error) {
	m, res, cycles, err := r.prog.callOn(fn, args)
	if err != nil {
		return nil, nil, err
	}
	st := backend.Stats{{Key: "cycles", Value: fmt.Sprint(cycles)}}
	if m.vic == nil {
		return res, append(st, backend.Stat{Key: "timing", Value: "ideal"}), nil
	}
	timing := "c64"
	if r.prog.run.blank {
		timing = "c64-blank"
	}
	return res, append(st, backend.Stat{Key: "timing", Value: timing},
		backend.Stat{Key: "badlines", Value: fmt.Sprint(m.vic.badlines)},
		backend.Stat{Key: "stolen", Value: fmt.Sprint(m.vic.stolen)}), nil
}

// CostCap is the cycle cap of a call (--max-cycles), in Measure's unit:
// bench --block chooses its block counts to stay under it.
func (r *Runner) CostCap() float64 {
	if r.prog.run.maxCycles != 0 {
		return float64(r.prog.run.maxCycles)
	}
	return defaultMaxCycles
}

// Measure returns the cycles of one call (the emulator is deterministic).
func (r *Runner) Measure(fn string, args []sem.Value) (backend.Cost, error) {
	_, cycles, err := r.prog.call(fn, sem.CopyValues(args))
	if err != nil {
		return backend.Cost{}, err
	}
	return backend.Cost{Value: float64(cycles), Unit: "cycles", Seconds: float64(cycles) / PALHz}, nil
}

// Close releases nothing: the runner holds no files or processes.
func (r *Runner) Close() error { return nil }

// placed is one argument laid out in the emulator's memory.
type placed struct {
	addr, n, per int
	sp           ir.SigParam
}

// call runs export name on fresh memory, marshalling args per its ABI.
func (p *program) call(name string, args []sem.Value) ([]sem.Value, uint64, error) {
	_, res, cycles, err := p.callOn(name, args)
	return res, cycles, err
}

// callOn is call, also returning the machine it ran on.
func (p *program) callOn(name string, args []sem.Value) (*machine, []sem.Value, uint64, error) {
	m, abi, bufs, err := p.setup(name, args)
	if err != nil {
		return nil, nil, 0, err
	}
	cycles, err := m.call(p.img.labels[abi.Label], nil)
	if err != nil {
		return nil, nil, 0, err
	}
	res, err := p.collect(m, name, abi, args, bufs)
	return m, res, cycles, err
}

// setup loads the program and the arguments into a fresh machine.
func (p *program) setup(name string, args []sem.Value) (*machine, *funcABI, []placed, error) {
	f := p.mod.Func(name)
	abi := p.abis[name]
	if f == nil || abi == nil {
		return nil, nil, nil, fmt.Errorf("mos6502: no export %s", name)
	}
	if len(args) != len(f.Sig.Params) {
		return nil, nil, nil, fmt.Errorf("%s takes %d arguments, got %d", name, len(f.Sig.Params), len(args))
	}
	m := newMachineWith(p.run)
	if err := m.load(p.img.org, p.img.data); err != nil {
		return nil, nil, nil, err
	}
	if p.startup != 0 {
		// The program's start-up, before the call that is timed: the
		// call then starts at cycle 0 of a fresh timing model, as
		// without one.
		if _, err := m.call(p.startup, nil); err != nil {
			return nil, nil, nil, fmt.Errorf("mos6502: start-up: %v", err)
		}
		m.restart(p.run)
	}
	next := (p.img.labels["progend"] + 0xff) &^ 0xff
	var bufs []placed
	pi := 0
	put := func(sp ir.SigParam, elems []uint64, n int) error {
		per := typeBytes(sp.Type)
		data := make([]byte, n*per)
		for i, e := range elems {
			for j := 0; j < per; j++ {
				data[i*per+j] = byte(e >> (8 * j))
			}
		}
		if next+len(data) > 0xff00 {
			return fmt.Errorf("mos6502: arguments do not fit in memory: %s needs %s bytes at $%04X, and the arguments end at $FEFF (%s bytes left after the program)",
				argName(sp), sem.Thousands(int64(len(data))), next, sem.Thousands(int64(0xff00-next)))
		}
		if p.run.c64 && next+len(data) > 0xd000 {
			// With the C64's I/O area modelled, $D011 and $D012 are the
			// VIC's, not an argument's.
			return fmt.Errorf("mos6502: arguments do not fit in memory below the I/O area at $D000 (%d bytes at $%04x; --timing c64)", len(data), next)
		}
		if err := m.load(next, data); err != nil {
			return err
		}
		a := abi.Params[pi]
		m.mem.StoreByte(uint16(a.Ptr), byte(next))
		m.mem.StoreByte(uint16(a.Ptr+1), byte(next>>8))
		if a.Len != 0 {
			m.mem.StoreByte(uint16(a.Len), byte(n))
			m.mem.StoreByte(uint16(a.Len+1), byte(n>>8))
		}
		bufs = append(bufs, placed{addr: next, n: n, per: per, sp: sp})
		next += len(data)
		pi++
		return nil
	}
	for i, sp := range f.Sig.Params {
		a := args[i]
		if !sp.Array {
			n := typeBytes(sp.Type) // one ABI entry a byte
			for j := 0; j < n; j++ {
				m.mem.StoreByte(uint16(abi.Params[pi].Limbs[0]), byte(a.Word>>(8*j)))
				pi++
			}
			continue
		}
		if !sp.Slice && len(a.Elems) != sp.Len {
			return nil, nil, nil, fmt.Errorf("argument %s: want %d elements, got %d", sp.Name, sp.Len, len(a.Elems))
		}
		if err := put(sp, a.Elems, len(a.Elems)); err != nil {
			return nil, nil, nil, err
		}
	}
	for _, r := range f.Sig.Results {
		if r.Array {
			if err := put(r, nil, r.Len); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	m.mem.StoreByte(uint16(p.img.labels["trapid"]), 0)
	return m, abi, bufs, nil
}

// argName names a parameter or, unnamed, a result in a message.
func argName(sp ir.SigParam) string {
	if sp.Name == "" {
		return "the result"
	}
	return sp.Name
}

// collect reads back mut arguments and results after a call.
func (p *program) collect(m *machine, name string, abi *funcABI, args []sem.Value, bufs []placed) ([]sem.Value, error) {
	f := p.mod.Func(name)
	if id := int(m.mem.LoadByte(uint16(p.img.labels["trapid"]))); id != 0 {
		if id <= len(p.checks) && p.checks[id-1] != nil {
			if c := p.checks[id-1]; c.Kind == ir.CheckOverlap {
				return nil, overlapFault(m, f, abi, c)
			}
			return nil, p.checks[id-1].Err()
		}
		return nil, fmt.Errorf("trap (check %d)", id)
	}
	read := func(b placed) []uint64 {
		out := make([]uint64, b.n)
		for i := range out {
			for j := 0; j < b.per; j++ {
				out[i] |= uint64(m.mem.LoadByte(uint16(b.addr+i*b.per+j))) << (8 * j)
			}
		}
		return out
	}
	bi := 0
	for i, sp := range f.Sig.Params {
		if !sp.Array {
			continue
		}
		if sp.Mut {
			copy(args[i].Elems, read(bufs[bi]))
		}
		bi++
	}
	results := make([]sem.Value, len(f.Sig.Results))
	k := 0
	for i, r := range f.Sig.Results {
		if r.Array {
			results[i] = sem.Value{Elems: read(bufs[bi]), IsArray: true}
			bi++
			continue
		}
		var w uint64
		for j := 0; j < typeBytes(r.Type); j++ {
			w |= uint64(m.mem.LoadByte(uint16(abi.Results[k]))) << (8 * j)
			k++
		}
		results[i] = sem.Value{Word: w}
	}
	return results, nil
}
