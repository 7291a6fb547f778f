package mos6502

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// zpChainSrc is a module whose call chain of eight functions, each with
// four u64 parameters (40 bytes of parameters and result a frame), holds
// more scalar bytes than the zero page has, under an export with six
// array parameters (20 bytes of pointers and slice lengths).
func zpChainSrc() string {
	var b strings.Builder
	b.WriteString("module m\n")
	b.WriteString("fn f0(a: u64, b: u64, c: u64, d: u64) -> u64 {\n    return (a ^ (b >> 3)) + (c ^ (d << 5))\n}\n")
	for i := 1; i < 8; i++ {
		fmt.Fprintf(&b, "fn f%d(a: u64, b: u64, c: u64, d: u64) -> u64 {\n    return f%d(a, b, c, d) + f%d(d, c + %d, b, a)\n}\n", i, i-1, i-1, i)
	}
	b.WriteString(`export fn e(k: [16]u8, n: [12]u8, x: []u8, y: []u8, out: mut [8]u8, z: mut []u8) requires len(x) == 16 && len(y) == 8 && len(z) == 8 effects none {
    let v = f7(load_le64(k, 0), load_le64(k, 8), load_le64(x, 8) ^ load_le64(n, 4), load_le64(y, 0))
    store_le64(out, 0, v)
    store_le64(z, 0, v ^ load_le64(x, 0))
}
`)
	return b.String()
}

// TestZeroPageChain: with layout.zpKeep (what build tries when no
// configuration leaves zero page for an export's array pointers) the
// scalar parameters and results of the functions an export calls stay
// out of the zero page its pointers need. Without it the chain takes
// every zero-page byte with its parameters and the export fails to build
// ("zero page exhausted (array parameter k)", as chacha20poly1305 with
// the two-chain Poly1305 did in every configuration); with it the program
// builds and agrees with the VM.
func TestZeroPageChain(t *testing.T) {
	p := testprog.Source(t, "m.lw", zpChainSrc())
	c := config{unroll: 0, inline: ir.InlineNone}
	_, err := buildWith(input(p), backend.Options{}, layout{org: runOrg, linear: true}, c, codeLimit-runOrg)
	if fe, ok := err.(*fitError); !ok || !fe.zp {
		t.Fatalf("scalars first in zero page: %v, want the zero page exhausted", err)
	}
	prog, err := buildWith(input(p), backend.Options{}, layout{org: runOrg, linear: true, zpKeep: true}, c, codeLimit-runOrg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(prog.src, "jsr") {
		t.Fatal("the calls were not kept")
	}
	fn := p.Export("e")
	seq := func(n, k int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(37*i + k)
		}
		return b
	}
	args := func() []lang.Value {
		return []lang.Value{bytesValue(seq(16, 1)), bytesValue(seq(12, 2)), bytesValue(seq(16, 3)), bytesValue(seq(8, 4)),
			bytesValue(make([]byte, 8)), bytesValue(make([]byte, 8))}
	}
	want := args()
	if _, _, err := vm.Run(p, fn, want, vm.Options{}); err != nil {
		t.Fatal(err)
	}
	got := args()
	if _, _, err := (&Runner{prog: prog}).Run(fn.Name, got); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{4, 5} {
		if fmt.Sprint(got[i].Elems) != fmt.Sprint(want[i].Elems) {
			t.Errorf("e: %s = %v; want %v", fn.Params[i].Name, got[i].Elems, want[i].Elems)
		}
	}
}
