package mos6502

import (
	"bytes"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// TestOptSize builds sha256 with --opt size: the program fits in 8 KiB
// and still hashes right (messages of 0, 55, 56 and 200 bytes against Go).
func TestOptSize(t *testing.T) {
	p, err := golden.Load("sha256")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := build(p, backend.Options{Opt: "size"}, layout{org: runOrg, linear: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := prog.img.labels["progend"] - runOrg; n > sizeLimit {
		t.Fatalf("--opt size: %d bytes, more than %d", n, sizeLimit)
	}
	t.Logf("sha256 --opt size: %d bytes", prog.img.labels["progend"]-runOrg)
	run := func(_ *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
		res, _, err := (&Runner{prog: prog}).Run(fn, args)
		return res, err
	}
	var ps golden.Programs
	for _, n := range []int{0, 55, 56, 200} {
		c := golden.SHA256Case("size", bytes.Repeat([]byte{'a'}, n))
		if err := golden.RunCase(&ps, run, c); err != nil {
			t.Errorf("%d bytes: %v", n, err)
		}
	}
}
