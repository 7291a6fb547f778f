package ir

import (
	"sync"

	"github.com/lowent/lowentc/sem"
)

// Value is an SSA value: the result of one instruction, a block parameter
// (a loop index or loop-carried value) or a scalar function parameter. It is
// defined exactly once, before (or around) every use.
type Value struct {
	ID   int // unique in its function; renumbered by Function.Renumber
	Type Type
	Def  *Instr // the defining instruction; nil for block and function parameters
}

// Instr is one instruction. Structured ops (if, for) own nested blocks.
type Instr struct {
	Op      Op
	Args    []*Value
	Results []*Value
	Aux     uint64     // const: the value; loadle/be, storele/be: width in bits; fshl/fshr: the amount
	Type    Type       // for: the index type; zext/trunc: the result type (also Results[0].Type)
	Arr     *Array     // memory ops
	Arrs    []*Array   // call: one per array parameter of the callee
	Callee  *Function  // call
	Check   *CheckInfo // check
	Blocks  []*Block   // if: then, else; for: body
	Pos     sem.Pos    // source position, when known (for diagnostics and dumps)
}

// Block is a list of instructions ending with a terminator (yield or return).
// A for body's parameters are the loop index (one value, or its limbs after
// legalization) followed by the loop-carried values.
type Block struct {
	Params []*Value
	Instrs []*Instr
}

// Term returns the block's terminator (its last instruction), or nil.
func (b *Block) Term() *Instr {
	if len(b.Instrs) == 0 {
		return nil
	}
	return b.Instrs[len(b.Instrs)-1]
}

// CheckKind says why a run-time check exists.
type CheckKind uint8

const (
	CheckBounds   CheckKind = iota // an index or byte offset not proven in bounds
	CheckRequires                  // a callee's `requires` not proven at a call
	CheckChunks                    // chunk-loop sources of unequal length
	CheckDiv                       // a divisor not proven non-zero
	CheckEntry                     // an exported function's `requires`: a fault of the caller
	// CheckOverlap is no IR check: a backend's ABI entry refusing buffers
	// that overlap without being the same (docs/language.md), a fault of
	// the caller as CheckEntry is.
	CheckOverlap
)

var checkKindNames = [...]string{"bounds", "requires", "chunks", "div", "entry", "overlap"}

func (k CheckKind) String() string {
	if int(k) < len(checkKindNames) {
		return checkKindNames[k]
	}
	return "check?"
}

// CheckInfo is what a check reports when its condition is false.
type CheckInfo struct {
	Kind CheckKind
	Pos  sem.Pos
	Msg  string
	// An entry check is requires clause Clause (0-based) of export Source;
	// an overlap check says that the buffer of parameter Clause (an index
	// into Source.Params; from len(Source.Params) on, the array results)
	// overlaps that of parameter Other.
	Source *sem.Export
	Clause int
	Other  int
}

// Err is the error check c failing is: for an entry check the fault
// sem.RequiresFault formats (the same on every target), for any other
// check a *Trap at its position. Backends report which check failed and
// turn it into the error here.
func (c *CheckInfo) Err() error {
	if c.Kind == CheckEntry && c.Source != nil {
		return sem.RequiresFault(c.Source, c.Clause)
	}
	if c.Kind == CheckOverlap && c.Source != nil {
		return sem.OverlapFault(c.Source, c.Clause, c.Other)
	}
	return &Trap{Kind: c.Kind, Pos: c.Pos, Msg: c.Msg}
}

// ArrayKind says where an array lives.
type ArrayKind uint8

const (
	ArrLocal  ArrayKind = iota // in the function's static frame
	ArrParam                   // passed by reference (a fixed array or a slice)
	ArrGlobal                  // a read-only module constant
)

// Array is a memory object of Len elements of type Elem (a word or bool).
// Nested Lowent arrays are flattened row-major. After legalization an array of
// words wider than W holds Per limbs per source element, least significant
// limb first, and Len counts limbs.
type Array struct {
	Name  string
	Kind  ArrayKind
	Elem  Type
	Len   int // elements; -1 for a slice parameter (length known at run time)
	Per   int // limbs per source element: 1 until legalization splits Elem
	Mut   bool
	Data  []uint64 // ArrGlobal: the contents
	index int      // slot in the interpreter's frame
}

// IsSlice reports whether the array's length is only known at run time.
func (a *Array) IsSlice() bool { return a.Len < 0 }

// Param is a function parameter: a scalar value or an array.
type Param struct {
	Name string
	Val  *Value // scalar parameter
	Arr  *Array // array or slice parameter
}

// SigParam describes one parameter of a function as the Lowent source
// declared it; it does not change when legalization splits values into limbs.
type SigParam struct {
	Name  string
	Type  Type // the scalar type, or the element type of an array or slice
	Array bool
	Slice bool
	Len   int // flattened element count of a fixed array
	Mut   bool
	// LenName is the named constant of the function's own module that the
	// source wrote as a one-dimensional fixed array's length (`ctx: mut
	// [CTX_WORDS]u64`), or "": a backend may name the size after it (the
	// amd64 C header does).
	LenName string
}

// Signature is a function's source-level interface, used by Run to convert
// sem.Values to and from the IR's parameters at any legalization width.
// Array results are passed as extra trailing `mut` array parameters.
type Signature struct {
	Params  []SigParam
	Results []SigParam // Name empty; an array result is a hidden trailing parameter
}

// Function is one IR function.
type Function struct {
	Name     string // the Lowent name (an export's name is its entry-point name)
	QualName string // MODULE.NAME
	Export   bool
	Pos      sem.Pos
	Source   *sem.Export // what its faults say of the source function (nil for one built by hand)
	Params   []*Param
	Results  []Type
	Locals   []*Array
	Body     *Block
	Sig      Signature

	nextID int
}

// Module is a compiled program: its functions and constant tables.
type Module struct {
	Name    string
	W       int // limb width after legalization; 0 before
	Globals []*Array
	Funcs   []*Function

	mu    sync.Mutex // Run renumbers values; serialize runs on one module
	outer *Module    // set on inline's one-function views: callees live there
}

// Func returns the function named name, or nil.
func (m *Module) Func(name string) *Function {
	for _, f := range m.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Limbs returns how many values of the module's limb width hold a value of
// type t: 1 before legalization or when t fits in W.
func (m *Module) Limbs(t Type) int { return limbsOf(m.W, t) }

func limbsOf(w int, t Type) int {
	if w == 0 || t.Bits() <= w {
		return 1
	}
	return t.Bits() / w
}

// NewValue makes a fresh value of type t owned by f (not yet defined anywhere).
func (f *Function) NewValue(t Type) *Value {
	v := &Value{ID: f.nextID, Type: t}
	f.nextID++
	return v
}

// NewLocal adds a local array to f, with a name unique among f's arrays.
func (f *Function) NewLocal(name string, elem Type, n int) *Array {
	a := &Array{Name: f.UniqueArrayName(name), Kind: ArrLocal, Elem: elem, Len: n, Per: 1, Mut: true}
	f.Locals = append(f.Locals, a)
	return a
}

// UniqueArrayName returns name, or name with a number added, so that no
// parameter or local array of f is already called that.
func (f *Function) UniqueArrayName(name string) string {
	taken := func(n string) bool {
		for _, p := range f.Params {
			if p.Arr != nil && p.Arr.Name == n {
				return true
			}
		}
		for _, a := range f.Locals {
			if a.Name == n {
				return true
			}
		}
		return false
	}
	if !taken(name) {
		return name
	}
	for i := 1; ; i++ {
		n := name + "." + itoa(i)
		if !taken(n) {
			return n
		}
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	return string(b[n:])
}

// Renumber gives f's values consecutive IDs in program order (parameters
// first) and its arrays frame slots. It returns the number of values.
func (f *Function) Renumber() int {
	n := 0
	slot := 0
	for _, p := range f.Params {
		if p.Val != nil {
			p.Val.ID = n
			n++
		}
		if p.Arr != nil {
			p.Arr.index = slot
			slot++
		}
	}
	for _, a := range f.Locals {
		a.index = slot
		slot++
	}
	// The printer's order: a block's parameters, then each instruction's
	// results before its nested blocks.
	number := func(vs []*Value) {
		for _, v := range vs {
			v.ID = n
			n++
		}
	}
	Walk(f.Body, func(b *Block) { number(b.Params) }, func(in *Instr) { number(in.Results) })
	f.nextID = n
	return n
}

// newInstr makes an instruction with fresh result values of the given types.
func (f *Function) newInstr(op Op, results []Type, args ...*Value) *Instr {
	// Copy args: passes edit argument lists in place, so an instruction
	// must never share one with another instruction or a caller's slice.
	in := &Instr{Op: op, Args: append([]*Value(nil), args...)}
	for _, t := range results {
		v := f.NewValue(t)
		v.Def = in
		in.Results = append(in.Results, v)
	}
	return in
}
