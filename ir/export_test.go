package ir

// The tests are in package ir_test, so that they can build modules from
// source with package lower (which imports ir). These are the internals
// they reach.

var (
	PassFeatures = features
	PassInline   = inline
	PassFold     = fold
	PassSroa     = sroa
	PassCopyprop = copyprop
	PassUnroll   = unroll
	PassCSE      = cse
	PassDCE      = dce
	PassLegalize = legalize
	IsConst      = isConst
	ArgOr        = argOr
)

// SetMaxFunctionSize sets the inliner's size limit and returns the old one.
func SetMaxFunctionSize(n int) (old int) {
	old, maxFunctionSize = maxFunctionSize, n
	return old
}

// CheckPipeline checks ps against the pipeline's order constraints.
func CheckPipeline(ps []Pass) error { return checkPipeline(ps, passOrder) }
