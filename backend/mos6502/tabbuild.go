package mos6502

import (
	"fmt"
	"strings"
)

// Tables built at start-up (--opt balanced). A linear-map table is
// GF(2)-linear, t[x ^ y] = t[x] ^ t[y], so its 256 bytes follow from the
// images of the eight bits: t[0] = 0 and t[2^j + i] = t[i] ^ t[2^j] for
// i < 2^j. Balanced mode emits those eight bytes a table (tcols) and a
// short routine, mktab, that writes the tables in place at start-up, as
// seed 002's v3 does, instead of 44 `.byte` lines a table: SHA-256's 19
// tables are 836 lines as data, about 60 lines built. Each export begins
// with `bit tbok / bmi` (7 cycles) and builds them on its first call; a
// C64 program can `jsr mktab` at its own start-up instead (the --emit prg
// driver does), and the runner does it before the call it times.

// buildsTables reports whether the module's tables are built by mktab
// rather than emitted as data: balanced's layout, 1 to 31 tables (tcols
// is indexed by X), and every table linear (the AES S-box is not).
func (mg *modgen) buildsTables() bool {
	if !mg.lay.build || !mg.lay.linear || len(mg.tables) == 0 || len(mg.tables) > 31 || mg.need["aes"] {
		return false
	}
	for _, t := range mg.tables {
		if !linearTable(t) {
			return false
		}
	}
	return true
}

// linearTable reports whether t (256 bytes) is the table of a GF(2)-linear
// byte map, and so what tableColumns rebuilds.
func linearTable(t []byte) bool {
	if len(t) != 256 || t[0] != 0 {
		return false
	}
	for j := 0; j < 8; j++ {
		n := 1 << j
		for i := 0; i < n; i++ {
			if t[n+i] != t[i]^t[n] {
				return false
			}
		}
	}
	return true
}

// tableColumns are the images of the eight bits: what mktab starts from.
func tableColumns(t []byte) []byte {
	c := make([]byte, 8)
	for j := range c {
		c[j] = t[1<<j]
	}
	return c
}

// builtTables emits the tables' places (t0 at org, the others a page
// apart, as labels; only t0's first byte is data, so that the program
// starts at org) and moves the origin past them.
func (mg *modgen) builtTables(out *asmBuf) {
	for i := range mg.tables {
		if i == 0 {
			out.label(mg.tableLabel(0))
			out.op(".byte $00")
			continue
		}
		l := mg.tableLabel(i)
		out.lines = append(out.lines, fmt.Sprintf("%-9s= $%04x", l, mg.lay.org+256*i))
	}
	out.op("*= $%04x", mg.lay.org+256*len(mg.tables))
}

// tableBuilder emits tcols and mktab. mktab writes table k's page from
// its columns tcols+8k: t[0] = 0, then for n = 1, 2, 4, ..., 128 the
// bytes n..2n-1 as t[i] ^ column, the page and n patched into the
// operands of its own loads and stores (no zero page is touched: the
// export's arguments are there when its first call builds them). It
// keeps nothing in the registers and sets tbok's bit 7 when done.
func (mg *modgen) tableBuilder(out *asmBuf) {
	out.comment("tables: the image of each bit")
	out.label("tcols")
	var cols []byte
	for _, t := range mg.tables {
		cols = append(cols, tableColumns(t)...)
	}
	out.bytes(cols)
	out.comment("mktab: build the tables (once)")
	out.label("mktab")
	out.op("bit tbok")
	out.op("bmi mkdone")
	out.op("ldx #$00")
	out.op("lda #$%02x", mg.lay.org>>8)
	out.label("mkpg")
	out.op("sta mkz+2")
	out.op("sta mkrd+2")
	out.op("sta mkwr+2")
	out.op("lda #$00")
	out.label("mkz")
	out.op("sta $%04x", mg.lay.org)
	out.op("lda #$01")
	out.op("sta mkwr+1")
	out.label("mkcol")
	out.op("ldy #$00")
	out.label("mkrd")
	out.op("lda $%04x,y", mg.lay.org)
	out.op("eor tcols,x")
	out.label("mkwr")
	out.op("sta $%04x,y", mg.lay.org+1)
	out.op("iny")
	out.op("cpy mkwr+1")
	out.op("bne mkrd")
	out.op("inx")
	out.op("asl mkwr+1")
	out.op("bcc mkcol")
	out.op("ldy mkrd+2")
	out.op("iny")
	out.op("tya")
	out.op("cpx #$%02x", 8*len(mg.tables))
	out.op("bne mkpg")
	out.op("lda #$80")
	out.op("sta tbok")
	out.label("mkdone")
	out.op("rts")
}

// tableCheck emits, at an export's entry in balanced's layout, the check
// that the tables are built: `bit tbok / bmi / jsr mktab`. Whether they
// are built is known once all the code is generated: assemble drops the
// checks (dropTableChecks) when they are data.
func (mg *modgen) tableCheck(a *asmBuf) {
	if !mg.lay.build || !mg.lay.linear {
		return
	}
	done := fmt.Sprintf("tk%d", len(mg.tabChecks))
	a.op("bit tbok")
	a.op("bmi %s", done)
	a.op("jsr mktab")
	a.label(done)
	mg.tabChecks = append(mg.tabChecks, len(a.lines)-tableCheckLines)
}

// tableCheckLines is the length of tableCheck's code.
const tableCheckLines = 4

// dropTableChecks returns the code without the exports' table checks.
func (mg *modgen) dropTableChecks() []string {
	lines := mg.code.lines
	if len(mg.tabChecks) == 0 {
		return lines
	}
	out := make([]string, 0, len(lines))
	next := 0
	for i := 0; i < len(lines); i++ {
		if next < len(mg.tabChecks) && i == mg.tabChecks[next] {
			i += tableCheckLines - 1
			next++
			continue
		}
		out = append(out, lines[i])
	}
	return out
}

// buildsAtStartup reports whether the module source src has the table
// builder: a label mktab that is no export's entry.
func buildsAtStartup(src string, abis []*funcABI) bool {
	for _, a := range abis {
		if a.Label == "mktab" {
			return false
		}
	}
	return strings.Contains(src, "\nmktab\n")
}
