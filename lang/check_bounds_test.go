package lang_test

import (
	"reflect"
	"strings"
	"testing"
)

// checksAt returns "line:col kind" for every marker of src, pairing the
// markers with kinds in order.
func checksAt(src string, kinds ...string) []string {
	m := unmark(src)
	var out []string
	for i, k := range kinds {
		p := strings.TrimPrefix(m.marks[i], "m0.lw:")
		out = append(out, p+" "+k)
	}
	return out
}

// expectChecks checks src (which must be accepted) and compares the run-time
// checks left in function name with the marked ones: '@' marks every check,
// kinds lists their kinds in order. Everything not marked must be proven.
func expectChecks(t *testing.T, src, name string, kinds ...string) {
	t.Helper()
	if n := len(unmark(src).marks); n != len(kinds) {
		t.Fatalf("test has %d markers but %d kinds", n, len(kinds))
	}
	files := mustCheck(t, src)
	got := runtimeChecks(fn(t, files, name))
	want := checksAt(src, kinds...)
	sortStrings(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("run-time checks in %s:\n got %q\nwant %q\nsource:\n%s", name, got, want, src)
	}
}

func sortStrings(s []string) {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
}

func TestBoundsProofs(t *testing.T) {
	// Every '@' marks an access that cannot be proven with the rules of
	// docs/language.md "Bounds"; every other access must be proven.
	expectChecks(t, `module t
const SIGMA: [2][4]u8 = [[0, 1, 2, 3], [3, 2, 1, 0]]
fn g(v: mut [4]u64, msg: []u8, out: mut []u8, n: u32, k: u8) requires len(out) >= 8, n <= 3 {
    for r in 0..2 {
        for j in 0..4 {
            v[SIGMA[r][j]] ^= 1
        }
    }
    v[n] = 0
    v@[k] = 1
    v[k & 3] = 2
    v[k % 4] = 3
    v[(k >> 6) + 0] = 4
    out[7] = 1
    out@[8] = 1
    store_le64(out, 0, v[0])
    @store_le64(out, 1, v[0])
    for blk in chunks(msg, 64) {
        let x = load_le64(blk, 56)
        let y = @load_le64(blk, 57)
        for i in 0..8 {
            let z = load_le64(blk, 8 * i)
        }
    }
    let tail = rest(msg, 16)
    let t0 = tail@[15]
    let q = n / 2
    let q2 = 7 / (n + 1)
    let q3 = 7 @/ n
    var m: u32 = 1
    @m /= n
    for i in 0..len(msg) {
        let b = msg[i]
        let c = out@[i]
    }
}`, "g", "index", "index", "bytes", "bytes", "index", "div", "div", "index")
}

// TestUntypedDivision: a division whose operands are untyped but not
// constant gets its type late; its divisor must still be checked (found
// by TestBoundsSoundOnVM).
func TestUntypedDivision(t *testing.T) {
	expectChecks(t, `module t
fn f(b: u32) -> u32 {
    let x: u32 = 15 @/ select(b < 3, 64, 0)
    let y: u32 = 15 / select(b < 3, 64, 1)
    let z: u64 = (1 << b) @% (1 << b)
    return x + y + (z as u32)
}`, "f", "div", "div")
	expectErrors(t, `module t
fn f(b: u32) -> u32 { let x: u32 = (1 << b) / @0 return x }`, "division by zero")
}

func TestBoundsSoundness(t *testing.T) {
	// Nothing here may be proven: a loop bound that is a variable, a var
	// changed in a loop, an index derived by wrapping arithmetic.
	expectChecks(t, `module t
fn g(a: mut [16]u32, n: u32, s: []u32, v: u8) {
    for i in 0..n {
        a@[i] = 0
    }
    var j: u32 = 0
    for i in 0..4 {
        a@[j] = 1
        j += 5
    }
    let w: u32 = 0
    let k = w - 1
    a@[k] = 2
    // v | 0xf0 is in [0xf0, 0xff]; adding 0x20 wraps to [0x10, 0x1f]:
    // every value is out of bounds, so an interval that ignored the
    // wrap ([0x110, 0x11f] clipped) must not prove anything.
    let x = (v | 0xf0) + 0x20
    a@[x] = 3
    let y = (x as u32) * 16
    a@[y] = 4
    for i in 0..len(s) {
        a@[i] = s[i]
    }
    for i in 1..17 {
        a[i - 1] = a@[i]
    }
}`, "g", "index", "index", "index", "index", "index", "index", "index")
}

func TestBoundsLetAndLoops(t *testing.T) {
	expectChecks(t, `module t
const T: [256]u8 = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
fn g(a: mut [16]u32, b: u8, w: u64) -> u32 {
    let i = (b >> 4) as u32
    let j = i + 0
    a[j] = 1
    a[T[b]] = 2
    let k = (w & 0xff) as u8
    let t = T[k]
    a[t] = 3
    a[(w % 16) as u8] = 4
    a[w >> 60] = 5
    for r in 3..7 {
        a[2 * r + 1] = 6
        a[2 * r + 3] = 7
        a@[2 * r + 4] = 7
    }
    let d = select(b == 0, 3 as u8, 15)
    a[d] = 8
    for q, blk in chunks(a, 4) {
        a[q * 4] = blk[3]
        a@[q * 4 + 4] = 9
    }
    return a[len(a) - 1] / (i + 1) + a@[~i]
}`, "g", "index", "index", "index")
}

func TestBoundsSlicesAndRequires(t *testing.T) {
	files := mustCheck(t, `module t
fn f(a: []u8, b: mut []u8, c: []u8, n: u32) requires len(a) == len(b), len(b) == 32, 2 <= len(c), len(c) < 10, n < 4 {
    for i in 0..len(a) {
        b[i] = a[i]
    }
    b[31] = c[1]
    let r = rest(a, 5)
    let x = r[1]
}`)
	f := fn(t, files, "f")
	lens := map[string][2]int64{}
	for _, s := range f.Locals {
		lens[s.Name] = [2]int64{s.MinLen, s.MaxLen}
	}
	want := map[string][2]int64{"a": {32, 32}, "b": {32, 32}, "c": {2, 9}, "r": {2, 2}}
	for name, w := range want {
		if lens[name] != w {
			t.Errorf("%s length bounds %v, want %v", name, lens[name], w)
		}
	}
	if got := runtimeChecks(f); len(got) != 0 {
		t.Errorf("unexpected run-time checks %q", got)
	}
	// Without the fixed length, the equal-length fact still proves b[i].
	expectChecks(t, `module t
fn f(a: []u8, b: mut []u8, c: []u8) requires len(a) == len(b) {
    for i in 0..len(a) {
        b[i] = a[i] ^ c@[i]
    }
    for i in 0..len(c) {
        b@[i] = 0
    }
    b@[0] = 1
}`, "f", "index", "index", "index")
}

func TestChunkLengths(t *testing.T) {
	expectChecks(t, `module t
fn f(a: []u8, b: mut []u8, c: []u8, d: [32]u8, e: mut [32]u8) requires len(a) == len(b) {
    for x, y in chunks(a, b, 16) { y[0] = x[15] }
    @for x, y in chunks(c, b, 16) { y[0] = x[15] }
    for x, y in chunks(d, e, 16) { y[0] = x[15] }
    @for x, y, z in chunks(a, b, c, 8) { y[7] = x[7] ^ z[7] }
}`, "f", "lens", "lens")
}

func TestRequiresAtCallSites(t *testing.T) {
	src := `module t
fn two(out: mut []u64) requires len(out) >= 2 { out[0] = 0 out[1] = 1 }
fn blocks(s: []u8, n: u32) requires len(s) % 16 == 0, n <= 4 { }
fn same(a: []u8, b: []u8) requires len(a) == len(b) { }
fn f(x: mut []u64, s: []u8, t: []u8, k: u32) requires len(x) >= 3, len(s) % 16 == 0, len(s) == len(t) {
    var a: [2]u64
    var b: [1]u64
    two(a)
    two(x)
    @two(b)
    blocks(s, 4)
    blocks(t, 0)
    @blocks(t, 5)
    var buf: [48]u8
    blocks(buf, k & 3)
    @blocks(rest(s, 16), k)
    same(s, t)
    same(buf, buf)
    @same(s, buf)
}`
	// Statically false: errors at the call, citing the requires.
	m := unmark(src)
	_, diags := checkSrc(t, src)
	var got []string
	for _, d := range diags {
		got = append(got, d.Pos.String()+": "+d.Msg)
	}
	want := []string{
		m.marks[0] + ": call to two violates its requires len(out) >= 2 (declared at m0.lw:2:33)",
		m.marks[1] + ": call to blocks violates its requires n <= 4 (declared at m0.lw:3:55)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if diags[0].Notes[0].Pos.String() != "m0.lw:2:33" {
		t.Errorf("note at %s", diags[0].Notes[0].Pos)
	}
	// Without the false calls, the undecided ones are checked at run time.
	src = strings.NewReplacer("    @two(b)\n", "", "    @blocks(t, 5)\n", "").Replace(src)
	expectChecks(t, src, "f", "requires", "requires")
}

func TestRequiresErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"not bool", `module t
fn f(s: []u8) requires @len(s) { }`, []string{"requires condition must be bool, not u32"}},
		{"call", `module t
fn g() -> u32 { return 1 }
fn f(s: []u8) requires len(s) > @g() { }`, []string{"a call of g is not allowed in requires"}},
		{"indexing", `module t
fn f(s: []u8) requires s@[0] == 1 { }`, []string{"indexing is not allowed in requires"}},
		{"or", `module t
fn f(s: []u8) requires len(s) == 1 @|| len(s) == 2 { }`, []string{"|| is not allowed in requires"}},
		{"array parameter", `module t
fn f(s: [2]u8, t: [2]u8) requires s @== t { }`, []string{"operator == is not defined on [2]u8"}},
		{"non-constant divisor", `module t
fn f(s: []u8, n: u32) requires len(s) % @n == 0 { }`, []string{"a divisor other than a non-zero constant is not allowed in requires"}},
		{"undefined", `module t
fn f(s: []u8) requires len(@x) == 0 { }`, []string{"undefined: x"}},
	} {
		t.Run(tc.name, func(t *testing.T) { expectErrors(t, tc.src, tc.want...) })
	}
}
