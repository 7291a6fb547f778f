package vm_test

import (
	"errors"
	"testing"

	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// load parses and checks a test program held in a string.
func load(t testing.TB, src string) *lang.Program {
	return testprog.Source(t, "t.lw", src)
}

// try runs the exported function name of p.
func try(t testing.TB, p *lang.Program, name string, args ...lang.Value) ([]lang.Value, error) {
	t.Helper()
	fn := p.Export(name)
	if fn == nil {
		t.Fatalf("no exported function %s", name)
	}
	res, _, err := vm.Run(p, fn, args, vm.Options{})
	return res, err
}

// call runs the exported function name of p and fails the test on an error.
func call(t testing.TB, p *lang.Program, name string, args ...lang.Value) []lang.Value {
	t.Helper()
	res, err := try(t, p, name, args...)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// words extracts the Word of each result.
func words(vs []lang.Value) []uint64 {
	out := make([]uint64, len(vs))
	for i, v := range vs {
		out[i] = v.Word
	}
	return out
}

// trapOf asserts that err is a *vm.Trap and returns it.
func trapOf(t testing.TB, err error) *vm.Trap {
	t.Helper()
	var tr *vm.Trap
	if !errors.As(err, &tr) {
		t.Fatalf("want a trap, got %v", err)
	}
	return tr
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }

func w(x uint64) lang.Value { return lang.Value{Word: x} }

func b(x bool) lang.Value {
	if x {
		return w(1)
	}
	return w(0)
}

func arr(xs ...uint64) lang.Value { return lang.Value{Elems: xs, IsArray: true} }

func byteArr(bs []byte) lang.Value {
	xs := make([]uint64, len(bs))
	for i, c := range bs {
		xs[i] = uint64(c)
	}
	return arr(xs...)
}

func toBytes(xs []uint64) []byte {
	out := make([]byte, len(xs))
	for i, x := range xs {
		out[i] = byte(x)
	}
	return out
}

func mask(width int) uint64 {
	if width == 64 {
		return ^uint64(0)
	}
	return 1<<width - 1
}
