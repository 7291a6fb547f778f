// Package lang holds the Lowent abstract syntax tree, its types, the checker
// (name resolution, type checking, constant evaluation, effect inference,
// `requires` discharge) and the diagnostics every stage reports.
//
// The parser builds the tree with a position on every node. The checker fills
// the fields marked "set by the checker"; the VM, the IR lowering and the
// backends read only checked trees.
package lang

// Node is any syntax tree node.
type Node interface{ Position() Pos }

// ---------------------------------------------------------------- files

// File is one parsed .lw source: one module.
type File struct {
	Pos     Pos
	Module  string
	Imports []*Import
	Consts  []*ConstDecl
	Funcs   []*FuncDecl
	Src     []byte // the source text, for diagnostics
}

// Import names another module: `import crypto_hw`.
type Import struct {
	Pos  Pos
	Name string
}

// ConstDecl is `const NAME: TYPE = EXPR`.
type ConstDecl struct {
	Pos      Pos
	Name     string
	TypeExpr *TypeExpr
	Value    Expr

	Type Type      // set by the checker
	Val  *ConstVal // set by the checker: the evaluated value
}

// ConstVal is an evaluated constant: a word (or bool as 0/1), or an array.
type ConstVal struct {
	Word  uint64
	Elems []*ConstVal // non-nil for arrays
}

// TypeExpr is a written type: a name (u8 u16 u32 u64 bool), `[N]T`, `[]T`,
// or a result tuple `(T, U)`.
type TypeExpr struct {
	Pos   Pos
	Name  string    // "u8", "u16", "u32", "u64", "bool"; empty for arrays, slices, tuples
	Len   Expr      // `[N]T`: the length; nil for a slice or a name
	Slice bool      // `[]T`
	Elem  *TypeExpr // element type of an array or slice
	Tuple []*TypeExpr
}

func (t *TypeExpr) Position() Pos { return t.Pos }

// Param is a function parameter; `mut` makes an array or slice writable.
type Param struct {
	Pos      Pos
	Name     string
	Mut      bool
	TypeExpr *TypeExpr

	Type Type    // set by the checker
	Sym  *Symbol // set by the checker
}

// FuncDecl is a function: `[export] fn NAME(PARAMS) [-> RESULTS] [requires
// E, ...] [effects none | effects E, ...] { BODY }`.
type FuncDecl struct {
	Pos      Pos
	Name     string
	Export   bool
	Params   []*Param
	Results  []*TypeExpr
	Requires []Expr
	// RequiresSrc is set by the parser: each requires condition's start
	// and text, for the fault a failed one is (RequiresFault).
	RequiresSrc []SrcText
	Effects     *EffectsDecl // nil when not declared
	Body        *Block
	File        *File

	ResultTypes []Type     // set by the checker
	Inferred    EffectSet  // set by the checker: effects of the body and callees
	Features    FeatureSet // set by the checker: hardware features its builtins may use
	Locals      []*Symbol  // set by the checker: every parameter and local, numbered by Symbol.Slot
}

func (f *FuncDecl) Position() Pos { return f.Pos }

// QualName is MODULE.NAME, the name used in diagnostics and by backends.
func (f *FuncDecl) QualName() string { return f.File.Module + "." + f.Name }

// EffectsDecl is the declared effect set of a function (`effects none` has no
// names).
type EffectsDecl struct {
	Pos   Pos
	Names []string
	Set   EffectSet // set by the checker
}

// ---------------------------------------------------------------- statements

// Stmt is a statement.
type Stmt interface {
	Node
	stmt()
}

// Block is `{ STMT* }`.
type Block struct {
	Pos   Pos
	Stmts []Stmt
}

// LetStmt is `let x[: T] = E`, `var x[: T] [= E]`, or the destructuring
// `let (a, b) = f(...)` / `var (a, b) = f(...)`.
type LetStmt struct {
	Pos      Pos
	Mutable  bool     // var
	Names    []string // more than one: destructuring of a multi-result call
	TypeExpr *TypeExpr
	Value    Expr // nil: `var x: T` starts as zero

	Syms []*Symbol // set by the checker, one per name ("_" gets a symbol too)
}

// AssignStmt is `LHS = E`, `LHS op= E`, `a, b = f(...)`, or the parallel
// `a, b = E1, E2` (Values, one per target; Value is nil).
// Op is sem.OpNone for `=`, else the operator of `OP=` (one of + - * / % &
// | ^ << >> <<< >>>).
type AssignStmt struct {
	Pos     Pos
	Targets []Expr // *Ident or *IndexExpr
	Op      BinOp
	Value   Expr
	Values  []Expr // parallel assignment: all evaluated before any target is written

	Checked bool // set by the checker: /= or %= by a divisor not proven non-zero (trap)
}

// OpText is the assignment operator as written: "=", "+=", "<<<=", ...
func (s *AssignStmt) OpText() string { return s.Op.String() + "=" }

// ExprStmt is a call evaluated for its effect on `mut` arguments.
type ExprStmt struct {
	Pos Pos
	X   Expr
}

// IfStmt is `if C { } [else if ... | else { }]`. Else is nil, *Block or *IfStmt.
type IfStmt struct {
	Pos  Pos
	Cond Expr
	Then *Block
	Else Stmt
}

// ForStmt is `for i in LO..HI { }`: i takes LO, LO+1, ..., HI-1 (none when
// LO >= HI). The bounds are evaluated once, before the first iteration.
type ForStmt struct {
	Pos  Pos
	Var  string
	Lo   Expr
	Hi   Expr
	Body *Block

	Sym *Symbol // set by the checker
}

// ForChunksStmt is `for [i,] v1, ..., vn in chunks(s1, ..., sn, N) { }`:
// iteration k binds vj to elements [k*N, k*N+N) of sj as a `[N]T` view
// (writable when sj is), for every whole chunk of s1; i is the chunk index
// (u32). All sources must have the same length.
type ForChunksStmt struct {
	Pos     Pos
	Index   string // "" when not written
	Vars    []string
	Sources []Expr
	Size    Expr
	Body    *Block

	IndexSym  *Symbol   // set by the checker (nil when Index is "")
	VarSyms   []*Symbol // set by the checker
	SizeVal   int       // set by the checker
	CheckLens bool      // set by the checker: lengths not proven equal, checked at run time
}

// ReturnStmt is `return [E, ...]`.
type ReturnStmt struct {
	Pos    Pos
	Values []Expr
}

// AbsorbStmt is `absorb E[, E] because "REASON" { }`: the listed effects of the
// body do not travel to the enclosing function. REASON must not be empty.
type AbsorbStmt struct {
	Pos     Pos
	Effects []string
	Reason  string
	Body    *Block

	Set EffectSet // set by the checker
}

func (s *Block) Position() Pos         { return s.Pos }
func (s *LetStmt) Position() Pos       { return s.Pos }
func (s *AssignStmt) Position() Pos    { return s.Pos }
func (s *ExprStmt) Position() Pos      { return s.Pos }
func (s *IfStmt) Position() Pos        { return s.Pos }
func (s *ForStmt) Position() Pos       { return s.Pos }
func (s *ForChunksStmt) Position() Pos { return s.Pos }
func (s *ReturnStmt) Position() Pos    { return s.Pos }
func (s *AbsorbStmt) Position() Pos    { return s.Pos }

func (*Block) stmt()         {}
func (*LetStmt) stmt()       {}
func (*AssignStmt) stmt()    {}
func (*ExprStmt) stmt()      {}
func (*IfStmt) stmt()        {}
func (*ForStmt) stmt()       {}
func (*ForChunksStmt) stmt() {}
func (*ReturnStmt) stmt()    {}
func (*AbsorbStmt) stmt()    {}

// ---------------------------------------------------------------- expressions

// Expr is an expression. Type() is set by the checker: untyped integer
// literals get the type their context gives them.
type Expr interface {
	Node
	Type() Type
	SetType(Type)
}

// ExprBase carries what every expression has: a position and, once checked, a type.
type ExprBase struct {
	Pos Pos
	T   Type
}

func (e *ExprBase) Position() Pos  { return e.Pos }
func (e *ExprBase) Type() Type     { return e.T }
func (e *ExprBase) SetType(t Type) { e.T = t }

// IntLit is an integer literal (decimal, 0x hex or 0b binary; `_` separators allowed).
type IntLit struct {
	ExprBase
	Val  uint64
	Text string
}

// BoolLit is `true` or `false`.
type BoolLit struct {
	ExprBase
	Val bool
}

// HaveExpr is `have FEATURE`: true where the code runs on hardware with
// that feature. It is a constant of each compiled version of a function
// (a target without the feature, or a dispatch variant, folds it), so
// `if have sha { ... } else { ... }` keeps one branch per version; both
// branches must compute the same answer.
type HaveExpr struct {
	ExprBase
	Feature string

	Feat Feature // set by the checker
}

// Ident is a name, possibly qualified by a module: `x`, `crypto_hw.K`.
type Ident struct {
	ExprBase
	Module string
	Name   string

	Sym *Symbol // set by the checker
}

// ArrayLit is `[E, E, ...]`, allowed where an array type is expected.
type ArrayLit struct {
	ExprBase
	Elems []Expr
}

// IndexExpr is `X[I]`.
type IndexExpr struct {
	ExprBase
	X     Expr
	Index Expr

	Checked bool // set by the checker: not proven in bounds, checked at run time (trap)
}

// CallExpr is `[MODULE.]NAME(ARGS)`: a function or a builtin.
type CallExpr struct {
	ExprBase
	Module string
	Name   string
	Args   []Expr

	Func          *FuncDecl // set by the checker: the callee, or nil for a builtin
	Builtin       *Builtin  // set by the checker
	CheckRequires bool      // set by the checker: callee's requires not proven, checked at run time (trap)
	Checked       bool      // set by the checker: a builtin's own bounds not proven (byte loads/stores)
}

// UnaryExpr is `-X`, `~X` or `!X`.
type UnaryExpr struct {
	ExprBase
	Op UnOp
	X  Expr
}

// BinaryExpr is `L op R`. Op is one of + - * / % & | ^ << >> <<< >>> == != < <= > >= && ||
// (never sem.OpNone).
type BinaryExpr struct {
	ExprBase
	Op   BinOp
	L, R Expr

	Checked bool // set by the checker: / or % by a divisor not proven non-zero (trap)
}

// CastExpr is `X as T`: words are truncated or zero-extended; bool becomes 0 or 1.
type CastExpr struct {
	ExprBase
	X  Expr
	To *TypeExpr
}

// ParenExpr keeps `(E)` so diagnostics can point at it; it has E's type.
type ParenExpr struct {
	ExprBase
	X Expr
}

// Unparen is e without the parentheses around it.
func Unparen(e Expr) Expr {
	for {
		p, ok := e.(*ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// ---------------------------------------------------------------- symbols

// SymKind says what a name stands for.
type SymKind int

const (
	SymLocal   SymKind = iota // let / var
	SymParam                  // function parameter
	SymLoopVar                // for-loop index (read-only)
	SymView                   // chunk view bound by for ... in chunks(...)
	SymConst                  // module constant
	SymFunc                   // function
)

// Symbol is what a name resolves to.
type Symbol struct {
	Name    string
	Kind    SymKind
	Type    Type
	Mutable bool // may be assigned (var), or written through (mut array/slice, writable view)
	Pos     Pos
	Slot    int        // locals and params: index in FuncDecl.Locals
	Const   *ConstDecl // SymConst
	Func    *FuncDecl  // SymFunc
	Of      *Symbol    // SymView: the slice or array symbol it views, when the source is a name

	// What the checker knows about a slice's length: MinLen <= len <= MaxLen.
	// MaxLen < 0 means unbounded. For fixed arrays both equal the length.
	MinLen int64
	MaxLen int64
}
