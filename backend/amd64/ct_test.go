package amd64

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// Constant time: no load whose address is a constant table (.rodata, a
// constant pool .LCPI, or a symbol defined in a .rodata section) plus a
// register. Such a load is a table lookup whose index is data; with a
// cache its time can depend on that data. Loads of a constant at a fixed
// address (the vector masks of the computed AES, at (%rip)) are fine.

var (
	objFunc  = regexp.MustCompile(`^[0-9a-f]+ <(.*)>:$`)
	objInsn  = regexp.MustCompile(`^\s+[0-9a-f]+:\s+(\S+)\s*([^#]*)`)
	objReloc = regexp.MustCompile(`^\s+[0-9a-f]+:\s+R_X86_64_\w+\s+([^\s+-]+)`)
	objSym   = regexp.MustCompile(`^[0-9a-f]{16} .{7} (\.rodata\S*)\s+[0-9a-f]+ (\S+)$`)
	memOp    = regexp.MustCompile(`(\S*)\((%\w+)?(?:,(%\w+)(?:,\d)?)?\)`)
	gpr64    = map[string]string{}
)

func init() {
	for _, r := range [][4]string{
		{"rax", "eax", "ax", "al"}, {"rbx", "ebx", "bx", "bl"}, {"rcx", "ecx", "cx", "cl"},
		{"rdx", "edx", "dx", "dl"}, {"rsi", "esi", "si", "sil"}, {"rdi", "edi", "di", "dil"},
		{"rbp", "ebp", "bp", "bpl"}, {"rsp", "esp", "sp", "spl"},
	} {
		for _, n := range r[:4] {
			gpr64["%"+n] = "%" + r[0]
		}
	}
	for i := 8; i < 16; i++ {
		r := fmt.Sprintf("%%r%d", i)
		for _, s := range []string{"", "d", "w", "b"} {
			gpr64[r+s] = r
		}
	}
}

// objLine is one instruction of the listing with its relocation target.
type objLine struct {
	text, mn string
	ops      []string
	reloc    string
}

// splitOps splits AT&T operands at the commas outside parentheses.
func splitOps(s string) []string {
	var ops []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				ops = append(ops, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		ops = append(ops, t)
	}
	return ops
}

// tableLoads returns the instructions of an llvm-objdump -d -r -t listing
// that read memory at a constant table plus a register. It follows each
// function in address order: a register loaded with a table's address
// (lea of a .rodata relocation) is a table base, a base plus a register
// is an indexed table address, and moves and additions carry both along.
func tableLoads(listing string) []string {
	lines := strings.Split(listing, "\n")
	constSym := map[string]bool{}
	for _, l := range lines {
		if m := objSym.FindStringSubmatch(l); m != nil {
			constSym[m[2]] = true
		}
	}
	isConst := func(sym string) bool {
		return strings.HasPrefix(sym, ".rodata") || strings.HasPrefix(sym, ".LCPI") || constSym[sym]
	}
	var insns []*objLine
	for _, l := range lines {
		if m := objReloc.FindStringSubmatch(l); m != nil && len(insns) > 0 {
			insns[len(insns)-1].reloc = m[1]
			continue
		}
		if objFunc.MatchString(l) {
			insns = append(insns, &objLine{mn: "<func>"})
			continue
		}
		if m := objInsn.FindStringSubmatch(l); m != nil {
			insns = append(insns, &objLine{text: strings.TrimSpace(l), mn: m[1], ops: splitOps(m[2])})
		}
	}
	const base, indexed = 1, 2
	var state map[string]int
	var bad []string
	for _, in := range insns {
		if in.mn == "<func>" {
			state = map[string]int{}
			continue
		}
		if strings.HasPrefix(in.mn, "nop") { // padding: its operand is never read
			continue
		}
		constRel := in.reloc != "" && isConst(in.reloc)
		// The memory operand, if any: its base and index registers.
		var mb, mi string
		hasMem := false
		for _, op := range in.ops {
			if m := memOp.FindStringSubmatch(op); m != nil && !strings.HasPrefix(op, "*%") {
				hasMem = true
				mb, mi = gpr64[m[2]], gpr64[m[3]]
			}
		}
		memState := 0 // what the address computed by the operand is
		if hasMem {
			sb, si := state[mb], state[mi]
			switch {
			case sb == indexed || si == indexed:
				memState = indexed
			case constRel && mi != "":
				memState = indexed
			case (sb == base || si == base) && mb != "" && mi != "":
				memState = indexed
			case sb == base || si == base, constRel && (mb == "" || mb == "%rip"):
				memState = base
			}
		}
		if strings.HasPrefix(in.mn, "lea") {
			if d := gpr64[in.ops[len(in.ops)-1]]; d != "" {
				state[d] = memState
			}
			continue
		}
		if hasMem && memState == indexed {
			bad = append(bad, in.text)
		}
		if len(in.ops) == 0 {
			continue
		}
		d := gpr64[in.ops[len(in.ops)-1]]
		if d == "" || strings.HasPrefix(in.mn, "cmp") || strings.HasPrefix(in.mn, "test") ||
			strings.HasPrefix(in.mn, "bt") || strings.HasPrefix(in.mn, "push") {
			continue
		}
		src := ""
		if len(in.ops) == 2 {
			src = gpr64[in.ops[0]]
		}
		switch {
		case strings.HasPrefix(in.mn, "mov") && constRel && strings.HasPrefix(in.ops[0], "$"):
			state[d] = base // an absolute table address (non-PIC code)
		case strings.HasPrefix(in.mn, "mov") && src != "" && (in.mn == "movq" || in.mn == "mov"):
			state[d] = state[src]
		case (strings.HasPrefix(in.mn, "add") || strings.HasPrefix(in.mn, "sub") ||
			strings.HasPrefix(in.mn, "or") || strings.HasPrefix(in.mn, "xor")) && (state[d] != 0 || state[src] != 0):
			if src != "" || hasMem {
				state[d] = indexed
			}
		default:
			state[d] = 0
		}
	}
	return bad
}

// TestTableLoadsDetector: the detector finds the forms a table lookup
// takes (a lea'd or mov'd table address plus an index, an absolute table
// with an index, a base moved or advanced by data) and passes constant
// loads, loads at a fixed offset from a table base, and padding.
func TestTableLoadsDetector(t *testing.T) {
	listing := `
SYMBOL TABLE:
0000000000000000 l     O .rodata	0000000000000100 lowentc.aes.sbox

0000000000000000 <f>:
      30:      	leaq	(%rip), %r10            # 0x37 <f+0x37>
		0000000000000033:  R_X86_64_PC32	.rodata-0x4
      37:      	movzbl	(%rdi,%r10), %edi
      3b:      	movzbl	0x10(%r10), %edi
      40:      	movdqa	(%rip), %xmm1           # 0x48 <f+0x48>
		0000000000000044:  R_X86_64_PC32	.LCPI0_0-0x4
      48:      	movzbl	(%rsi), %eax

0000000000000050 <g>:
      50:      	movzbl	(%rdi,%r10), %edi
      54:      	movl	(,%rax,4), %ecx
		0000000000000057:  R_X86_64_32S	lowentc.aes.sbox
      5b:      	leaq	(%rip), %rdx
		000000000000005e:  R_X86_64_PC32	lowentc.aes.sbox-0x4
      62:      	movq	%rdx, %r8
      65:      	addq	%rcx, %r8
      68:      	movb	(%r8), %al
      6b:      	leaq	(%rip), %r9
		000000000000006e:  R_X86_64_PC32	.rodata.cst16-0x4
      72:      	movl	%eax, %r9d
      75:      	movb	(%r9,%rcx), %al
      78:      	movl	$0x0, %esi
		0000000000000079:  R_X86_64_32	.rodata
      7d:      	movzbl	(%rsi,%rdi), %eax
      81:      	nopw	%cs:(%rax,%rax)
`
	got := tableLoads(listing)
	want := []string{"37:", "54:", "68:", "7d:"}
	if len(got) != len(want) {
		t.Fatalf("found %d table loads, want %d: %q", len(got), len(want), got)
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("table load %d is %q, want the one at %s", i, got[i], w)
		}
	}
}

// TestNoTableLookups: no stdlib module indexes a constant table by data,
// under --hw none (the computed builtins; the AES key schedule's SubWord
// included), aes and auto (every variant and the dispatcher).
//
// sha3 is not in the list: its 24 rounds stay a loop on amd64, and the
// loop reads the iota constant RC[r] at the round counter, a public index
// that this detector cannot tell from data.
func TestNoTableLookups(t *testing.T) {
	for _, hw := range []string{"none", "aes", "auto"} {
		for _, mod := range []string{"aes", "gcm", "ghash", "sha256", "blake2b", "sha512", "chacha20", "poly1305", "chacha20poly1305"} {
			for _, l := range tableLoads(disassemble(t, mod, hw, "-r", "-t")) {
				t.Errorf("%s --hw %s: table lookup: %s", mod, hw, l)
			}
		}
	}
}
