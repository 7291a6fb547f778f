package amd64

import (
	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/ir"
)

// The computed variant's AES rounds: backend/llvm's bitsliced circuit
// (soft_slice.go there), in groups of up to eight rounds per block.

// planSoft plans the AES groups of a block of a computed variant.
func (g *fgen) planSoft(b *ir.Block) *blockPlan {
	p := &blockPlan{aesSkip: map[*ir.Instr]bool{}, aesGroup: map[*ir.Instr][]*ir.Instr{}}
	g.planAESGroups(b, p, 8, true)
	return p
}

// softInstr emits the AES rounds of a computed variant; it reports false
// for every other instruction.
func (g *fgen) softInstr(in *ir.Instr, p *blockPlan) bool {
	if g.v.hw {
		return false
	}
	return g.soft.Select(g.Func, in, &llvm.AESPlan{Skip: p.aesSkip, Group: p.aesGroup})
}
