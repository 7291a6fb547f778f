package mos6502

import (
	"fmt"
	"strings"
)

// asmBuf collects Turbo Macro Pro source lines. Labels start in column 1,
// instructions in column 10, and no line is longer than 40 columns.
type asmBuf struct {
	lines  []string
	nlabel int
	// xw and yw count the instructions that may change X (Y), labels
	// and calls included: a register still holds what was loaded into it
	// while its count has not moved (linear.go reuses table indices).
	xw, yw int
	// dense writes data in decimal, as many values a line as fit in 40
	// columns (--opt balanced, whose source is counted in lines).
	dense bool
}

// label places a label on its own line: a label longer than the
// instruction column would push the instruction past it.
func (b *asmBuf) label(name string) {
	if len(name) > 15 {
		panic("BUG: label " + name + " longer than 15 characters")
	}
	b.lines = append(b.lines, name)
	b.xw++
	b.yw++
}

// newLabel returns a fresh local label.
func (b *asmBuf) newLabel() string {
	b.nlabel++
	return fmt.Sprintf("l%d", b.nlabel)
}

// op emits one instruction or directive.
func (b *asmBuf) op(format string, args ...any) {
	s := "         " + fmt.Sprintf(format, args...)
	if len(s) > 40 {
		panic("BUG: source line too long: " + s)
	}
	b.lines = append(b.lines, s)
	b.written(s)
}

// written moves the X and Y counts for an instruction that may change
// them. Anything that is not a plain instruction (a directive, a label on
// the line) counts as changing both.
func (b *asmBuf) written(line string) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return
	}
	switch m := f[0]; m {
	case "ldx", "tax", "tsx", "inx", "dex":
		b.xw++
	case "ldy", "tay", "iny", "dey":
		b.yw++
	case "jsr", "rts", "rti", "jmp", "brk":
		b.xw++
		b.yw++
	default:
		if len(m) != 3 || strings.HasPrefix(m, ".") {
			b.xw++
			b.yw++
		}
	}
}

// comment emits a comment line, cut to 40 columns.
func (b *asmBuf) comment(s string) {
	s = "; " + s
	if len(s) > 40 {
		s = s[:40]
	}
	b.lines = append(b.lines, s)
}

// bytes emits data as .byte lines of at most six values, or dense.
func (b *asmBuf) bytes(data []byte) {
	if b.dense {
		const room = 40 - len("         .byte ")
		line := ""
		for _, x := range data {
			v := fmt.Sprint(x)
			if line != "" && len(line)+1+len(v) > room {
				b.op(".byte %s", line)
				line = ""
			}
			if line != "" {
				line += ","
			}
			line += v
		}
		if line != "" {
			b.op(".byte %s", line)
		}
		return
	}
	for i := 0; i < len(data); i += 6 {
		j := min(i+6, len(data))
		parts := make([]string, 0, 6)
		for _, x := range data[i:j] {
			parts = append(parts, fmt.Sprintf("$%02x", x))
		}
		b.op(".byte %s", strings.Join(parts, ","))
	}
}

func (b *asmBuf) String() string {
	return strings.Join(b.lines, "\n") + "\n"
}

// estimateSize returns the number of bytes the source assembles to,
// counted from its instructions and .byte lines (the program is one
// contiguous area from its first *=; a later `*= $XXXX` moves on to
// that address, as past tables built at start-up).
func estimateSize(src string) int {
	n, base := 0, -1
	for _, line := range strings.Split(src, "\n") {
		if !strings.HasPrefix(line, "         ") {
			continue
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if f[0] == "*=" && len(f) == 2 && strings.HasPrefix(f[1], "$") {
			var a int
			if _, err := fmt.Sscanf(f[1][1:], "%x", &a); err == nil {
				if base < 0 {
					base = a
				} else {
					n = max(n, a-base)
				}
			}
			continue
		}
		if strings.HasPrefix(f[0], "*") {
			continue
		}
		if f[0] == ".byte" {
			n += strings.Count(f[1], ",") + 1
			continue
		}
		if f[0] == ".word" {
			n += 2 * (strings.Count(f[1], ",") + 1)
			continue
		}
		n += instrSize(f[0], strings.Join(f[1:], ""))
	}
	return n
}

// instrSize is the length of one instruction from its operand's form.
func instrSize(op, arg string) int {
	switch {
	case arg == "" || arg == "a":
		return 1
	case op[0] == 'b' && op != "bit":
		return 2
	case strings.HasPrefix(arg, "#") || strings.HasPrefix(arg, "($"):
		return 2
	case len(arg) >= 3 && arg[0] == '$' && (len(arg) == 3 || arg[3] == ','):
		return 2
	}
	return 3
}
