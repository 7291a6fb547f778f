package jcvm

import (
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

// The Java-Card-level IR (JIR): what both printers (Java source and JCVM
// bytecode) print. A class holds static methods over typed scalar locals
// (short or int), array references (parameters or static fields) and
// structured statements whose expressions are trees, so that each printer
// walks the same code.

// Kind is the Java Card type of a scalar or reference.
type Kind uint8

const (
	KShort Kind = iota + 1 // short (u8, u16 and bool values live here)
	KInt                   // int (u32 at W=32)
	KRef                   // an array reference
	KVoid                  // a method without a result
)

// Cells returns how many JCVM local or stack cells a value of kind k takes.
func (k Kind) Cells() int {
	switch k {
	case KInt:
		return 2
	case KVoid:
		return 0
	}
	return 1
}

func (k Kind) java() string {
	switch k {
	case KShort:
		return "short"
	case KInt:
		return "int"
	case KVoid:
		return "void"
	}
	return "?"
}

// Var is a scalar local variable (or parameter) of a method.
type Var struct {
	ID   int
	Kind Kind
	Arr  *Arr // KRef: the array this reference is
	Slot int  // first local cell, set by allocation
}

// ElemKind is the element type of a Java Card array.
type ElemKind uint8

const (
	EByte ElemKind = iota + 1
	EShort
	EInt // a persistent int[]: only with --storage arrays (no transient int arrays exist)
)

// Arr is an array the code reads or writes: a parameter (Ref is the local
// holding the reference, Off the one holding its start offset) or a static
// field (a transient array allocated once, or a constant table).
type Arr struct {
	Name  string
	Elem  ElemKind
	Wide  bool // each int element is two shorts, high first
	Len   int  // static arrays: elements allocated; fixed parameter arrays: their limbs; slices: -1
	Data  []int32
	Field int  // index among the class's static fields
	Ref   *Var // parameter arrays
	Off   *Var // parameter arrays: first element (nil: 0)
	LenV  *Var // slice parameters: the length
}

// Static reports whether the array is a static field of the class.
func (a *Arr) Static() bool { return a.Ref == nil }

// BinOp is a binary arithmetic or logic operation.
type BinOp uint8

const (
	OAdd BinOp = iota
	OSub
	OMul
	OAnd
	OOr
	OXor
	OShl
	OShr  // arithmetic
	OUshr // logical on ints; on shorts, sign-extends first like the JCVM's sushr
	ODiv  // signed
	ORem  // signed
)

var binJava = [...]string{"+", "-", "*", "&", "|", "^", "<<", ">>", ">>>", "/", "%"}

// Rel is a signed comparison.
type Rel uint8

const (
	REq Rel = iota
	RNe
	RLt
	RGe
	RGt
	RLe
)

var relJava = [...]string{"==", "!=", "<", ">=", ">", "<="}

// negate returns the opposite comparison.
func (r Rel) negate() Rel { return [...]Rel{RNe, REq, RGe, RLt, RLe, RGt}[r] }

// Expr is an expression tree.
type Expr interface{ Kind() Kind }

// EConst is a constant.
type EConst struct {
	K Kind
	V int32
}

// EVar reads a local.
type EVar struct{ V *Var }

// EBin is X op Y, both of kind K.
type EBin struct {
	Op   BinOp
	K    Kind
	X, Y Expr
}

// ENeg is -X.
type ENeg struct{ X Expr }

// EConv converts: S2I (sign-extending), I2S or S2B (both truncating).
type EConv struct {
	To Kind
	B  bool // to byte (s2b / i2b), result a short
	X  Expr
}

// ELoad reads A[I] (I a short); a byte is sign-extended to a short.
type ELoad struct {
	A *Arr
	I Expr
}

// ELen is the length of a parameter array.
type ELen struct{ A *Arr }

// ECond is C ? T : F (compiled with branches).
type ECond struct {
	C    Cond
	T, F Expr
}

// EArr is the reference to a static array (an argument of a call).
type EArr struct{ A *Arr }

// ECall calls a static method of the class.
type ECall struct {
	M    *Method
	Args []Expr
}

// Cond is the signed comparison X rel Y of two values of kind K.
type Cond struct {
	Rel  Rel
	X, Y Expr
}

func (e *EConst) Kind() Kind { return e.K }
func (e *EVar) Kind() Kind   { return e.V.Kind }
func (e *EBin) Kind() Kind   { return e.K }
func (e *ENeg) Kind() Kind   { return e.X.Kind() }
func (e *EConv) Kind() Kind  { return e.To }
func (e *ELoad) Kind() Kind {
	if e.A.Elem == EInt {
		return KInt
	}
	return KShort
}
func (e *ELen) Kind() Kind  { return KShort }
func (e *ECond) Kind() Kind { return e.T.Kind() }
func (e *ECall) Kind() Kind { return e.M.Ret }
func (e *EArr) Kind() Kind  { return KRef }

// Stmt is a statement.
type Stmt interface{ stmt() }

// SAssign is V = X.
type SAssign struct {
	V *Var
	X Expr
}

// SStore is A[I] = X (a byte array keeps X's low 8 bits).
type SStore struct {
	A    *Arr
	I, X Expr
}

// SIf is if (C) Then else Else.
type SIf struct {
	C          Cond
	Then, Else []Stmt
}

// SWhile is while (C) Body.
type SWhile struct {
	C    Cond
	Body []Stmt
}

// SReturn returns X (nil in a void method).
type SReturn struct{ X Expr }

// SThrow stops the program with ISOException status SW: check Check
// failed (the card sees only SW; the simulator reports the check).
type SThrow struct {
	SW    int32
	Check *ir.CheckInfo
}

// SCall calls a method and drops its result.
type SCall struct{ C *ECall }

func (*SAssign) stmt() {}
func (*SStore) stmt()  {}
func (*SIf) stmt()     {}
func (*SWhile) stmt()  {}
func (*SReturn) stmt() {}
func (*SThrow) stmt()  {}
func (*SCall) stmt()   {}

// Method is a static method of the generated class.
type Method struct {
	Name   string
	Params []*Var
	Ret    Kind
	Body   []Stmt
	Export bool
	Vars   []*Var // every local, parameters first
	Locals int    // cells of non-parameter locals, set by allocation
	nextID int

	Code  []Insn  // bytecode, set by the code generator
	Stack int     // maximum operand stack depth in cells
	Size  int     // bytecode size in bytes
	Index int     // position in the class's method table
	Pos   sem.Pos // the source function's declaration (zero for the runtime's)
	// carryInt marks the class's method reading an int from carry.
	carryInt bool
	// fn is the module's function the method (or the piece of one that
	// split made) was compiled from; nil for the runtime's.
	fn *ir.Function
}

// newVar adds a local of kind k to m.
func (m *Method) newVar(k Kind) *Var {
	v := &Var{ID: m.nextID, Kind: k, Slot: -1}
	m.nextID++
	m.Vars = append(m.Vars, v)
	return v
}

// Class is the generated library class.
type Class struct {
	Name    string
	Fields  []*Arr // static arrays: transient work arrays and constant tables
	Methods []*Method
	Exports []*Export
	W       int
	IntArrs bool // u32 work arrays as int[] (the notebook's int-array variant)
	Carry   *Arr // the transient short array multi-result methods return through
	// Funcs are the methods of the module's functions that calls reach
	// (exported or not), by IR function.
	Funcs map[*ir.Function]*Method
	// mod is the module the class was generated from.
	mod *ir.Module
}

// Export describes how an exported Lowent function maps onto its method.
type Export struct {
	Name   string
	Method *Method
	Fn     interface{} // *ir.Function
}
