package lang_test

import (
	"testing"

	"github.com/lowent/lowentc/lang"
)

// TestAccepts checks programs the checker must accept, one rule each.
func TestAccepts(t *testing.T) {
	for name, src := range acceptedPrograms {
		t.Run(name, func(t *testing.T) { mustCheck(t, src) })
	}
}

// acceptedPrograms are valid programs, one rule each.
var acceptedPrograms = map[string]string{
	"doc first program": `module mix
const ROT: [2]u32 = [7, 9]
fn mix(x: u32) -> u32 {
    var v = x
    for i in 0..2 {
        v ^= v <<< ROT[i]
        v += 0x9e3779b9
    }
    return v
}
export fn mix_all(words: mut []u32) effects none {
    for i in 0..len(words) {
        words[i] = mix(words[i])
    }
}`,
	"have picks a branch": `module t
export fn f(x: u32) -> u32 effects none {
    if have sha && !have aes {
        let (a, b, c, d) = sha256_msg1(x, x, x, x, x, x, x, x)
        return a ^ b ^ c ^ d
    }
    return x
}`,
	"have ifma": `module t
export fn f(x: u64) -> u64 effects none {
    if have ifma {
        let (lo, hi) = mulw(x & 0xf_ffff_ffff_ffff, x & 0xf_ffff_ffff_ffff)
        return (lo & 0xf_ffff_ffff_ffff) ^ ((hi << 12) | (lo >> 52))
    }
    return x
}`,
	"untyped takes the other operand's type": `module t
fn f(x: u8) -> u8 { return x + 255 }`,
	"untyped in declared let": `module t
fn f() -> u64 { let x: u64 = 0xffff_ffff_ffff_ffff return x }`,
	"untyped constant arithmetic": `module t
fn f() -> u8 { let x: u8 = (200 + 55) / 5 * 5 return x }`,
	"complement and negation take the width": `module t
fn f() -> u32 { let a: u32 = ~0 let b: u32 = -1 return a ^ b }`,
	"explicit casts": `module t
fn f(x: u64, b: bool) -> u32 { return (x as u32) + (b as u32) + (x as u8 as u32) }`,
	"shift amount any word type": `module t
fn f(x: u64, n: u8, m: u32) -> u64 { return (x << n) >> m <<< 3 >>> (n as u64) }`,
	"untyped shifted by a variable": `module t
fn f(n: u32) -> u64 { let m: u64 = 1 << n return m }`,
	"comparisons and bool ops": `module t
fn f(x: u32, y: u32) -> bool { return x < y && !(x == 3) || y >= 7 && true != false }`,
	"for defaults to u32": `module t
fn f() -> u32 { var s: u32 for i in 0..16 { s += i } return s }`,
	"for takes a typed bound's type": `module t
fn f(n: u8) -> u8 { var s: u8 for i in 0..n { s ^= i } return s }`,
	"array copy and literal": `module t
fn f(a: [4]u32) -> u32 {
    var b: [4]u32 = [1, 2, 3, 4]
    b = a
    let c = b
    var d: [2][2]u8 = [[1, 2], [3, 4]]
    d[1] = [5, 6]
    d[0][1] = 7
    return c[3] + (d[1][0] as u32)
}`,
	"array to slice at call": `module t
fn sum(s: []u32) -> u32 { var x: u32 for i in 0..len(s) { x += s[i] } return x }
fn f(a: [4]u32) -> u32 { var b: [8]u32 return sum(a) + sum(b) }`,
	"mut parameters": `module t
fn fill(out: mut []u8, v: u8) { for i in 0..len(out) { out[i] = v } }
fn g(buf: mut [16]u8) { var x: [4]u8 fill(x, 1) fill(buf, 2) }`,
	"mut nested array elements": `module t
fn inc(a: mut [4]u32) { a[0] += 1 }
fn f() { var s: [2][4]u32 inc(s[0]) inc(s[1]) }`,
	"distinct elements of one array may both be passed": `module t
fn cp(dst: mut [4]u32, src: [4]u32) { dst = src }
fn f() { var s: [2][4]u32 cp(s[0], s[1]) }`,
	"multiple results": `module t
fn two(x: u64) -> (u64, u64) { return x, x + 1 }
fn f() -> u64 {
    let (a, b) = two(1)
    var (c, _) = two(a)
    c, _ = two(c)
    c += b
    let (lo, hi) = aes_enc(a, b, c, 0)
    return c ^ lo ^ hi
}`,
	"call for its effect may drop a result": `module t
fn g(a: mut [1]u8) -> u8 { a[0] = 1 return 2 }
fn f() { var a: [1]u8 g(a) }`,
	"shadowing an enclosing block": `module t
fn f(x: u32) -> u32 { var y = x { let y: u32 = 3 let x = y } return y }`,
	"every path returns": `module t
fn f(x: u32) -> u32 {
    if x == 0 { return 1 } else if x == 1 { return 2 } else { absorb trap because "t" { return x / (x - 1) } }
}`,
	"builtins": `module t
fn f(b: mut [16]u8, s: []u8) -> u64 {
    store_le64(b, 0, load_be64(b, 8))
    store_be16(b, 14, load_le16(b, 0))
    store_le32(b, 4, load_be32(b, 0))
    let x = select(load_le32(b, 4) == 0, 1, 2 as u64)
    let y = clmul_lo(x, 3) ^ clmul_hi(x, 0x87)
    let r = rest(s, 16)
    return y + (len(r) as u64) + (len(s) as u64)
}`,
	"select of bools and of untyped in context": `module t
fn f(c: bool, d: bool) -> u32 { let e = select(c, d, false) let x: u32 = select(e, 1, 2) return x }`,
	"constants across declarations in any order": `module t
const B: [N]u8 = [1, 2, 3, A]
const A: u8 = N * 2
const N: u8 = 4
const M: [2][2]u8 = [[1, 2], [3, 4]]
const X: u8 = M[1][0] + B[3] + (len(B) as u8)
fn f() -> u8 { let t: [X]u8 = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] return t[X - 1] }`,
	"trace": `module t
export fn f(x: u32) effects io { trace(x, x as u8) }`,
	"parenthesised call destructuring": `module t
fn two() -> (u8, u8) { return 1, 2 }
fn f() -> u8 { let (a, b) = (two()) return a + b }`,
	"let-bound rest": `module t
fn f(s: []u8) -> u8 { let r = rest(s, 4) var x: u8 for i in 0..len(r) { x ^= r[i] } return x }`,
}

// TestTypeErrors: each '@' marks where the message is reported.
func TestTypeErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"let without type", `module t
fn f() { let x = @5 }`, []string{"cannot infer the type of x from constant 5"}},
		{"literal too big for the declared type", `module t
fn f() { let x: u8 = @300 }`, []string{"constant 300 overflows u8"}},
		{"literal too big for a cast", `module t
fn f() -> u8 { return @300 as u8 }`, []string{"constant 300 overflows u8"}},
		{"literal too big for the other operand", `module t
fn f(x: u8) -> u8 { return x + @256 }`, []string{"constant 256 overflows u8"}},
		{"negative constant", `module t
fn f() -> u32 { return @1 - 2 }`, []string{"constant -1 overflows u32"}},
		{"part of a constant expression overflows", `module t
fn f() -> u8 { return (@250 + 10) - 100 }`, []string{"constant 260 overflows u8"}},
		{"no implicit widening", `module t
fn f(a: u32, b: u64) -> u64 { var x: u64 = @a return x }`, []string{"cannot use u32 as u64 in declaration of x"}},
		{"assignment type", `module t
fn f(a: u32, b: u64) { var x = a x = @b }`, []string{"cannot use u64 as u32 in assignment"}},
		{"mismatched operands", `module t
fn f(a: u32, b: u64) -> u64 { return a @+ b }`, []string{"mismatched types u32 and u64 in +"}},
		{"mismatched comparison", `module t
fn f(a: u32, b: u8) -> bool { return a @< b }`, []string{"mismatched types u32 and u8 in <"}},
		{"word is not bool", `module t
fn f(a: u32) { if @a { } }`, []string{"if condition must be bool, not u32"}},
		{"no conversion to bool", `module t
fn f(a: u32) -> bool { return a @as bool }`, []string{"cannot convert u32 to bool"}},
		{"bool arithmetic", `module t
fn f(a: bool) -> bool { return a @+ a }`, []string{"operator + is not defined on bool"}},
		{"ordering bools", `module t
fn f(a: bool) -> bool { return a @< a }`, []string{"operator < is not defined on bool"}},
		{"not on a word", `module t
fn f(a: u32) -> bool { return @!a }`, []string{"operator ! needs a bool operand, not u32"}},
		{"&& on words", `module t
fn f(a: u32) -> bool { return @a && true }`, []string{"operator && needs bool operands, not u32"}},
		{"comparing two untyped constants", `module t
fn f() -> bool { return 1 @< 2 }`, []string{"cannot compare two untyped constants"}},
		{"constant division by zero", `module t
fn f(x: u32) -> u32 { return x / @0 }`, []string{"division by zero"}},
		{"untyped division by zero", `module t
fn f() -> u32 { return 1 / @0 }`, []string{"division by zero"}},
		{"shift amount must be a word", `module t
fn f(x: u32) -> u32 { return x << @true }`, []string{"shift amount must be a word, not bool"}},
		{"array literal without array context", `module t
fn f() { let x = @[1, 2] }`, []string{"cannot infer the type of an array literal"}},
		{"array literal for a word", `module t
fn f() { let x: u32 = @[1, 2] }`, []string{"cannot use an array literal as u32"}},
		{"array literal length", `module t
fn f() { let x: [3]u8 = @[1, 2] }`, []string{"array literal has 2 elements, [3]u8 needs 3"}},
		{"array assignment needs identical types", `module t
fn f(a: [4]u32) { var b: [5]u32 b = @a }`, []string{"cannot use [4]u32 as [5]u32 in assignment"}},
		{"array element type", `module t
fn f(a: [4]u32) { var b: [4]u64 = @a }`, []string{"cannot use [4]u32 as [4]u64 in declaration of b"}},
		{"array length zero", `module t
fn f() { var b: [@0]u8 }`, []string{"array length must be between 1 and 65536, not 0"}},
		{"array length too big", `module t
fn f() { var b: [@65537]u8 }`, []string{"array length must be between 1 and 65536, not 65537"}},
		{"array length must be constant", `module t
fn f(n: u32) { var b: [@n]u8 }`, []string{"an array length must be constant: n is not a constant"}},
		{"slice only as parameter", `module t
fn f() { var b: @[]u8 }`, []string{"slice type []u8 is only allowed for parameters"}},
		{"slice of arrays", `module t
fn f(s: @[][2]u8) { }`, []string{"slice element type must be a word type, not [2]u8"}},
		{"bool arrays", `module t
fn f(s: [2]@bool) { }`, []string{"array element type must be a word or array type, not bool"}},
		{"unknown type", `module t
fn f(s: @u128) { }`, []string{"unknown type u128"}},
		{"mut on a word", `module t
fn f(@x: mut u32) { }`, []string{"mut is only allowed on array and slice parameters, not u32"}},
		{"index a word", `module t
fn f(x: u32) -> u32 { return x@[0] }`, []string{"cannot index u32"}},
		{"index must be a word", `module t
fn f(x: [2]u32) -> u32 { return x[@true] }`, []string{"index must be a word, not bool"}},
		{"constant index out of bounds", `module t
fn f(x: [2]u32) -> u32 { return x[@2] }`, []string{"index 2 out of bounds for [2]u32"}},
		{"undefined name", `module t
fn f() -> u32 { return @y }`, []string{"undefined: y"}},
		{"undefined function", `module t
fn f() { @g() }`, []string{"undefined: g"}},
		{"function as value", `module t
fn g() { }
fn f() -> u32 { return @g }`, []string{"function g is not a value"}},
		{"calling a variable", `module t
fn f(x: u32) { @x() }`, []string{"x is not a function"}},
		{"blank as value", `module t
fn f() -> u32 { return @_ }`, []string{"_ is not a value"}},
		{"argument count", `module t
fn g(a: u32, b: u32) { }
fn f() { @g(1) }`, []string{"g takes 2 arguments, got 1"}},
		{"argument type", `module t
fn g(a: u32) { }
fn f(x: u64) { g(@x) }`, []string{"cannot use u64 as u32 in argument 1 of g"}},
		{"argument to slice parameter", `module t
fn g(a: []u32) { }
fn f(x: [4]u64) { g(@x) }`, []string{"cannot use [4]u64 as []u32 in argument 1 of g"}},
		{"slice to array parameter", `module t
fn g(a: [4]u32) { }
fn f(x: []u32) { g(@x) }`, []string{"cannot use []u32 as [4]u32 in argument 1 of g"}},
		{"mut argument must be writable: let", `module t
fn g(a: mut [4]u32) { }
fn f() { let x: [4]u32 = [1, 2, 3, 4] g(@x) }`, []string{"cannot pass x to mut parameter a of g: x is declared with let"}},
		{"mut argument must be writable: parameter", `module t
fn g(a: mut []u32) { }
fn f(x: [4]u32) { g(@x) }`, []string{"cannot pass x to mut parameter a of g: parameter x is not mut"}},
		{"mut argument must be writable: constant", `module t
const K: [4]u32 = [1, 2, 3, 4]
fn g(a: mut []u32) { }
fn f() { g(@K) }`, []string{"K is a constant"}},
		{"mut argument aliases another argument", `module t
fn mul(out: mut []u64, x: []u64, h: []u64) { }
fn f(y: mut [2]u64, h: [2]u64) { mul(@y, y, h) }`, []string{"y is passed to mut parameter out of mul and also as argument 2"}},
		{"mut argument aliases through an element", `module t
fn g(out: mut [4]u32, x: [2][4]u32) { }
fn f() { var s: [2][4]u32 g(@s[1], s) }`, []string{"s[1] is passed to mut parameter out of g and also as argument 2"}},
		{"mut argument aliases at an unknown index", `module t
fn cp(dst: mut [4]u32, src: [4]u32) { dst = src }
fn f(i: u32) { var s: [2][4]u32 cp(@s[i], s[1]) }`, []string{"also as argument 2"}},
		{"mut argument aliases through a chunk view", `module t
fn g(out: mut [4]u8, src: []u8) { }
fn f(m: mut []u8) { for b in chunks(m, 4) { g(@b, m) } }`, []string{"b is passed to mut parameter out of g and also as argument 2"}},
		{"mut argument aliases through rest", `module t
fn g(out: mut []u8, src: [4]u8) { }
fn f(m: mut [6]u8) { for b in chunks(m, 4) { g(@rest(m, 4), b) } }`, []string{"rest(m, 4) is passed to mut parameter out of g and also as argument 2"}},
		{"multi-result call returned directly", `module t
fn two() -> (u32, u32) { return 1, 2 }
fn f() -> (u32, u32) { return @two() }`, []string{"two returns several values: bind them with let (a, b) = two(...), then return a, b"}},
		{"multi-result call as an expression", `module t
fn two() -> (u32, u32) { return 1, 2 }
fn f() -> u32 { return @two() + 1 }`, []string{"two returns 2 values"}},
		{"no-result call as an expression", `module t
fn g() { }
fn f() -> u32 { let x: u32 = @g() return x }`, []string{"g returns no value"}},
		{"destructuring count", `module t
fn two() -> (u32, u32) { return 1, 2 }
fn f() { let (a, b, c) = @two() }`, []string{"assignment mismatch: 3 names but two returns 2 values"}},
		{"destructuring needs a call", `module t
fn f(x: u32) { let (a, b) = @x }`, []string{"binding 2 names needs a call with 2 results, not x"}},
		{"tuple assignment types", `module t
fn two() -> (u32, u32) { return 1, 2 }
fn f() { var a: u32 var b: u8 = 0 a, @b = two() }`, []string{"cannot use u32 as u8 in assignment"}},
		{"expression statement", `module t
fn f(x: u32) { @x + 1 }`, []string{"x + 1 is not a statement"}},
		{"missing return", `module t
@fn f(x: u32) -> u32 { if x == 0 { return 1 } }`, []string{"missing return at the end of fn f"}},
		{"missing return after a loop", `module t
@fn f() -> u32 { for i in 0..4 { return i } }`, []string{"missing return"}},
		{"return count", `module t
fn f() -> u32 { @return }`, []string{"not enough return values: fn f returns 1, got 0"}},
		{"return too many", `module t
fn f() { @return 1 }`, []string{"too many return values"}},
		{"return type", `module t
fn f(x: u64) -> u32 { return @x }`, []string{"cannot use u64 as u32 in return"}},
		{"assign to let", `module t
fn f() { let x: u32 = 1 @x = 2 }`, []string{"cannot assign to x: x is declared with let"}},
		{"assign to word parameter", `module t
fn f(x: u32) { @x = 2 }`, []string{"cannot assign to x: parameters are read-only"}},
		{"assign through read-only parameter", `module t
fn f(x: [2]u32) { x@[0] = 2 }`, []string{"cannot assign to x[0]: parameter x is not mut"}},
		{"assign to loop index", `module t
fn f() { for i in 0..4 { @i = 2 } }`, []string{"cannot assign to i: loop index i is read-only"}},
		{"assign to constant", `module t
const K: u32 = 1
fn f() { @K = 2 }`, []string{"cannot assign to K: K is a constant"}},
		{"assign to a whole slice", `module t
fn f(s: mut []u32, t: []u32) { @s = t }`, []string{"a slice cannot be assigned as a whole"}},
		{"compound on bool", `module t
fn f() { var b = true @b += true }`, []string{"operator += is not defined on bool"}},
		{"compound type", `module t
fn f(y: u64) { var x: u32 x ^= @y }`, []string{"cannot use u64 as u32 in ^="}},
		{"redeclared in one block", `module t
fn f() { let x: u32 = 1 @let x: u32 = 2 }`, []string{"x is already declared in this block"}},
		{"parameter redeclared in the body", `module t
fn f(x: u32) { @let x: u32 = 2 }`, []string{"x is already declared in this block"}},
		{"duplicate parameter", `module t
fn f(x: u32, @x: u32) { }`, []string{"x is already declared in this block"}},
		{"var of a slice", `module t
fn f(s: []u8) { var r = @rest(s, 4) }`, []string{"a slice cannot be copied into var r"}},
		{"duplicate top-level name", `module t
const f: u32 = 1
@fn f() { }`, []string{"f is already declared in module t"}},
		{"builtin name", `module t
@fn len() { }`, []string{"cannot declare len: it is the name of a builtin"}},
		{"chunks outside a for", `module t
fn f(s: []u8) { @chunks(s, 4) }`, []string{"chunks is only allowed as the source of a for loop"}},
		{"for bounds types", `module t
fn f(a: u32, b: u64) { for i in @a..b { } }`, []string{"mismatched types u32 and u64 in for range"}},
	} {
		t.Run(tc.name, func(t *testing.T) { expectErrors(t, tc.src, tc.want...) })
	}
}

// TestBuiltinErrors covers the builtins' signatures.
func TestBuiltinErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"len of a word", `module t
fn f(x: u32) -> u32 { return len(@x) }`, []string{"len needs an array or slice, not u32"}},
		{"load from u32 array", `module t
fn f(x: [4]u32) -> u32 { return load_le32(@x, 0) }`, []string{"load_le32 needs a u8 array or slice, not [4]u32"}},
		{"store into read-only", `module t
fn f(x: [4]u8) { store_le32(@x, 0, 1) }`, []string{"cannot store into x: parameter x is not mut"}},
		{"store value type", `module t
fn f(x: mut [4]u8, v: u64) { store_le32(x, 0, @v) }`, []string{"cannot use u64 as u32 in value of store_le32"}},
		{"store value constant too big", `module t
fn f(x: mut [4]u8) { store_le16(x, 0, @65536) }`, []string{"constant 65536 overflows u16"}},
		{"clmul argument type", `module t
fn f(a: u32) -> u64 { return clmul_lo(@a, 1) }`, []string{"cannot use u32 as u64 in argument 1 of clmul_lo"}},
		{"aes_enc is two results", `module t
fn f(a: u64) -> u64 { return @aes_enc(a, a, a, a) }`, []string{"aes_enc returns 2 values"}},
		{"sha256_rnds2 argument count", `module t
fn f(a: u32) -> u32 { let (x, y, z, w) = @sha256_rnds2(a, a, a, a, a, a, a, a, a) return x }`, []string{"sha256_rnds2 takes 10 arguments, got 9"}},
		{"sha256_msg1 argument type", `module t
fn f(a: u32, b: u64) -> u32 { let (x, y, z, w) = sha256_msg1(a, a, a, a, @b, a, a, a) return x }`, []string{"cannot use u64 as u32 in argument 5 of sha256_msg1"}},
		{"sha256_msg2 is four results", `module t
fn f(a: u32) -> u32 { return @sha256_msg2(a, a, a, a, a, a, a, a) }`, []string{"sha256_msg2 returns 4 values"}},
		{"have an unknown feature", `module t
fn f() -> bool { return @have avx }`, []string{"have avx: unknown hardware feature (known: pclmul,aes,sha,ifma)"}},
		{"have is not a constant", `module t
const C: bool = @have sha`, []string{"constant"}},
		{"have is a bool", `module t
fn f() -> u32 { return @have sha }`, []string{"cannot use bool as u32"}},
		{"select types", `module t
fn f(c: bool, a: u32, b: u64) -> u32 { return @select(c, a, b) }`, []string{"mismatched types u32 and u64 in select"}},
		{"select condition", `module t
fn f(a: u32) -> u32 { return select(@a, a, a) }`, []string{"cannot use u32 as bool in condition of select"}},
		{"select of untyped needs context", `module t
fn f(c: bool) { let x = @select(c, 1, 2) }`, []string{"cannot infer the type of x"}},
		{"select constants must fit", `module t
fn f(c: bool) -> u8 { return select(c, 1, @256) }`, []string{"constant 256 overflows u8"}},
		{"rest needs a constant", `module t
fn f(s: []u8, n: u32) -> u32 { return len(rest(s, @n)) }`, []string{"the chunk size of rest must be constant: n is not a constant"}},
		{"rest needs N > 0", `module t
fn f(s: []u8) -> u32 { return len(rest(s, @0)) }`, []string{"chunk size of rest must be between 1 and 65536, not 0"}},
		{"unchecked_set value", `module t
fn f(s: mut []u8, x: u32) { absorb unsafe because "t" { unchecked_set(s, 0, @x) } }`, []string{"cannot use u32 as u8 in value of unchecked_set"}},
		{"unchecked_set read-only", `module t
fn f(s: []u8) { absorb unsafe because "t" { unchecked_set(@s, 0, 1) } }`, []string{"cannot write to s: parameter s is not mut"}},
		{"trace takes words", `module t
export fn f(a: [2]u8) effects io { trace(@a) }`, []string{"trace takes words, not [2]u8"}},
		{"trace of untyped", `module t
export fn f() effects io { trace(@5) }`, []string{"trace needs typed words"}},
		{"builtin argument count", `module t
fn f(s: []u8) -> u32 { return @load_le32(s) }`, []string{"load_le32 takes 2 arguments, got 1"}},
		{"chunk size constant", `module t
fn f(s: []u8, n: u32) { for b in chunks(s, @n) { } }`, []string{"the chunk size of chunks must be constant"}},
		{"chunk source type", `module t
fn f(x: u32) { for b in chunks(@x, 4) { } }`, []string{"chunks needs arrays or slices, not u32"}},
		{"chunk sources of different fixed lengths", `module t
fn f(a: [16]u8, b: [32]u8) { for x, y in chunks(a, @b, 4) { } }`, []string{"chunk sources have different lengths: a has 16, b has 32"}},
		{"view of a read-only source", `module t
fn f(s: []u8) { for b in chunks(s, 4) { b@[0] = 1 } }`, []string{"cannot assign to b[0]: b is a view of a read-only source"}},
		{"parallel count", `module t
fn f() { var a: u32 var b: u32 a, b = @1, 2, 3 }`, []string{"assignment of 3 values to 2 targets"}},
		{"parallel types per position", `module t
fn f(x: u64) { var a: u32 var b: u64 a, b = @x, x }`, []string{"cannot use u64 as u32 in assignment"}},
		{"parallel constant fits its target", `module t
fn f() { var a: u8 var b: u32 a, b = @256, 256 }`, []string{"constant 256 overflows u8"}},
		{"parallel to a let", `module t
fn f() { let a: u32 = 1 var b: u32 @a, b = b, a }`, []string{"cannot assign to a"}},
		{"parallel to a parameter", `module t
fn f(p: u32) { var b: u32 b, @p = p, b }`, []string{"cannot assign to p: parameters are read-only"}},
		{"parallel to a read-only array", `module t
fn f(s: [2]u8) { s@[0], s@[1] = s[1], s[0] }`, []string{"cannot assign to s[0]: parameter s is not mut", "cannot assign to s[1]"}},
		{"parallel assigns a variable twice", `module t
fn f() { var a: u32 a, @a = 1, 2 }`, []string{"a is assigned twice"}},
		{"parallel value of two results", `module t
fn two() -> (u32, u32) { return 1, 2 }
fn f() { var a: u32 var b: u32 a, b = @two(), 1 }`, []string{"two returns 2 values"}},
		{"parallel of arrays of other lengths", `module t
fn f(x: [3]u8) { var a: [2]u8 var b: [3]u8 a, b = @x, x }`, []string{"cannot use [3]u8 as [2]u8 in assignment"}},
		{"view of a read-only array", `module t
fn f(a: [4]u8) { a[0..2]@[0] = 1 }`, []string{"cannot assign to a[0..2][0]: parameter a is not mut"}},
		{"views of one array to a mut parameter", `module t
fn w(x: mut [2]u8, y: [2]u8) { x[0] = y[1] }
fn f(b: mut [4]u8) { w(b@[0..2], b[2..4]) }`, []string{"b[0..2] is passed to mut parameter x of w and also as argument 2"}},
		{"view of nested arrays", `module t
fn f(m: [2][2]u8) { let c = m@[0..1] }`, []string{"a range view needs an array or slice of words, not [2][2]u8"}},
		{"view past the end", `module t
const K: [4]u8 = [1, 2, 3, 4]
fn f() -> u8 { let d = K@[2..5] return d[0] }`, []string{"range 2..5 out of bounds for [4]u8"}},
		{"view backwards", `module t
fn f(b: [4]u8) -> u8 { let e = b@[3..1] return e[0] }`, []string{"range 3..1 ends before it starts"}},
		{"empty view", `module t
fn f(b: [4]u8) -> u32 { return len(b@[2..2]) }`, []string{"range 2..2 is empty"}},
		{"a view is not assignable as a whole", `module t
fn f(a: [4]u8, b: mut [4]u8) { b@[0..2] = a[0..2] }`, []string{"cannot assign to b[0..2]"}},
		{"a slice view is not a var", `module t
fn f(s: []u8) { var u = s@[1..len(s)] }`, []string{"a slice cannot be copied into var u"}},
		{"view bounds are words", `module t
fn f(s: []u8, b: bool) -> u32 { return len(s[@b..2]) }`, []string{"start of a range view must be a word, not bool"}},
		{"mulw of u16", `module t
fn f(a: u16) -> u16 { let (l, h) = @mulw(a, a) return l }`, []string{"mulw needs u32 or u64 operands, not u16"}},
		{"mulw of mixed types", `module t
fn f(a: u32, b: u64) -> u64 { let (l, h) = @mulw(a, b) return h }`, []string{"mismatched types u32 and u64 in mulw"}},
		{"mulw of constants", `module t
fn f() -> u64 { let (l, h) = @mulw(2, 3) return h }`, []string{"mulw needs typed operands"}},
		{"mulw constant must fit", `module t
fn f(a: u32) -> u32 { let (l, h) = mulw(a, @0x1_0000_0000) return h }`, []string{"constant 4294967296 overflows u32"}},
		{"mulw is two results", `module t
fn f(a: u64) -> u64 { return @mulw(a, a) }`, []string{"mulw returns 2 values"}},
		{"mulw argument count", `module t
fn f(a: u64) -> u64 { let (l, h) = @mulw(a) return l }`, []string{"mulw takes 2 arguments, got 1"}},
		{"mulw is a builtin name", `module t
@fn mulw(a: u64) -> u64 { return a }`, []string{"cannot declare mulw: it is the name of a builtin"}},
	} {
		t.Run(tc.name, func(t *testing.T) { expectErrors(t, tc.src, tc.want...) })
	}
}

// TestConstants checks constant evaluation against hand-computed values.
func TestConstants(t *testing.T) {
	files := mustCheck(t, `module t
const A: u8 = 0xff + 0
const B: u8 = A + 1
const C: u32 = ~0
const D: u16 = -1
const E: u32 = 0x8000_0001 <<< 1
const F: u64 = 1 << 63 >> 62
const G: u8 = (200 as u8) * 2
const H: [2][3]u16 = [[1, 2, 3], [4, 5, 6]]
const I: u16 = H[1][2] * 10 + H[0][0]
const J: bool = I == 61 && !(A < B)
const K: u32 = 0b1010_1010 % 7 / 2
const L: u8 = 3 as u8 - 4
const M: u32 = len(H) + len(H[0])
`)
	want := map[string]uint64{
		"A": 255, "B": 0, "C": 0xffffffff, "D": 0xffff, "E": 3, "F": 2, "G": 144,
		"I": 61, "J": 1, "K": 170 % 7 / 2, "L": 255, "M": 5,
	}
	for _, d := range files[0].Consts {
		if w, ok := want[d.Name]; ok {
			if d.Val == nil || d.Val.Elems != nil || d.Val.Word != w {
				t.Errorf("%s = %+v, want %d", d.Name, d.Val, w)
			}
		}
		if d.Name == "H" {
			if d.Val == nil || len(d.Val.Elems) != 2 || d.Val.Elems[1].Elems[0].Word != 4 {
				t.Errorf("H = %+v", d.Val)
			}
			if d.Type.String() != "[2][3]u16" {
				t.Errorf("H type %s", d.Type)
			}
		}
	}
}

func TestConstantErrors(t *testing.T) {
	expectErrors(t, `module t
const A: u32 = B + 1
const B: u32 = @A`, "constant cycle: A -> B -> A")
	expectErrors(t, `module t
const A: [len(@A)]u8 = [1]`, "constant cycle: A -> A")
	expectErrors(t, `module t
fn f() -> u32 { return 1 }
const A: u32 = @f()`, "a constant expression cannot call f")
	expectErrors(t, `module t
const A: [2]u8 = @[1, 2, 3]`, "array literal has 3 elements, [2]u8 needs 2")
	expectErrors(t, `module t
const A: u8 = @300`, "constant 300 overflows u8")
	expectErrors(t, `module t
const A: [2]u8 = [1, 2]
const B: u8 = A[@2]`, "index 2 out of bounds for [2]u8")
	expectErrors(t, `module t
const A: u8 = @1 << 100 >> 100`, "constant 1267650600228229401496703205376 overflows u8")
}

// TestTypesAreSet checks the fields the checker fills on a small program.
func TestTypesAreSet(t *testing.T) {
	files := mustCheck(t, `module t
fn two(x: u8) -> (u8, u16) { return x, 7 }
fn f(s: mut []u8, k: u8) -> u16 {
    let (a, _) = two(k + 1)
    var acc: u16
    for i in 0..len(s) { s[i] ^= a }
    for j, v in chunks(s, 4) { acc += v[0] as u16 }
    return acc
}`)
	f := fn(t, files, "f")
	var names []string
	for i, s := range f.Locals {
		if s.Slot != i {
			t.Errorf("local %s has slot %d, want %d", s.Name, s.Slot, i)
		}
		names = append(names, s.Name+":"+s.Type.String())
	}
	want := "s:[]u8 k:u8 a:u8 _:u16 acc:u16 i:u32 j:u32 v:[4]u8"
	if got := join(names); got != want {
		t.Errorf("locals %s, want %s", got, want)
	}
	if f.Locals[7].Kind != lang.SymView || !f.Locals[7].Mutable || f.Locals[7].Of != f.Locals[0] {
		t.Errorf("view symbol %+v", f.Locals[7])
	}
	if f.Locals[0].MinLen != 0 || f.Locals[0].MaxLen != -1 {
		t.Errorf("slice s len bounds %d..%d", f.Locals[0].MinLen, f.Locals[0].MaxLen)
	}
	if len(f.ResultTypes) != 1 || f.ResultTypes[0] != lang.U16 {
		t.Errorf("results %v", f.ResultTypes)
	}
	let := f.Body.Stmts[0].(*lang.LetStmt)
	call := let.Value.(*lang.CallExpr)
	if call.Func == nil || call.Func.Name != "two" || call.Builtin != nil {
		t.Errorf("call not resolved")
	}
	sum := call.Args[0].(*lang.BinaryExpr)
	if sum.Type() != lang.U8 || sum.R.Type() != lang.U8 {
		t.Errorf("k + 1 typed %v, 1 typed %v", sum.Type(), sum.R.Type())
	}
	ch := f.Body.Stmts[3].(*lang.ForChunksStmt)
	if ch.SizeVal != 4 || ch.IndexSym == nil || ch.IndexSym.Type != lang.U32 || len(ch.VarSyms) != 1 {
		t.Errorf("chunk loop %+v", ch)
	}
	fr := f.Body.Stmts[2].(*lang.ForStmt)
	if fr.Sym.Type != lang.U32 || fr.Lo.Type() != lang.U32 {
		t.Errorf("for index type %v", fr.Sym.Type)
	}
	ret := f.Body.Stmts[4].(*lang.ReturnStmt)
	if id := ret.Values[0].(*lang.Ident); id.Sym != f.Locals[4] {
		t.Errorf("acc resolves to %+v", id.Sym)
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}

// TestNoCascades: one mistake gives one error, however its result is used.
func TestNoCascades(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      string
	}{
		{"undefined name used again", `module t
fn f(a: mut [4]u32) -> u32 { let x = @y + 1 a[x] = x let z: u64 = x return x * 2 }`, "undefined: y"},
		{"bad type used again", `module t
fn f(a: mut [4]u32) -> u32 { var b: @u33 b = 1 a[b] = b return b }`, "unknown type u33"},
		{"bad call result used", `module t
fn g(x: u32) -> u32 { return x }
fn f() -> u32 { let r = g(@true) return r + r }`, "cannot use bool as u32 in argument 1 of g"},
		{"bad constant used", `module t
const K: u8 = @256
fn f(a: [4]u8) -> u8 { return a[K] + K }`, "constant 256 overflows u8"},
		{"bad array length", `module t
const N: u32 = 0
fn f(a: [@N]u8) -> u8 { return a[0] + a[1] }`, "array length must be between 1 and 65536, not 0"},
		{"broken requires", `module t
fn g(s: []u8) requires len(@z) > 2 { let x = s[0] }
fn f(s: []u8) { g(s) }`, "undefined: z"},
		{"error inside absorb", `module t
fn f(s: []u8) -> u8 { absorb unsafe, trap because "x" { return unchecked_get(s, @q) + s[9] } }`, "undefined: q"},
		{"error in untyped operand", `module t
fn f() -> u32 { return (1 + @q) * 3 }`, "undefined: q"},
		{"mismatch inside a larger expression", `module t
fn f(a: u32, b: u64) -> u32 { return ((a @+ b) * 2) ^ a }`, "mismatched types u32 and u64 in +"},
	} {
		t.Run(tc.name, func(t *testing.T) { expectErrors(t, tc.src, tc.want) })
	}
}
