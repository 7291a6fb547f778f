package amd64

import (
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// TestNamesThatAreCWords: parameters named like C/C++ keywords or header
// types, or like the names the ABI makes (a slice's NAME_len, the result
// pointer ret), still give a header that compiles, and the right answers.
func TestNamesThatAreCWords(t *testing.T) {
	src := `module class
export fn new(int: u8, char: mut [4]u8, size_t: u16) -> u8 effects none {
    let short = int + (size_t as u8)
    char[0] = short
    return short
}
export fn f(msg: []u8, msg_len: u32, ret: u8) -> u32 effects none {
    return len(msg) + msg_len + ret as u32
}
`
	p := testprog.Source(t, "class.lw", src)
	h, err := Compile(input(p), backend.Options{Emit: "h"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"uint8_t int_,", "uint8_t char_[LOWENTC_STATIC 4],", "uint16_t size_t_,", "uint32_t msg_len_,", "uint32_t *ret_)"} {
		if !strings.Contains(string(h), want) {
			t.Errorf("header lacks %q:\n%s", want, h)
		}
	}
	r, err := Prepare(input(p), backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	args := map[string][]lang.Value{
		"new": {{Word: 3}, {IsArray: true, Elems: []uint64{9, 9, 9, 9}}, {Word: 0x102}},
		"f":   {{IsArray: true, Elems: []uint64{1, 2, 3}}, {Word: 40}, {Word: 7}},
	}
	for _, fn := range p.Exports() {
		a, b := lang.CopyValues(args[fn.Name]), lang.CopyValues(args[fn.Name])
		want, _, err := vm.Run(p, fn, a, vm.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := r.Run(fn.Name, b)
		if err != nil {
			t.Fatalf("%s: %v", fn.Name, err)
		}
		if got[0].Word != want[0].Word || len(a) > 1 && a[1].IsArray && a[1].Elems[0] != b[1].Elems[0] {
			t.Errorf("%s: got %v %v, want %v %v", fn.Name, got, b, want, a)
		}
	}
}
