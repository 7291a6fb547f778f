package stdlib_test

import (
	"strings"
	"testing"

	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
	"github.com/lowent/lowentc/vm"
)

// TestChaChaLengthFaults: an output whose length differs from its input's
// is a fault of the call (the export's requires), never a wrong answer,
// and nothing is written.
func TestChaChaLengthFaults(t *testing.T) {
	b := golden.Bytes
	key, nonce := make([]byte, 32), make([]byte, 12)
	for _, c := range []struct {
		mod, export, cond string
		args              []lang.Value
	}{
		{"chacha20", "chacha20_xor", "len(dst) == len(src)",
			[]lang.Value{b(key), b(nonce), {Word: 1}, b(make([]byte, 65)), b(make([]byte, 64))}},
		{"chacha20poly1305", "chacha20_poly1305_seal", "len(ct) == len(pt)",
			[]lang.Value{b(key), b(nonce), b(nil), b(make([]byte, 3)), b(make([]byte, 4)), b(make([]byte, 16))}},
		{"chacha20poly1305", "chacha20_poly1305_open", "len(pt) == len(ct)",
			[]lang.Value{b(key), b(nonce), b(nil), b(make([]byte, 17)), b(make([]byte, 16)), b(make([]byte, 16))}},
	} {
		p := testprog.Stdlib(t, c.mod)
		_, _, err := vm.Run(p, p.Export(c.export), c.args, vm.Options{})
		if err == nil || !strings.Contains(err.Error(), "requires "+c.cond) {
			t.Errorf("%s with mismatched lengths: %v, want a fault naming requires %s", c.export, err, c.cond)
		}
		for i, a := range c.args {
			for _, e := range a.Elems {
				if e != 0 {
					t.Errorf("%s: argument %d was written", c.export, i)
					break
				}
			}
		}
	}
}
