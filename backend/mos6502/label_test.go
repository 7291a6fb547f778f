package mos6502

import (
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// TestExportNamedLikeInternalLabel: exports named like the generator's own
// labels (the trap exit, a local label, the multiply helper's scratch
// byte, the divide helper, a frame, a constant) still assemble and answer,
// in both modes; their entry labels get a digit.
func TestExportNamedLikeInternalLabel(t *testing.T) {
	src := `module t
export fn trap(x: u8) -> u8 effects none { return x + 1 }
export fn l3(x: u8, y: u8) -> u8 effects none { return x ^ y }
export fn hmt(x: u64, y: u64) -> u64 effects none { return x * y }
export fn divu(x: u16) -> u16 effects none { return x / 3 + x % 7 }
export fn fn0(x: u32) -> u32 effects none { return x <<< 5 }
export fn k1(x: u8) -> bool effects none { return x > 200 }
`
	p := testprog.Source(t, "t.lw", src)
	args := map[string][]lang.Value{
		"trap": {{Word: 41}}, "l3": {{Word: 0x5a}, {Word: 0xc3}}, "hmt": {{Word: 0x123456789}, {Word: 0xfedcba987}},
		"divu": {{Word: 50000}}, "fn0": {{Word: 0x87654321}}, "k1": {{Word: 201}},
	}
	tg, _ := backend.Lookup("mos6502")
	for _, opt := range []string{"speed", "size"} {
		r, err := tg.Prepare(input(p), backend.Options{Opt: opt})
		if err != nil {
			t.Fatalf("--opt %s: %v", opt, err)
		}
		for _, fn := range p.Exports() {
			want, _, err := vm.Run(p, fn, args[fn.Name], vm.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := r.Run(fn.Name, args[fn.Name])
			if err != nil {
				t.Errorf("--opt %s %s: %v", opt, fn.Name, err)
				continue
			}
			if got[0].Word != want[0].Word {
				t.Errorf("--opt %s %s = %#x, want %#x", opt, fn.Name, got[0].Word, want[0].Word)
			}
		}
		r.Close()
	}
}
