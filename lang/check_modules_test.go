package lang_test

import (
	"testing"

	"github.com/lowent/lowentc/lang"
)

func TestModules(t *testing.T) {
	files := mustCheck(t, `module hw
const K: u64 = 5
const T: [2]u64 = [K, K + 1]
fn mul(out: mut []u64, a: u64, b: u64) requires len(out) >= 2 {
    out[0] = clmul_lo(a, b)
    out[1] = clmul_hi(a, b)
}
export fn helper() effects none { }
====
module user
import hw
const L: u64 = hw.K * 2 + hw.T[1]
fn step(y: mut [2]u64, x: [2]u64) {
    hw.mul(y, x[0], hw.K)
    hw.helper()
}`)
	if l := files[1].Consts[0]; l.Val == nil || l.Val.Word != 16 {
		t.Errorf("L = %+v, want 16", l.Val)
	}
	step := fn(t, files, "step")
	if step.Features != lang.FeatureSet(lang.FeatPCLMUL) || step.Inferred != 0 {
		t.Errorf("step: %s %s", step.Inferred, step.Features)
	}
}

func TestModuleErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"unknown import", `module m
@import nowhere`, []string{"unknown module nowhere"}},
		{"import of a later module", `module a
@import b
====
module b`, []string{"unknown module b"}},
		{"duplicate import", `module a
====
module b
import a
@import a`, []string{"module a is imported twice"}},
		{"self import", `module a
@import a`, []string{"module a imports itself"}},
		{"duplicate module", `module a
====
@module a`, []string{"duplicate module a"}},
		{"qualified name without import", `module a
const K: u32 = 1
====
module b
fn f() -> u32 { return @a.K }`, []string{"module a is not imported"}},
		{"qualified call without import", `module a
fn g() { }
====
module b
fn f() { @a.g() }`, []string{"module a is not imported"}},
		{"qualified self reference", `module a
const K: u32 = 1
fn f() -> u32 { return @a.K }`, []string{"module a is not imported"}},
		{"qualified name of an unknown module", `module a
fn f() -> u32 { return @zz.K }`, []string{"unknown module zz"}},
		{"unknown member", `module a
====
module b
import a
fn f() -> u32 { return @a.K }`, []string{"undefined: a.K"}},
		{"unqualified name of another module", `module a
const K: u32 = 1
====
module b
import a
fn f() -> u32 { return @K }`, []string{"undefined: K"}},
		{"const used as function", `module a
const K: u32 = 1
====
module b
import a
fn f() { @a.K() }`, []string{"a.K is not a function"}},
		{"effects across modules", `module a
fn get(s: []u8) -> u8 { return @unchecked_get(s, 0) }
====
module b
import a
@export fn f(s: []u8) -> u8 effects none { return @a.get(s) }`, []string{
			"", "export fn f declares effects none but may have effect unsafe", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Notes are not diagnostics: markers on note positions are
			// skipped by matching only the main diagnostics.
			if tc.name == "effects across modules" {
				expectDiagWithNotes(t, tc.src, 1, tc.want[1], 2, "f calls a.get", 0, "get calls unchecked_get (unsafe)")
				return
			}
			expectErrors(t, tc.src, tc.want...)
		})
	}
}
