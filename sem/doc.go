// Package sem is the target-independent meaning of Lowent, shared by the
// checker, the VM, the IR and every backend: source positions and
// positioned diagnostics, the values exports take and return, the
// hardware features, the operators and their meaning on words (op.go),
// the reference semantics of the arithmetic builtins,
// and the one-line faults every target reports for a broken contract.
//
// It imports no other package of the compiler, so that a backend can
// depend on it (and on package ir) without depending on the syntax tree.
package sem
