package jcvm

import (
	"strings"
	"testing"
	"time"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/driver"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// TestMethodLimitsArePositioned: a JCVM method limit the generated code
// cannot be brought under (parameter cells) is reported at the export it
// comes from, FILE:LINE:COL first. (An expression too deep for the operand
// stack is no longer one: see TestDeepExpressions.)
func TestMethodLimitsArePositioned(t *testing.T) {
	var params []string
	for i := 0; i < 257; i++ {
		params = append(params, "p"+itoa(i)+": u8")
	}
	for _, c := range []struct {
		name, src, want string
		widths          []bool // the noInt settings it fails at
	}{
		{"257 parameters", "module m\n\nexport fn f(" + strings.Join(params, ", ") + ") -> u8 effects none { return p0 }\n",
			"m.lw:3:1: jcvm: method f needs 257 local cells (limit 255)", []bool{false, true}},
	} {
		p, ds := driver.LoadSource("m.lw", []byte(c.src))
		if len(ds) > 0 {
			t.Fatalf("%s: %v", c.name, ds)
		}
		for _, noInt := range c.widths {
			_, err := compileArtifact(input(p), backend.Options{NoInt: noInt})
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("%s, noInt=%v: error %v\nwant %s...", c.name, noInt, err, c.want)
			}
		}
	}
}

// TestLongElseIfChain: each branch of an if-else chain gives the chain's
// value a local of its own, assigned in the branch and again where the
// branches join, so 200 branches keep 200 ints apparently live at once.
// Spilling them used to keep each in its local from the first assignment
// to the last (the whole chain), so the method stayed at 400 cells and
// was refused (after 40 s of spilling); now each stores through a
// short-lived temporary, and the chain compiles and agrees with the VM.
func TestLongElseIfChain(t *testing.T) {
	var b strings.Builder
	b.WriteString("module m\nexport fn f(x: u32) -> u32 effects none {\n    var y: u32 = 0\n    if x == 0 { y = 7 }")
	for k := 1; k < 200; k++ {
		b.WriteString(" else if x == " + itoa(k) + " { y = " + itoa(k*k+1) + " }")
	}
	b.WriteString(" else { y = 3 }\n    return y\n}\n")
	p := testprog.Source(t, "m.lw", b.String())
	fn := p.Export("f")
	for _, noInt := range []bool{false, true} {
		r, err := prepare(input(p), backend.Options{NoInt: noInt})
		if err != nil {
			t.Fatalf("noInt=%v: %v", noInt, err)
		}
		for _, x := range []uint64{0, 1, 2, 99, 198, 199, 200, 1 << 31} {
			args := []lang.Value{{Word: x}}
			want, _, err := vm.Run(p, fn, args, vm.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := r.Run(fn.Name, args)
			if err != nil || got[0].Word != want[0].Word {
				t.Errorf("noInt=%v: f(%d) = %v, %v; want %d", noInt, x, got, err, want[0].Word)
			}
		}
	}
}

// TestTooManyParametersRefusedAtOnce: an export whose parameters alone
// take more than the JCVM's 255 local cells is refused before any
// splitting or spilling, which cannot help (4,000 parameters took minutes).
func TestTooManyParametersRefusedAtOnce(t *testing.T) {
	var params []string
	for i := 0; i < 4000; i++ {
		params = append(params, "p"+itoa(i)+": u8")
	}
	p := testprog.Source(t, "m.lw", "module m\nexport fn f("+strings.Join(params, ", ")+") -> u8 effects none { return p0 }\n")
	start := time.Now()
	_, err := compileArtifact(input(p), backend.Options{})
	if err == nil || err.Error() != "m.lw:2:1: jcvm: method f needs 4000 local cells (limit 255)" {
		t.Errorf("error %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("refusing took %v", d)
	}
}
