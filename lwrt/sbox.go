package lwrt

import (
	"fmt"
	"strings"

	"github.com/lowent/lowentc/internal/aessbox"
)

// sboxLowent renders package aessbox's S-box circuit as the Lowent function
// sbox_planes(p: mut [8]u16) of the runtime (rt.lw): p[j] is bit
// plane j of 16 bytes, and every gate becomes one 16-bit xor, and or not, so
// the sixteen S-boxes of a round cost one pass over the circuit, with no
// table and nothing that depends on the data but the values.
func sboxLowent() string {
	c := aessbox.Sbox()
	var b strings.Builder
	b.WriteString("\n// sbox_planes is SubBytes on bit planes: p[j] holds bit j of 16 bytes.\n")
	b.WriteString("// Generated from package aessbox's tower-field circuit.\n")
	b.WriteString("fn sbox_planes(p: mut [8]u16) {\n")
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&b, "    let g%d = p[%d]\n", i, i)
	}
	for i, g := range c.Gates {
		switch g.Op {
		case '^':
			fmt.Fprintf(&b, "    let g%d = g%d ^ g%d\n", 8+i, g.A, g.B)
		case '&':
			fmt.Fprintf(&b, "    let g%d = g%d & g%d\n", 8+i, g.A, g.B)
		case '~':
			fmt.Fprintf(&b, "    let g%d = ~g%d\n", 8+i, g.A)
		default:
			panic(fmt.Sprintf("BUG: lwrt: S-box gate with op %q", g.Op))
		}
	}
	for i, s := range c.Outs {
		fmt.Fprintf(&b, "    p[%d] = g%d\n", i, s)
	}
	b.WriteString("}\n")
	return b.String()
}
