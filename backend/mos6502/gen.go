package mos6502

import (
	"fmt"

	"github.com/lowent/lowentc/ir"
)

// Zero-page scratch used by the instruction templates; $00/$01 are the
// 6510's I/O port and are never touched.
const (
	zpT     = 0x02 // one scratch byte (funnel shifts)
	zpTP    = 0x03 // a pointer (computed addresses)
	zpFirst = 0x05 // first byte for parameters and values
	zpLast  = 0xff
)

// paramABI is where the caller puts one parameter of an export.
type paramABI struct {
	Name  string
	Ptr   int    // array: zero-page address of its 2-byte pointer
	Len   int    // slice: zero-page address of its 2-byte length; 0 otherwise
	Loc   string // scalar (one limb): its storage operand
	Limbs []int  // scalar: the address of Loc, once assembled
}

// funcABI describes one export: its entry label and where its parameters and
// results live.
type funcABI struct {
	Name       string
	Label      string
	Body       string     // the label of its body, after the entry code
	Params     []paramABI // in ir.Function.Params order
	ResultLocs []string   // storage operand of each result byte
	Results    []int      // their addresses, once assembled
	ZPTop      int        // highest zero-page address used (callees included)
}

// fgen generates one function.
type fgen struct {
	g     *modgen
	f     *ir.Function
	a     *asmBuf
	lv    *liveness
	loc   map[*ir.Value]string // storage operand of each value
	known map[*ir.Value]byte   // values known to be constant
	abi   *funcABI
	arrs  map[*ir.Array]arrInfo
	slen  map[*ir.Array]int // slice parameters: zero-page address of the length
	lin   *linearPlan

	aHolds    *ir.Value // the value the accumulator holds (also in its slot unless forwarded)
	cHolds    *ir.Value // the bool the carry flag holds
	cInv      bool      // the carry holds the negation of cHolds (subb borrows)
	inA       map[*ir.Value]bool
	lastClmul []*ir.Value        // operands of the product in the clmul helper's output
	tp        *tpKey             // the address in the pointer at zpTP (--opt size), nil when unknown
	y         int                // Y's value when address set it (--opt size), else -1
	skipOr    map[*ir.Value]bool // b|k indices only addressed as (arr+b),y: never computed
	nabs      int
	// xv and yv are the bytes X and Y were loaded with by a linear root,
	// still there while the buffer's counts (asmBuf.xw, yw) equal xs, ys.
	xv, yv *ir.Value
	xs, ys int
	absLbl string
	fz     map[*ir.Instr]*ir.Instr // fused loads and their readers (fuse.go)
	// fx and fy are the index values a fused load put in X and Y, still
	// there while the buffer's counts equal fxs, fys.
	fx, fy   *ir.Value
	fxs, fys int
	rest     []*ir.Instr // the instructions after the one being emitted
	// rebase and dead: accesses indexed by an earlier unrolled copy's
	// index, and the index arithmetic nothing reads then (rebase.go).
	rebase map[*ir.Value]rebaseTo
	dead   map[*ir.Instr]bool
	wrap   map[*ir.Instr]wrapIdx // indices computed from t << s (rebase.go)
}

// arrInfo says how an array is addressed: by a label (globals, locals) or
// through a zero-page pointer (parameters).
type arrInfo struct {
	label string
	ptr   int
}

func (g *fgen) bug(format string, args ...any) {
	panic(fmt.Sprintf("BUG: mos6502: %s: %s", g.f.Name, fmt.Sprintf(format, args...)))
}

// constOf reports whether v is a known constant byte.
func (g *fgen) constOf(v *ir.Value) (byte, bool) {
	if v.Def != nil && v.Def.Op == ir.OpConst {
		return byte(v.Def.Aux), true
	}
	c, ok := g.known[v]
	return c, ok
}

// opnd is the operand text that reads v: an immediate or its storage.
func (g *fgen) opnd(v *ir.Value) string {
	if c, ok := g.constOf(v); ok {
		return fmt.Sprintf("#$%02x", c)
	}
	if g.fused(v) {
		return g.fusedOperand(v, 'y')
	}
	s, ok := g.loc[v]
	if !ok {
		g.bug("value %d has no storage", v.ID)
	}
	return s
}

// mem is v's storage operand (never an immediate).
func (g *fgen) mem(v *ir.Value) string {
	s, ok := g.loc[v]
	if !ok {
		g.bug("value %d has no storage", v.ID)
	}
	return s
}

func (g *fgen) forget() {
	g.aHolds, g.cHolds, g.lastClmul, g.tp = nil, nil, nil, nil
	g.y = -1
}

// loadA puts v in the accumulator unless it is there already.
func (g *fgen) loadA(v *ir.Value) {
	if g.aHolds == v && v != nil {
		return
	}
	if g.inA[v] {
		g.bug("forwarded value %d lost from A", v.ID)
	}
	if g.fused(v) {
		g.a.op("lda %s", g.fusedOperand(v, 'x'))
		g.aHolds = v
		return
	}
	g.a.op("lda %s", g.opnd(v))
	g.aHolds = v
}

// setA records that A now holds v and stores it unless it is forwarded.
func (g *fgen) setA(v *ir.Value) {
	g.aHolds = v
	if !g.inA[v] {
		if _, ok := g.loc[v]; ok {
			g.a.op("sta %s", g.mem(v))
		}
	}
}

// clobberA records that A holds something no value names.
func (g *fgen) clobberA() { g.aHolds = nil }

// lbl places a branch target: nothing is known about the registers there.
func (g *fgen) lbl(name string) {
	g.a.label(name)
	g.forget()
}

// lblKeep places a label reached only by branches that keep A and C.
func (g *fgen) lblKeep(name string) {
	g.a.label(name)
	g.tp, g.y = nil, -1
}
