// Package lwrt holds lowentc's runtime, written in Lowent (rt.lw): the
// computed forms of the AES-round and carry-less-multiply builtins, once
// for every target. A target without the instructions compiles it beside
// the program (backend.Target.Runtime) or has the driver link it into the
// program (ir.Options.Link); either way it goes through the same pipeline
// as the program, at the program's limb width.
//
// Its exported functions and the builtins they compute:
//
//	enc(s0, s1, k0, k1) -> (u64, u64)      aes_enc
//	enclast(s0, s1, k0, k1) -> (u64, u64)  aes_enclast
//	clmul(a, b) -> (lo, hi)                clmul_lo (lo), clmul_hi (hi)
package lwrt

import (
	_ "embed"
	"sync"
)

//go:embed rt.lw
var rtSource []byte

// Name is the file name the runtime's diagnostics use.
const Name = "lwrt.lw"

var (
	textOnce sync.Once
	text     []byte
)

// Source returns the runtime's Lowent source: rt.lw with the S-box
// circuit appended (a fresh copy).
func Source() []byte {
	textOnce.Do(func() {
		text = append(append([]byte(nil), rtSource...), sboxLowent()...)
	})
	return append([]byte(nil), text...)
}
