package jcvm

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/sem"
)

// outlineSource is a module over sizeGoal only because of one function's
// inlined copies: mix is within the IR's inline budget (sizeInline) but
// takes several hundred bytes of bytecode, and run calls it from 96
// places in straight-line code.
func outlineSource() string {
	var b strings.Builder
	b.WriteString("module outl\n\nfn mix(a: u32, b: u32) -> u32 {\n    var x = a\n    var y = b\n")
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&b, "    x = ((x ^ y) <<< %d) + (y >> %d)\n    y = (y + x) ^ (x >>> %d)\n", i+1, i+2, i+3)
	}
	b.WriteString("    return x ^ y\n}\n\nexport fn run(v: [96]u32, out: mut [96]u32) effects none {\n")
	for i := 0; i < 96; i++ {
		fmt.Fprintf(&b, "    out[%d] = mix(v[%d], v[%d])\n", i, i, (i+1)%96)
	}
	b.WriteString("}\n")
	return b.String()
}

// TestOutlineOverGoal: a module that rolling its loops cannot bring within
// sizeGoal (it has none) keeps the function whose copies take the most
// bytes out of line, one method its callers share, and computes what the
// fully inlined module computes.
func TestOutlineOverGoal(t *testing.T) {
	p := testprog.Source(t, "outl.lw", outlineSource())
	for _, noInt := range []bool{false, true} {
		opts := backend.Options{NoInt: noInt}
		io, err := irOptions(opts)
		if err != nil {
			t.Fatal(err)
		}
		inl, err := compileClassIO(input(p), io, opts)
		if err != nil {
			t.Fatalf("noInt=%v: %v", noInt, err)
		}
		ist, err := statsOf(inl)
		if err != nil {
			t.Fatal(err)
		}
		if ist.methodBytes <= sizeGoal {
			t.Fatalf("noInt=%v: the inlined module takes %d bytes, want it over %d for this test", noInt, ist.methodBytes, sizeGoal)
		}
		cls, err := compileClass(input(p), opts)
		if err != nil {
			t.Fatalf("noInt=%v: %v", noInt, err)
		}
		st, err := statsOf(cls)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("noInt=%v: inlined %d bytes, fitted %d", noInt, ist.methodBytes, st.methodBytes)
		if st.methodBytes > sizeGoal {
			t.Errorf("noInt=%v: %d bytes of bytecode, want at most %d", noInt, st.methodBytes, sizeGoal)
		}
		if n := methodsNamed(cls, "mix"); n != 1 {
			t.Errorf("noInt=%v: %d methods mix, want 1", noInt, n)
		}
		v := sem.Value{IsArray: true, Elems: make([]uint64, 96)}
		for i := range v.Elems {
			v.Elems[i] = uint64(i)*0x9e3779b9&0xffffffff ^ 0x5bd1e995
		}
		out := sem.Value{IsArray: true, Elems: make([]uint64, 96)}
		var got [2][]sem.Value
		for k, c := range []*Class{inl, cls} {
			r := &Runner{cls: c, sim: newSim(c), card: Cards["jcop4"]}
			res, _, err := r.call("run", sem.CopyValues([]sem.Value{v, out}))
			if err != nil {
				t.Fatalf("noInt=%v: %v", noInt, err)
			}
			got[k] = res
		}
		if fmt.Sprint(got[0]) != fmt.Sprint(got[1]) {
			t.Errorf("noInt=%v: outlined module gives %v, inlined %v", noInt, got[1], got[0])
		}
	}
}
