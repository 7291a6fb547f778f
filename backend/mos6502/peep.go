package mos6502

import (
	"regexp"
	"strings"
)

// Two peepholes on the generated code of --opt balanced, within straight
// runs of instructions (a label, a branch, a jump, a call or a return ends
// a run):
//
//   - an `ldx OP` when X already holds OP (loaded by an `ldx OP` since
//     which neither X nor OP changed) goes, when the next instruction sets
//     N and Z itself (so the flags of the dropped load are never read):
//     the bytes of one element read as `lda arr+k,x` one after another
//     share one load of their index;
//   - an `ldx OP` right after `sta OP` is `tax`;
//   - a `sta $ZP` whose byte is written again before anything can read it
//     goes (a byte of a linear map kept only for the add after it).
//
// They work on the text, so they see every instruction the generator
// emits, helpers' calls included.

// peepBranches are the instructions that end a straight run.
var peepBranches = map[string]bool{"bcc": true, "bcs": true, "beq": true, "bne": true, "bmi": true, "bpl": true,
	"bvc": true, "bvs": true, "jmp": true, "jsr": true, "rts": true, "rti": true, "brk": true}

// setsNZ are the instructions that set N and Z from their result without
// reading them: after `ldx` they make its flags dead.
var setsNZ = map[string]bool{"lda": true, "eor": true, "and": true, "ora": true, "adc": true, "sbc": true, "cmp": true, "ldy": true}

// writesMem are the instructions that write their operand.
var writesMem = map[string]bool{"sta": true, "stx": true, "sty": true, "inc": true, "dec": true, "asl": true, "lsr": true, "rol": true, "ror": true}

var zpOperand = regexp.MustCompile(`^\$[0-9a-f]{2}$`)

// peepLine splits an instruction line into its opcode and operand; ok is
// false for labels, comments and directives.
func peepLine(line string) (op, arg string, ok bool) {
	if !strings.HasPrefix(line, "         ") {
		return "", "", false
	}
	f := strings.Fields(line)
	if len(f) == 0 || len(f[0]) != 3 || f[0][0] == '.' || f[0][0] == '*' {
		return "", "", false
	}
	return f[0], strings.Join(f[1:], ""), true
}

// peephole returns code with both peepholes applied.
func peephole(code []string) []string {
	return dropDeadStores(dropReloads(code))
}

// dropReloads removes the `ldx OP` that load what X already holds.
func dropReloads(code []string) []string {
	out := make([]string, 0, len(code))
	x := "" // what X holds, as an operand; "" when not known
	for i, line := range code {
		op, arg, ok := peepLine(line)
		if !ok {
			if !strings.HasPrefix(line, ";") {
				x = "" // a label: control may come from elsewhere
			}
			out = append(out, line)
			continue
		}
		switch {
		case op == "ldx":
			if arg == x && x != "" && i+1 < len(code) {
				if next, _, ok := peepLine(code[i+1]); ok && setsNZ[next] {
					continue
				}
			}
			x = ""
			if !strings.ContainsAny(arg, "#(,") {
				x = arg
				if len(out) > 0 && out[len(out)-1] == "         sta "+arg {
					// A holds it: tax is a cycle less, with the same flags.
					out = append(out, "         tax")
					continue
				}
			}
		case op == "tax" || op == "inx" || op == "dex" || op == "tsx" || peepBranches[op]:
			x = ""
		case writesMem[op] && x != "":
			// A write to what X was loaded from, or one that may be.
			if arg == x || strings.Contains(arg, "(") || !zpOperand.MatchString(x) || zpIndexed(arg) {
				x = ""
			}
		}
		out = append(out, line)
	}
	return out
}

// zpIndexed reports whether arg is zero page indexed ($xx,x or $xx,y),
// which may be any byte of the zero page.
func zpIndexed(arg string) bool {
	return len(arg) == 5 && zpOperand.MatchString(arg[:3]) && arg[3] == ','
}

// dropDeadStores removes each `sta $ZP` whose byte the same straight run
// writes again before any instruction that may read it.
func dropDeadStores(code []string) []string {
	dead := map[int]bool{}
	for i, line := range code {
		op, arg, ok := peepLine(line)
		if !ok || op != "sta" || !zpOperand.MatchString(arg) {
			continue
		}
	scan:
		for j := i + 1; j < len(code) && j < i+64; j++ {
			op2, arg2, ok := peepLine(code[j])
			if !ok {
				if strings.HasPrefix(code[j], ";") {
					continue
				}
				break // a label
			}
			switch {
			case peepBranches[op2], strings.Contains(arg2, "("), zpIndexed(arg2):
				break scan
			case arg2 == arg:
				if op2 == "sta" || op2 == "stx" || op2 == "sty" {
					dead[i] = true
				}
				break scan
			}
		}
	}
	if len(dead) == 0 {
		return code
	}
	out := make([]string, 0, len(code)-len(dead))
	for i, line := range code {
		if !dead[i] {
			out = append(out, line)
		}
	}
	return out
}
