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
//     which neither X nor OP changed) goes, when the next instruction
//     that touches N and Z sets them (so the flags of the dropped load are
//     never read):
//     the bytes of one element read as `lda arr+k,x` one after another
//     share one load of their index; the same for `ldy OP` and Y (a
//     fused load's `adc arr+k,y`, fuse.go);
//   - an `ldx OP` right after `sta OP` is `tax`, an `ldy OP` `tay`;
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
var setsNZ = map[string]bool{"lda": true, "eor": true, "and": true, "ora": true, "adc": true, "sbc": true, "cmp": true, "ldy": true, "ldx": true,
	"inc": true, "dec": true, "inx": true, "dex": true, "iny": true, "dey": true, "tax": true, "tay": true, "txa": true, "tya": true, "pla": true}

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

// dropReloads removes the `ldx OP` (`ldy OP`) that load what X (Y)
// already holds.
func dropReloads(code []string) []string {
	out := make([]string, 0, len(code))
	// What X and Y hold, as operands; "" when not known.
	held := map[byte]string{'x': "", 'y': ""}
	for i, line := range code {
		op, arg, ok := peepLine(line)
		if !ok {
			if !strings.HasPrefix(line, ";") {
				held['x'], held['y'] = "", "" // a label: control may come from elsewhere
			}
			out = append(out, line)
			continue
		}
		switch {
		case op == "ldx" || op == "ldy":
			r := op[2]
			if arg == held[r] && held[r] != "" && nzDead(code[i+1:]) {
				continue
			}
			held[r] = ""
			if !strings.ContainsAny(arg, "#(,") {
				held[r] = arg
				if len(out) > 0 && out[len(out)-1] == "         sta "+arg {
					// A holds it: tax (tay) is a cycle less, with the same flags.
					out = append(out, "         ta"+string(r))
					continue
				}
			}
		case peepBranches[op]:
			held['x'], held['y'] = "", ""
		case op == "tax" || op == "inx" || op == "dex" || op == "tsx":
			held['x'] = ""
		case op == "tay" || op == "iny" || op == "dey":
			held['y'] = ""
		case writesMem[op]:
			for _, r := range []byte{'x', 'y'} {
				// A write to what the register was loaded from, or one that may be.
				if h := held[r]; h != "" && (arg == h || strings.Contains(arg, "(") || !zpOperand.MatchString(h) || zpIndexed(arg)) {
					held[r] = ""
				}
			}
		}
		out = append(out, line)
	}
	return out
}

// nzDead reports whether the N and Z flags are set again before anything
// reads them in code: the next instructions that neither read nor set
// them (stores, clc, sec) are followed by one that sets them.
func nzDead(code []string) bool {
	for _, line := range code {
		op, _, ok := peepLine(line)
		switch {
		case !ok:
			return false
		case setsNZ[op]:
			return true
		case op == "sta" || op == "stx" || op == "sty" || op == "clc" || op == "sec":
		default:
			return false
		}
	}
	return false
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
