package jcvm

import (
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/driver"
)

// TestMethodLimitsArePositioned: a JCVM method limit the generated code
// cannot be brought under (parameter cells, operand stack) is reported at
// the export it comes from, FILE:LINE:COL first. (With --no-int the deep
// expression compiles: its 16-bit limbs are separate statements.)
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
		{"an expression 200 deep", "module m\n\nexport fn f(x: u32) -> u32 effects none {\n    return " + strings.Repeat("-", 200) + "x\n}\n",
			"m.lw:3:1: jcvm: method f needs 402 stack cells (limit 255)", []bool{false}},
	} {
		p, ds := driver.LoadSource("m.lw", []byte(c.src))
		if len(ds) > 0 {
			t.Fatalf("%s: %v", c.name, ds)
		}
		for _, noInt := range c.widths {
			_, err := compileArtifact(p, backend.Options{NoInt: noInt})
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("%s, noInt=%v: error %v\nwant %s...", c.name, noInt, err, c.want)
			}
		}
	}
}
