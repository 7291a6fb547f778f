package mos6502

import (
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// sizeFits lists the stdlib modules whose --opt size program must fit in
// sizeLimit bytes; the others are checked for correctness and their size
// is logged (docs/mos6502.md has the figures).
var sizeFits = map[string]bool{"sha256": true, "ghash": true}

// sizeCasesPerExport bounds the golden cases run per export in size mode
// (the rolled code is slow in the emulator).
const sizeCasesPerExport = 6

// TestOptSize builds every stdlib module the way --opt size does (rolled,
// out of line, no tables, reused pointers) and runs a spread of its golden
// cases (official vectors and random inputs) in the emulator against Go.
func TestOptSize(t *testing.T) {
	all := golden.Cases(goldenSeed(t))
	for _, mod := range []string{"sha256", "blake2b", "ghash", "aes", "gcm"} {
		p, err := golden.Load(mod)
		if err != nil {
			t.Fatal(err)
		}
		var prog *program
		if sizeFits[mod] {
			prog, err = build(p, backend.Options{Opt: "size"}, layout{org: runOrg})
		} else {
			prog, err = buildWith(p, backend.Options{Opt: "size"}, layout{org: runOrg, size: true}, config{0, ir.InlineNone}, codeLimit-runOrg)
		}
		if err != nil {
			t.Errorf("%s: %v", mod, err)
			continue
		}
		n := prog.img.labels["progend"] - runOrg
		if sizeFits[mod] && n > sizeLimit {
			t.Errorf("%s --opt size: %d bytes, more than %d", mod, n, sizeLimit)
		}
		t.Logf("%s --opt size: %d bytes", mod, n)
		run := func(_ *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
			res, _, err := (&Runner{prog: prog}).Run(fn, args)
			return res, err
		}
		var ps golden.Programs
		byExport := map[string][]golden.Case{}
		for _, c := range all {
			if c.Module == mod {
				byExport[c.Export] = append(byExport[c.Export], c)
			}
		}
		for exp, cs := range byExport {
			step := max(1, len(cs)/sizeCasesPerExport)
			for i := 0; i < len(cs); i += step {
				if err := golden.RunCase(&ps, run, cs[i]); err != nil {
					t.Errorf("%s %s: %v", exp, cs[i].Name, err)
				}
			}
		}
	}
}
