package lang_test

import (
	"reflect"
	"testing"

	"github.com/lowent/lowentc/lang"
)

// expectDiagWithNotes checks that src gives exactly one diagnostic, at the
// marker at index at, with message msg, and with the given notes, each at
// the marker of the given index.
func expectDiagWithNotes(t *testing.T, src string, at int, msg string, notes ...any) {
	t.Helper()
	m := unmark(src)
	_, diags := checkSrc(t, src)
	if len(diags) != 1 {
		t.Fatalf("got %d errors, want 1:\n%s", len(diags), render(diags))
	}
	d := diags[0]
	if d.Pos.String() != m.marks[at] || d.Msg != msg {
		t.Errorf("got %s: %s\nwant %s: %s", d.Pos, d.Msg, m.marks[at], msg)
	}
	var got, want []string
	for _, n := range d.Notes {
		got = append(got, n.Pos.String()+": "+n.Msg)
	}
	for i := 0; i+1 < len(notes); i += 2 {
		want = append(want, m.marks[notes[i].(int)]+": "+notes[i+1].(string))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("notes:\n got %q\nwant %q", got, want)
	}
}

func TestEffectPathUnsafe(t *testing.T) {
	// The example of docs/language.md: the effect reaches digest through
	// load_word; the notes walk the call path to the builtin.
	expectDiagWithNotes(t, `module ex
fn load_word(t: []u32, i: u32) -> u32 {
    return @unchecked_get(t, i)
}
@export fn digest(t: []u32, out: mut [1]u32) effects none {
    @load_word(t, 3)
    out[0] = 1
}`, 1, "export fn digest declares effects none but may have effect unsafe",
		2, "digest calls load_word",
		0, "load_word calls unchecked_get (unsafe)")
}

func TestAbsorbStopsUnsafe(t *testing.T) {
	files := mustCheck(t, `module ex
fn load_word(t: []u32, i: u32) -> u32 {
    var x: u32
    absorb unsafe because "callers pass i < len(t)" {
        x = unchecked_get(t, i)
    }
    return x
}
export fn digest(t: []u32) -> u32 effects none {
    return load_word(t, 3)
}`)
	for _, name := range []string{"load_word", "digest"} {
		if f := fn(t, files, name); f.Inferred != 0 {
			t.Errorf("%s inferred %s, want none", name, f.Inferred)
		}
	}
	abs := fn(t, files, "load_word").Body.Stmts[1].(*lang.AbsorbStmt)
	if abs.Set != lang.EffectSet(lang.EffUnsafe) {
		t.Errorf("absorb set %s", abs.Set)
	}
}

func TestEffectPathTrap(t *testing.T) {
	expectDiagWithNotes(t, `module ex
fn get(t: []u32, i: u32) -> u32 { return t@[i] }
fn mid(t: []u32) -> u32 { return @get(t, 1) }
@export fn top(t: []u32) -> u32 effects none { return @mid(t) }`,
		2, "export fn top declares effects none but may have effect trap",
		3, "top calls mid",
		1, "mid calls get",
		0, "get: index not proven in bounds (checked at run time)")
}

func TestEffectPathRequiresAndSeveralEffects(t *testing.T) {
	expectDiagWithNotes(t, `module ex
fn two(out: mut []u8) requires len(out) >= 2 { out[1] = 1 }
fn peek(s: []u8) -> u8 { return @unchecked_get(s, 0) }
@fn f(s: mut []u8) effects io {
    @two(s)
    let x = @peek(s)
}`, 1, "fn f declares effects io but may have effects trap, unsafe",
		2, "f: requires of two not proven (checked at run time)",
		3, "f calls peek",
		0, "peek calls unchecked_get (unsafe)")
}

func TestEffectSources(t *testing.T) {
	files := mustCheck(t, `module ex
fn div(a: u32, b: u32) -> u32 { return a / b }
fn div2(a: u32, b: u32) -> u32 { var x = a x /= b return x }
fn divc(a: u32) -> u32 { return a / 3 + a % 16 }
fn io(a: u32) { trace(a) }
fn bytes(s: []u8) -> u32 { return load_le32(s, 0) }
fn chunky(a: []u8, b: mut []u8) { for x, y in chunks(a, b, 4) { y[0] = x[0] } }
fn unsafe(s: []u8) -> u8 { return unchecked_get(s, 0) }
fn clean(s: [8]u8) -> u64 { return load_le64(s, 0) }
fn caller(s: []u8) -> u32 { io(1) return bytes(s) + div(1, 2) }
fn hw(a: u64) -> (u64, u64) { let (x, y) = aes_enc(a, a, clmul_lo(a, a), 0) return x, y }
fn hw2(a: u64) -> u64 {
    absorb trap because "a is small" { let (x, y) = hw(a) return x / a }
}
export fn exported(s: []u8) requires len(s) >= 4 effects none { let x = load_le32(s, 0) }
fn callsExported(s: []u8) { exported(s) }
`)
	trap, unsafe, io := lang.EffectSet(lang.EffTrap), lang.EffectSet(lang.EffUnsafe), lang.EffectSet(lang.EffIO)
	pcl, aes := lang.FeatureSet(lang.FeatPCLMUL), lang.FeatureSet(lang.FeatAES)
	for name, want := range map[string]struct {
		eff  lang.EffectSet
		feat lang.FeatureSet
	}{
		"div": {trap, 0}, "div2": {trap, 0}, "divc": {0, 0}, "io": {io, 0}, "bytes": {trap, 0},
		"chunky": {trap, 0}, "unsafe": {unsafe, 0}, "clean": {0, 0}, "caller": {trap | io, 0},
		"hw": {0, pcl | aes}, "hw2": {0, pcl | aes}, "exported": {0, 0}, "callsExported": {trap, 0},
	} {
		f := fn(t, files, name)
		if f.Inferred != want.eff || f.Features != want.feat {
			t.Errorf("%s: effects %s features %s, want %s and %s", name, f.Inferred, f.Features, want.eff, want.feat)
		}
	}
}

func TestEffectErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"export without effects", `module t
@export fn f() { }`, []string{"export fn f must declare its effects"}},
		{"unknown effect", `module t
fn f() @effects trap, crash { }`, []string{"unknown effect crash"}},
		{"unknown absorbed effect", `module t
fn f() { @absorb crash because "x" { } }`, []string{"unknown effect crash"}},
		{"absorb without reason", `module t
fn f(s: []u8) -> u8 { @absorb unsafe because "" { return unchecked_get(s, 0) } }`, []string{"absorb needs a reason"}},
		{"absorb with a blank reason", `module t
fn f(s: []u8) -> u8 { @absorb unsafe because "  	" { return unchecked_get(s, 0) } }`, []string{"absorb needs a reason"}},
		{"absorb of an effect the body lacks", `module t
fn f(s: [4]u8) -> u8 { @absorb trap, unsafe because "x" { return unchecked_get(s, 9) } }`, []string{"absorb lists trap but its body has no trap effect"}},
		{"outer absorb after an inner one", `module t
fn f(s: []u8) -> u8 {
    @absorb unsafe because "x" { absorb unsafe because "y" { return unchecked_get(s, 0) } }
}`, []string{"absorb lists unsafe but its body has no unsafe effect"}},
		{"declared smaller on a plain fn", `module t
@fn f(a: u32) effects trap { trace(a) }`, []string{"fn f declares effects trap but may have effect io"}},
		{"absorb of trap does not stop unsafe", `module t
@export fn f(s: []u8) -> u8 effects none { absorb trap because "x" { return unchecked_get(s, s[0]) } }`,
			[]string{"export fn f declares effects none but may have effect unsafe"}},
	} {
		t.Run(tc.name, func(t *testing.T) { expectErrors(t, tc.src, tc.want...) })
	}
}

func TestRecursion(t *testing.T) {
	expectDiagWithNotes(t, `module t
fn f(x: u32) -> u32 { return @f(x) }`, 0, "recursion is not allowed: f -> f", 0, "f calls f")
	expectDiagWithNotes(t, `module t
fn a(x: u32) -> u32 { return @b(x) }
fn b(x: u32) -> u32 { return @c(x) + 1 }
fn c(x: u32) -> u32 { if x == 0 { return 0 } return @a(x - 1) }
fn d(x: u32) -> u32 { return a(x) }`, 0, "recursion is not allowed: a -> b -> c -> a",
		0, "a calls b", 1, "b calls c", 2, "c calls a")
	// Two separate cycles are two errors; effects still terminate.
	files, diags := checkSrc(t, `module t
fn a() { b() }
fn b() { a() }
fn c(s: []u8) -> u8 { trace(s[0]) return c(s) }`)
	if len(diags) != 2 {
		t.Fatalf("got %s", render(diags))
	}
	if f := fn(t, files, "c"); f.Inferred != lang.EffectSet(lang.EffTrap|lang.EffIO) {
		t.Errorf("c effects %s", f.Inferred)
	}
}
