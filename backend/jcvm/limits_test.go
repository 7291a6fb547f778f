package jcvm

import (
	"testing"

	"github.com/lowent/lowentc/backend"
)

var stdlibModules = []string{"sha256", "blake2b", "ghash", "aes", "gcm", "sha512", "sha3", "chacha20", "poly1305", "chacha20poly1305"}

// TestLimits compiles every stdlib module with and without int and checks
// that every method respects the JCVM's limits.
func TestLimits(t *testing.T) {
	for _, noInt := range []bool{false, true} {
		for _, mod := range stdlibModules {
			cls, err := stdlibClassErr(mod, backend.Options{NoInt: noInt})
			if err != nil {
				t.Errorf("%s noInt=%v: %v", mod, noInt, err)
				continue
			}
			for _, m := range cls.Methods {
				params := 0
				for _, v := range m.Params {
					params += v.Kind.Cells()
				}
				t.Logf("%s noInt=%v %s: %d bytes, %d+%d cells, stack %d", mod, noInt, m.Name, m.Size, params, m.Locals, m.Stack)
				if m.Size > maxCodeSize || params+m.Locals > maxCells || m.Stack > maxStack {
					t.Errorf("%s: method %s exceeds a JCVM limit", mod, m.Name)
				}
			}
		}
	}
}
