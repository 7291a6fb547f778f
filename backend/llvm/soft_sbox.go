package llvm

import "github.com/lowent/lowentc/internal/aessbox"

// The AES S-box as a Boolean circuit for the bitsliced computed AES: the
// tower-field circuit of package aessbox (shared with the jcvm backend),
// evaluated here on bitsliced planes through wordOps. TestSliceSbox checks
// all 256 inputs.

// sboxCircuit is the tower-field S-box circuit, built once.
var sboxCircuit = aessbox.Sbox

// evalCircuit evaluates c on bitsliced planes.
func evalCircuit[V any](o wordOps[V], c *aessbox.Circuit, in [8]V) [8]V {
	sig := make([]V, 8, 8+len(c.Gates))
	copy(sig, in[:])
	ones := o.c(^uint64(0))
	for _, g := range c.Gates {
		switch g.Op {
		case '^':
			sig = append(sig, o.xor(sig[g.A], sig[g.B]))
		case '&':
			sig = append(sig, o.and(sig[g.A], sig[g.B]))
		default:
			sig = append(sig, o.xor(sig[g.A], ones))
		}
	}
	var out [8]V
	for i, s := range c.Outs {
		out[i] = sig[s]
	}
	return out
}
