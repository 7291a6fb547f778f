package ir_test

import . "github.com/lowent/lowentc/ir"

// The unexported names of package ir the tests use (export_test.go).
var (
	features   = PassFeatures
	inline     = PassInline
	fold       = PassFold
	sroa       = PassSroa
	copyprop   = PassCopyprop
	unroll     = PassUnroll
	cse        = PassCSE
	dce        = PassDCE
	legalize   = PassLegalize
	walkInstrs = WalkInstrs
	isConst    = IsConst
	argOr      = ArgOr
)
