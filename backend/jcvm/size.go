package jcvm

// Code size is a goal of this backend as much as speed: a JCOP4 card takes
// one compact CAP file per package, whose Method component holds at most
// 65,535 bytes, and the standard library's modules must fit it with room
// to spare. The default layout (--storage auto) therefore asks the IR
// pipeline for two budgets instead of inlining and unrolling everything:
//
//   - sizeInline: a function whose optimized, legalized body has more IR
//     instructions stays a call, to a static method that every export of
//     the module shares (lower_call.go), unless it has a single call site.
//     BLAKE2b's compression (called from three places in two exports)
//     is one method; byte swaps and small helpers are inlined.
//   - sizeUnroll: a loop is unrolled fully only when trips × body stays
//     within this many instructions. BLAKE2b's 12 rounds stay a loop
//     (stdlib/blake2b.lw keeps its message words in variables, reordered
//     between rounds by constant permutations), and so do SHA-256's rounds.
//
// Measured (jcop4, `bench --block`, per block): BLAKE2b 94.1 ms (band to
// 142.7 ms) with int, 259.8 ms (to 393.9 ms) with --no-int, against 87.4
// and 257.8 ms all inlined and unrolled, for 13,275 and 17,869 bytes of bytecode
// instead of 315,238 and 715,739.
//
// The forced layouts (locals, arrays, pairs) reproduce the calibration's
// variants and keep inlining everything.
const (
	sizeInline = 200
	sizeUnroll = 1000
)
