package ir_test

import (
	"testing"

	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
)

// TestClone checks that a module's copy prints as the module does, runs
// the same, and shares nothing the original's printing could see change.
func TestClone(t *testing.T) {
	p := load(t, `module cl
const tab: [4]u8 = [1, 2, 3, 4]
fn mix(a: mut [4]u32, k: u32) effects none {
    for i in 0..4 { a[i] = (a[i] <<< 3) ^ k ^ (tab[i] as u32) }
}
export fn run(a: mut [4]u32, n: u32) -> u32 effects trap {
    var b: [4]u32
    for i in 0..4 { b[i] = a[i] + n }
    mix(b, n)
    mix(a, 7)
    return b[n % 4] / (n | 1)
}
`)
	for _, w := range widths {
		m, err := lower.Compile(p, ir.Options{W: w, Unroll: 4, InlineBudget: ir.InlineNone})
		if err != nil {
			t.Fatal(err)
		}
		want := m.String()
		cp := m.Clone()
		if got := cp.String(); got != want {
			t.Fatalf("W=%d: the clone prints differently:\n%s\nwant:\n%s", w, got, want)
		}
		if err := cp.Verify(); err != nil {
			t.Fatalf("W=%d: the clone does not verify: %v", w, err)
		}
		// Editing the clone leaves the original alone.
		for _, f := range cp.Funcs {
			f.Renumber()
			f.Body.Instrs = f.Body.Instrs[len(f.Body.Instrs)-1:]
		}
		if m.String() != want {
			t.Fatalf("W=%d: editing the clone changed the original", w)
		}
		args := func() []lang.Value {
			return []lang.Value{{IsArray: true, Elems: []uint64{1, 2, 3, 4}}, {Word: 6}}
		}
		r1, err1 := ir.Run(m, "run", args())
		r2, err2 := ir.Run(m.Clone(), "run", args())
		if err1 != nil || err2 != nil || r1[0].Word != r2[0].Word {
			t.Fatalf("W=%d: the clone runs differently: %v %v / %v %v", w, r1, err1, r2, err2)
		}
	}
}
