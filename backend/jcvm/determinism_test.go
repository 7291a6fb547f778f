package jcvm

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
)

// TestDeterministic compiles every stdlib module twice at both widths and
// requires the .java and .jca output to be identical byte for byte: nothing
// may depend on map iteration order or addresses. Run 0 is the package's
// shared compilation (stdlibClass, made by whichever test asked first),
// every later run a compilation of its own.
func TestDeterministic(t *testing.T) {
	const runs = 2
	for _, noInt := range []bool{false, true} {
		for _, mod := range stdlibModules {
			var first map[string][]byte
			for run := 0; run < runs; run++ {
				var cls *Class
				if run == 0 {
					cls = stdlibClass(t, mod, backend.Options{NoInt: noInt})
				} else {
					// Load afresh, so pointers and map seeds differ.
					p := testprog.Stdlib(t, mod)
					var err error
					cls, err = compileClass(input(p), backend.Options{NoInt: noInt})
					if err != nil {
						t.Fatalf("%s noInt=%v: %v", mod, noInt, err)
					}
				}
				got := map[string][]byte{"java": []byte(printJava(cls, "lowent")), "jca": []byte(printJCA(cls, "lowent", DefaultAIDs(cls.Name)))}
				if first == nil {
					first = got
					continue
				}
				for emit, b := range got {
					if !bytes.Equal(b, first[emit]) {
						t.Errorf("%s noInt=%v --emit %s: run %d differs from run 0 %s", mod, noInt, emit, run, firstDiff(first[emit], b))
					}
				}
			}
		}
	}
}

// firstDiff describes the first line where a and b differ.
func firstDiff(a, b []byte) string {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := 0; i < len(la) && i < len(lb); i++ {
		if !bytes.Equal(la[i], lb[i]) {
			return fmt.Sprintf("at line %d: %q vs %q", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("in length: %d vs %d lines", len(la), len(lb))
}
