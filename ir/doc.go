// Package ir is lowentc's target-independent middle: a word-level SSA IR with
// structured control flow, its printer, checker (Verify) and interpreter
// (Run), the optimization passes, and the legalization to limbs of a target
// width W. Package lower builds a module from a checked program; every
// backend consumes a legalized module from lower.Compile. Package ir
// depends on the language only through package sem, never on the syntax
// tree.
//
// # Values and types
//
// A value (*Value) has a type: bool or an unsigned word u8, u16, u32, u64.
// Values are defined once (by an instruction, as a loop's index or
// loop-carried value, or as a scalar parameter) and used only where their
// definition is in scope: earlier in the same block or in an enclosing block.
// Arithmetic wraps; a bool is 0 or 1.
//
// # Memory
//
// Arrays are not values but memory objects (*Array) of words or bools,
// nested Lowent arrays flattened row-major. An array is a function's local
// (its static frame: lowered code writes every element before reading it; the
// interpreter clears locals on entry), a parameter (a fixed array, or a slice
// whose length `len` reads at run time) or a module global (a read-only
// constant table). load, store, loadle/loadbe and storele/storebe access
// them; every index, byte offset and length is a u32 (IndexType). Accesses
// the checker could not prove in bounds are guarded by explicit check ops, so
// an access itself never fails, except unchecked_get/unchecked_set out of
// range, whose behaviour is undefined (the interpreter reports an error).
//
// # Control flow
//
// A function body is one block ending in `return`. `if c {..} else {..}` and
// `for i = lo to hi {..}` own nested blocks that end in `yield`. Values flow
// out of them explicitly: an if's results are what its branches yield; a for
// has loop-carried values (initial values, block parameters after the index,
// and the values its body yields for the next iteration) and its results are
// their final values. The index runs from lo while it is below hi, and is
// read-only; the bounds are evaluated once. There are no other jumps: an early
// `return` in the source becomes a "returned" flag that guards what follows.
//
// Before sroa, lowered code keeps assigned scalar variables in one-element
// local arrays ("cells"); sroa promotes them (and any local array indexed only
// by constants) to SSA values, adding if results and loop-carried values.
//
// # Operations
//
// See op.go. Pure ops: const, copy, add, sub, mul, divu (x/0 = all ones),
// remu (x%0 = x), and, or, xor, not, neg, shl/shr (an amount of any word type;
// >= width gives 0), rotl/rotr (amount mod width), fshl/fshr (funnel shifts by
// a constant: fshl(hi, lo, n) = high half of (hi:lo) << n, fshr(hi, lo, n) =
// low half of (hi:lo) >> n), eq, ne, ult, ule (bool results), zext, trunc,
// select, addc/subb (a, b, carry-in bool -> sum or difference, carry-out or
// borrow-out bool), mulw (low and high halves of the double-width product),
// clmul_lo, clmul_hi, aes_enc, aes_enclast (sem.ClmulLo etc.). Effects:
// store, storele/storebe, check (stop with a position and message when the
// condition is false; its kind says why: bounds, requires, chunks, div, or
// entry for an exported function's requires, a fault of the caller), call,
// trace (host output; ignored by the interpreter).
//
// A call passes each array argument as a region: the array (in Arrs) plus
// two u32 arguments after the scalar ones, its first element and its length
// in elements. An array result travels through a hidden trailing `mut`
// parameter. Function.Sig keeps the source-level signature.
//
// The IR means separate buffers: each parameter is its own array. At the
// boundary an exported function's array parameters (and hidden results)
// may be the very same buffer, never a partial overlap, which the
// backends' entry code refuses as a fault (docs/language.md, "Exported
// functions"). In place then means what separate buffers mean when the
// function reads each input element before it writes the same output
// element and not after; a backend keeps, at the same element index, a
// load of one parameter array before a later store to another, and may
// reorder accesses to different indices. A failed entry check is the
// error CheckInfo.Err gives: the sem.Fault of its requires clause.
//
// # Calls
//
// Options.InlineBudget decides which calls the inline pass keeps (see
// inline.go): by default none, so each export is one call-free function;
// with a positive budget (or InlineNone), calls of big functions stay OpCall
// and their callees stay in the module, a non-exported one as long as
// something calls it. m.Funcs lists every callee before its callers. What a
// backend may rely on for a kept call:
//   - there is no recursion (Verify checks it), so every function may have
//     one static frame;
//   - a callee writes only locals (its own and its callees') and the
//     regions passed to its `mut` array parameters (among them hidden array
//     results); a `mut` region never overlaps another array argument of the
//     same call (the checker's rule), so read-only parameters, globals and
//     the caller's other arrays are unchanged by the call;
//   - a callee's locals are written before they are read on every call
//     (the interpreter clears them on entry; a backend need not);
//   - a callee's checks trap as they would inline; a call is removed only
//     when its results are unused and its callee (transitively) has no
//     check, trace or store to a parameter array.
//
// After legalization a kept call's Args are the limbs of its scalar
// arguments (one per limb parameter of the legalized callee, in order), then
// for each array argument two IndexType limb groups, the region's offset and
// length, still counted in source elements: the callee sees limbs
// [off*Per, (off+len)*Per) of Arrs[i], whose Per equals its parameter's.
// Results are the limbs of the callee's results, in order.
//
// # Legalization
//
// After legalize (Module.W = W) no value is wider than W. A wider value is a
// group of W-bit limbs, least significant first; function parameters and
// results, if results and loop-carried values are split the same way. Where
// an op takes a u32 index, offset or loop bound, or a u64 builtin operand,
// it takes the limb group in its place (for example `load a[%i0, %i1]` at
// W=16). An array of words wider than W holds Array.Per limbs per element
// (element i's limb j at index i*Per+j) and `len` still counts elements.
// Byte-order accesses are at most W bits wide (plain byte loads and stores at
// W=8). add/sub are addc/subb chains, mul is schoolbook over mulw, divu/remu
// become a shift-and-subtract loop, rotates by multiples of W are renamings
// and other constant shifts are funnel shifts. clmul and AES ops keep their
// 64-bit meaning on limb groups: a backend computes them as it likes.
//
// # 128-bit values
//
// There is no 128-bit type. A 128-bit quantity of the source (an AES block,
// a GF(2^128) element, a 16-byte chunk of a message) is in pair form: two
// u64 words, stored and loaded by two 64-bit accesses at consecutive words
// of one array (a u64 element each, or eight bytes of a byte array), the
// lower address first. FindPairs128 (pairs.go) is the analysis that finds
// them in a block: the load pairs and store pairs that can be one 128-bit
// access, and the chains of store pairs at consecutive addresses, so that
// a target with 128-bit registers moves each pair as one value.
//
// # Text
//
// The printer numbers values %0, %1, ... in program order and shows each
// definition with its type (`%3:u64 = add %1, %2`); it is stable, so dumps
// can be compared as golden files. `lowentc -d dump=PASS` prints the IR after
// a pass (Options.DumpAfter).
//
// # Pipeline
//
// lower.Compile = lower.Program, then Optimize: Passes in order: inline (policy
// Options.InlineBudget), then rounds of fold, sroa, copyprop, unroll (budget
// Options.Unroll, per function; partial by Options.UnrollFactor), cse and dce, then legalize (when
// Options.W > 0) and a last cleanup. Every pass works function by function
// and accepts calls. Each pass is one file whose header says
// what it requires and preserves; tests run Verify after every pass and
// compare Run at every width with the reference VM.
package ir
