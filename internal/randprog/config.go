// Package randprog generates random, well-typed, terminating Lowent programs
// and random arguments for their entry points. Its tests run every generated
// program on the reference VM and on the IR interpreter at every limb width
// and require the same answers (differential testing).
//
// The generator keeps its own model of types, scopes and of what the
// checker can prove (bounds, non-zero divisors), so that it never depends on
// the checker it is testing: a generated program the checker rejects is a
// bug in one of the two, and the tests print it. About half of the functions
// are generated "pure" (only proven accesses and divisions, so that they
// declare `effects none`); the others take run-time checks that fail on some
// arguments, so that traps are compared too.
//
// The tests read LOWENT_LONG (internal/testlong: 1000 programs instead of
// 200), LOWENT_RANDPROG_N (programs; 100 with -short), LOWENT_RANDPROG_SEED0
// (first seed, default 1),
// LOWENT_RANDPROG_LARGE (every program large) and LOWENT_RANDPROG_VERIFY
// (run the IR checker after every pass for every program). A failure prints
// the seed, the source, the arguments, both outcomes and the command that
// replays it.
package randprog

// MaxSliceLen is the longest slice argument Args produces; the generator
// counts loops over a slice's length as this many iterations.
const MaxSliceLen = 40

// Config bounds the size of generated programs. A zero field takes its value
// from DefaultConfig.
type Config struct {
	MaxHelpers  int // helper (non-exported) functions: 0..MaxHelpers
	MaxExports  int // exported entry points: 1..MaxExports
	MaxParams   int // parameters per function
	MaxStmts    int // statements per function body, nested ones included
	MaxDepth    int // block nesting depth inside a function
	MaxExpr     int // expression nesting depth
	MaxIter     int // largest product of the trip counts of nested loops
	MaxWork     int // estimated statement executions per call of an export
	MaxConsts   int // module constants
	NoArrayRets bool
	MulW        bool // also generate mulw, the double-width product
	Parallel    bool // also generate parallel assignments a, b = E1, E2

	// The shapes below are off in the zero Config (so that Config{} keeps
	// giving the programs it always gave) and on in the tests' configFor.

	// Modules is the largest number of generated modules (rndlib0, ...)
	// the root imports: each has its own constants and helpers, a later
	// one imports the earlier ones, and the root calls them qualified.
	Modules int
	// HaveBranches adds `if have FEATURE { ... } else { ... }` statements,
	// with the feature's builtins in the first branch.
	HaveBranches bool
	// ElemTargets lets a multi-result call assign to array elements
	// (`a[i], b[j] = h(x)`), not only to locals.
	ElemTargets bool
}

// withShapes is c with every optional shape turned on.
func (c Config) withShapes() Config {
	c.Modules = 2
	c.HaveBranches = true
	c.ElemTargets = true
	return c
}

// DefaultConfig is the size used by the tests: small programs that run in
// well under a millisecond on the VM, yet nest loops, calls and arrays deeply
// enough to exercise inlining, unrolling and scalar replacement.
func DefaultConfig() Config {
	return Config{
		MaxHelpers: 4,
		MaxExports: 3,
		MaxParams:  5,
		MaxStmts:   28,
		MaxDepth:   3,
		MaxExpr:    3,
		MaxIter:    160,
		MaxWork:    1200,
		MaxConsts:  6,
	}
}

// withDefaults fills the zero fields of c.
func (c Config) withDefaults() Config {
	d := DefaultConfig()
	set := func(p *int, v int) {
		if *p <= 0 {
			*p = v
		}
	}
	set(&c.MaxHelpers, d.MaxHelpers)
	set(&c.MaxExports, d.MaxExports)
	set(&c.MaxParams, d.MaxParams)
	set(&c.MaxStmts, d.MaxStmts)
	set(&c.MaxDepth, d.MaxDepth)
	set(&c.MaxExpr, d.MaxExpr)
	set(&c.MaxIter, d.MaxIter)
	set(&c.MaxWork, d.MaxWork)
	set(&c.MaxConsts, d.MaxConsts)
	return c
}
