package mos6502

import (
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// sizeFits lists the stdlib modules whose --opt size program must fit in
// sizeLimit bytes, everything included (with the interpreter, wide.go,
// and the buffer checks' table form, overlap.go); the others are checked
// for correctness and their size is logged (docs/mos6502.md has the
// figures).
var sizeFits = map[string]bool{"sha256": true, "blake2b": true, "ghash": true, "aes": true, "gcm": true,
	"sha512": true, "sha3": true, "chacha20": true, "poly1305": true}

// sizeOver lists the stdlib modules whose interpreter program is larger
// than sizeLimit: --opt size takes it all the same, as the smallest
// program (the byte generator's are larger still), and its size is
// logged.
var sizeOver = map[string]bool{"chacha20poly1305": true}

// sizeCasesPerExport bounds the golden cases run per export in size mode
// (the rolled code is slow in the emulator).
const sizeCasesPerExport = 6

// TestOptSize builds every stdlib module the way --opt size does (the
// interpreter of wide.go) and runs a spread of its golden cases (official
// vectors and random inputs) in the emulator against Go.
func TestOptSize(t *testing.T) {
	all := golden.Cases(goldenSeed(t))
	for _, mod := range []string{"sha256", "blake2b", "ghash", "aes", "gcm", "sha512", "sha3", "chacha20", "poly1305", "chacha20poly1305"} {
		p := testprog.Stdlib(t, mod)
		var prog *program
		var err error
		if sizeFits[mod] {
			prog, err = build(input(p), backend.Options{Opt: "size"}, layout{org: runOrg})
			if err == nil && prog.cfg.w != wideW {
				t.Errorf("%s --opt size: built by the byte generator, not the interpreter", mod)
			}
		} else if sizeOver[mod] {
			prog, err = build(input(p), backend.Options{Opt: "size"}, layout{org: runOrg})
			if err == nil && prog.cfg.w != wideW {
				t.Errorf("%s --opt size: built by the byte generator, not the interpreter", mod)
			}
			if err == nil && prog.img.labels["progend"]-runOrg <= sizeLimit {
				t.Errorf("%s --opt size: %d bytes, within the limit: move it to sizeFits", mod, prog.img.labels["progend"]-runOrg)
			}
		} else {
			prog, err = buildWith(input(p), backend.Options{Opt: "size"}, layout{org: runOrg, size: true}, config{unroll: 0, inline: ir.InlineNone, w: wideW}, codeLimit-runOrg)
		}
		if err != nil {
			t.Errorf("%s: %v", mod, err)
			continue
		}
		runSizeCases(t, mod, prog, all, sizeFits[mod])
	}
}

// TestOptSizeBytes checks the byte generator's size layout (rolled, out of
// line, reused pointers), the fallback for IR the interpreter does not
// take, on SHA-256 and BLAKE2b.
func TestOptSizeBytes(t *testing.T) {
	all := golden.Cases(goldenSeed(t))
	for _, mod := range []string{"sha256", "blake2b"} {
		p := testprog.Stdlib(t, mod)
		prog, err := buildWith(input(p), backend.Options{Opt: "size"}, layout{org: runOrg, size: true}, config{unroll: 0, inline: ir.InlineNone}, codeLimit-runOrg)
		if err != nil {
			t.Fatalf("%s: %v", mod, err)
		}
		runSizeCases(t, mod, prog, all, false)
	}
}

// runSizeCases lints prog's source, logs its size (checks it against
// sizeLimit when limit is set), and runs a spread of mod's golden cases on
// it.
func runSizeCases(t *testing.T, mod string, prog *program, all []golden.Case, limit bool) {
	if errs := Lint(prog.src); len(errs) > 0 {
		t.Errorf("%s --opt size: not TMP source: %v", mod, errs[:min(3, len(errs))])
	}
	// The whole program, the entry code that checks the buffer rule of
	// the ABI (overlap.go) included, tables and variables too.
	total := prog.img.labels["progend"] - runOrg
	abi := prog.entryCheckBytes()
	if limit && total > sizeLimit {
		t.Errorf("%s --opt size: %d bytes (%d of them buffer checks), more than %d", mod, total, abi, sizeLimit)
	}
	t.Logf("%s --opt size: %d bytes, of which %d check the buffer rule", mod, total, abi)
	run := func(_ *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
		res, _, err := (&Runner{prog: prog}).Run(fn.Name, args)
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
