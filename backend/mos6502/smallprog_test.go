package mos6502

import (
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// smallProgram loads src (a module t written in a test) and builds it in
// lay with configuration c, with room to spare (no search, no fitting),
// or fails the test.
func smallProgram(t *testing.T, src string, lay layout, c config) (*lang.Program, *program) {
	t.Helper()
	p := testprog.Source(t, "t.lw", src)
	prog, err := buildSeen(input(p), backend.Options{}, lay, c, 0x8000, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p, prog
}

// agreesWithVM calls fn on prog and on the VM with args and reports a
// different first result, naming the call by what.
func agreesWithVM(t *testing.T, p *lang.Program, prog *program, fn *lang.FuncDecl, args []lang.Value, what string) {
	t.Helper()
	want, _, err := vm.Run(p, fn, args, vm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := prog.call(fn.Name, args)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Word != want[0].Word {
		t.Errorf("%s = %#x, want %#x", what, got[0].Word, want[0].Word)
	}
}

// exportText is the part of prog's source that holds export fn of module
// t: from its `; t.fn` header to the next export's.
func exportText(prog *program, fn string) string {
	text := prog.src[strings.Index(prog.src, "\n; t."+fn+"\n"):]
	if i := strings.Index(text[1:], "\n; t."); i >= 0 {
		text = text[:i+1]
	}
	return text
}
