package mos6502

import (
	"fmt"
	"regexp"
	"strings"
)

// tmpDirectives are the only directives Turbo Macro Pro knows that the
// emitted source may use.
var tmpDirectives = map[string]bool{".byte": true, ".word": true, ".text": true, ".block": true, ".bend": true}

var (
	labelRe  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	mnemonic = regexp.MustCompile(`^[a-z]{3}$`)
	// Zero page indexed by Y exists only for ldx and stx.
	staZpY = regexp.MustCompile(`^(sta|lda|adc|sbc|and|ora|eor|cmp|ldy|sty|inc|dec|asl|lsr|rol|ror)\s+\$[0-9a-f]{1,2},y$`)
	opRe   = regexp.MustCompile(`[-+*/&|^<>.:]`)
)

// documented is the set of documented NMOS 6502 mnemonics.
var documented = map[string]bool{}

func init() {
	for _, m := range strings.Fields(`adc and asl bcc bcs beq bit bmi bne bpl brk bvc bvs clc cld cli clv
		cmp cpx cpy dec dex dey eor inc inx iny jmp jsr lda ldx ldy lsr nop ora pha php pla plp rol ror
		rti rts sbc sec sed sei sta stx sty tax tay tsx txa txs tya`) {
		documented[m] = true
	}
}

// Lint checks that src is what Turbo Macro Pro on a C64 accepts: lines of at
// most 40 columns, labels of at most 15 characters, only TMP's directives
// (no macros, .fill or .repeat), documented opcodes only, no `sta zp,y`, and
// every operand expression either a single term, one operator, or
// parenthesised (TMP evaluates left to right, without precedence).
func Lint(src string) []string {
	var errs []string
	bad := func(n int, format string, args ...any) {
		errs = append(errs, fmt.Sprintf("line %d: %s", n, fmt.Sprintf(format, args...)))
	}
	for i, line := range strings.Split(strings.TrimRight(src, "\n"), "\n") {
		n := i + 1
		if len(line) > 40 {
			bad(n, "longer than 40 columns")
		}
		if j := strings.IndexByte(line, ';'); j >= 0 {
			line = line[:j]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		fields := strings.Fields(line)
		if line[0] != ' ' && line[0] != '\t' && line[0] != '*' {
			lbl := fields[0]
			if !labelRe.MatchString(lbl) || len(lbl) > 15 {
				bad(n, "bad label %q", lbl)
			}
			fields = fields[1:]
			if len(fields) == 0 {
				continue
			}
		}
		op := fields[0]
		arg := strings.Join(fields[1:], "")
		switch {
		case op == "*=" || strings.HasPrefix(op, "*="):
			continue
		case strings.HasPrefix(op, "."):
			if !tmpDirectives[op] {
				bad(n, "directive %s is not Turbo Macro Pro's", op)
			}
			continue
		case op == "=":
			continue
		case !mnemonic.MatchString(op) || !documented[op]:
			bad(n, "unknown or undocumented opcode %q", op)
			continue
		}
		if staZpY.MatchString(op + " " + arg) {
			bad(n, "%s zero page,y does not exist", op)
		}
		expr := strings.TrimSuffix(strings.TrimSuffix(arg, ",x"), ",y")
		expr = strings.TrimPrefix(expr, "#")
		expr = strings.TrimLeft(expr, "<>")
		if !strings.HasPrefix(expr, "(") && len(opRe.FindAllString(expr, -1)) > 1 {
			bad(n, "expression %q needs parentheses", expr)
		}
	}
	return errs
}
