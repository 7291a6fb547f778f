package mos6502

import (
	"fmt"
	"strings"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/ir"
)

// The C64 program (--emit prg): a BASIC line `10 SYS2064` at $0801, and
// at 2064 ($0810) a driver that reads a line with the KERNAL, converts it
// from PETSCII to ASCII, hashes it with one export of the module shaped
// NAME(msg: []u8, out: mut [N]u8) (--entry; sha256 by default), and
// prints the N bytes of out in hex and the cycles the call took, counted by the
// chained CIA #2 timers (timer A counts phi2, timer B counts A's
// underflows). The compiled module starts at prgOrg (page aligned), after
// the driver and its buffers.

// KERNAL entry points and C64 registers the driver uses.
const (
	kernalCHRIN  = 0xffcf
	kernalCHROUT = 0xffd2
	prgStart     = 0x0810 // SYS 2064
	prgMaxLine   = 119    // characters kept of the typed line
	zpSave       = 0xd000 // RAM under the I/O area: the saved zero page
)

// prgOrgFor is where the module starts in the C64 program whose export
// writes n bytes: the first page after the driver and its buffers.
func prgOrgFor(n int) int {
	dummy := &funcABI{Label: "x", ZPTop: 0xff, Params: []paramABI{{Ptr: 2, Len: 4}, {Ptr: 6}}}
	drv, err := driverSource(dummy, "x", n, true, true)
	if err != nil {
		panic("BUG: mos6502: " + err.Error())
	}
	end := 0x0801 + estimateSize(drv) // from the BASIC line on
	return (end + 0xff) &^ 0xff
}

// prgOrg is where the module starts in the C64 program of sha256.
var prgOrg = prgOrgFor(32)

// prgDefault is the export the C64 program calls when --entry is not
// given and the module has it.
const prgDefault = "sha256"

// prgMaxOut is the largest out the driver prints (its index is a byte).
const prgMaxOut = 255

// prgShape reports whether e is shaped NAME(msg: []u8, out: mut [N]u8)
// with 1 <= N <= prgMaxOut and no results, and returns N.
func prgShape(e backend.Export) (int, bool) {
	sig := e.Sig
	if len(sig.Params) != 2 || len(sig.Results) != 0 || len(e.Nested) != 2 || e.Nested[0] || e.Nested[1] {
		return 0, false
	}
	msg, out := sig.Params[0], sig.Params[1]
	if !msg.Slice || msg.Mut || msg.Type != ir.U8 {
		return 0, false
	}
	if !out.Array || out.Slice || !out.Mut || out.Type != ir.U8 || out.Len < 1 || out.Len > prgMaxOut {
		return 0, false
	}
	return out.Len, true
}

// PRGEntry chooses the export the C64 program (--emit prg) calls: name
// when given, else sha256 when the module has it in that shape, else the
// single export shaped NAME(msg: []u8, out: mut [N]u8). It returns the
// export's name and N. The error lists the exports of that shape.
func PRGEntry(exports []backend.Export, name string) (string, int, error) {
	var fit []backend.Export
	var names []string
	for _, e := range exports {
		if _, ok := prgShape(e); ok {
			fit = append(fit, e)
			names = append(names, e.Name)
		}
	}
	list := "none"
	if len(names) > 0 {
		list = strings.Join(names, ", ")
	}
	pick := func(e backend.Export) (string, int, error) {
		n, _ := prgShape(e)
		return e.Name, n, nil
	}
	if name != "" {
		for _, e := range fit {
			if e.Name == name {
				return pick(e)
			}
		}
		what := "no export"
		for _, e := range exports {
			if e.Name == name {
				what = "not shaped NAME(msg: []u8, out: mut [N]u8), 1 <= N <= 255"
			}
		}
		return "", 0, fmt.Errorf("mos6502: --entry %s: %s; exports of that shape: %s", name, what, list)
	}
	for _, e := range fit {
		if e.Name == prgDefault {
			return pick(e)
		}
	}
	if len(fit) == 1 {
		return pick(fit[0])
	}
	if len(fit) == 0 {
		return "", 0, fmt.Errorf("mos6502: --emit prg needs an export NAME(msg: []u8, out: mut [N]u8), 1 <= N <= 255; this module has none")
	}
	return "", 0, fmt.Errorf("mos6502: --emit prg: choose the export to call with --entry NAME (exports of that shape: %s)", list)
}

// driverSource returns the TMP source of the BASIC stub and the driver
// for the export abi, named name, shaped NAME(msg: []u8, out: mut [n]u8).
// blank (always, but in a test) blanks the screen while the call is
// timed. startup: the module builds its tables at start-up (mktab,
// tabbuild.go), which the driver does first, before any timing.
func driverSource(abi *funcABI, name string, n int, blank, startup bool) (string, error) {
	if len(abi.Params) != 2 || abi.Params[0].Len == 0 || abi.Params[1].Ptr == 0 || abi.Params[1].Loc != "" || n < 1 || n > prgMaxOut {
		return "", fmt.Errorf("mos6502: --emit prg needs an export NAME(msg: []u8, out: mut [N]u8), 1 <= N <= %d", prgMaxOut)
	}
	msg, out := abi.Params[0], abi.Params[1]
	var b asmBuf
	b.comment("C64 program: hash a typed line")
	b.comment(fmt.Sprintf("with %s, print out and", name))
	b.comment("cycles (CIA #2 timers A+B)")
	b.op("*= $0801")
	// 10 SYS2064: next-line link, line number 10, SYS token, "2064", end.
	b.op(".byte $0b,$08,$0a,$00,$9e,$32")
	b.op(".byte $30,$36,$34,$00,$00,$00")
	b.op("*= $%04x", prgStart)
	b.label("start")
	if startup {
		b.op("jsr mktab")
	}
	b.op("lda #$0e") // lower case character set
	b.op("jsr $%04x", kernalCHROUT)
	b.op("lda #$00")
	b.op("sta nlen")
	// Read the line up to RETURN; keep at most prgMaxLine characters.
	b.label("rdloop")
	b.op("jsr $%04x", kernalCHRIN)
	b.op("cmp #$0d")
	b.op("beq rddone")
	b.op("jsr toascii")
	b.op("ldx nlen")
	b.op("cpx #%d", prgMaxLine)
	b.op("bcs rdloop")
	b.op("sta line,x")
	b.op("inc nlen")
	b.op("jmp rdloop")
	b.label("rddone")
	b.op("lda #$0d")
	b.op("jsr $%04x", kernalCHROUT)
	// No interrupts, BASIC and KERNAL ROM banked out (the module may
	// reach past $A000), the zero page the routine uses saved in the RAM
	// under the I/O area (banked in for the copy only).
	b.op("sei")
	b.op("lda $01")
	b.op("sta save01")
	b.op("lda #$34")
	b.op("sta $01")
	b.op("ldx #$02")
	b.label("zsv")
	b.op("lda $00,x")
	b.op("sta $%04x,x", zpSave)
	b.op("inx")
	b.op("cpx #$%02x", (abi.ZPTop+1)&0xff)
	b.op("bne zsv")
	b.op("lda #$35")
	b.op("sta $01")
	// Arguments: msg = line[0:nlen], out = digest.
	b.op("lda #<line")
	b.op("sta $%02x", msg.Ptr)
	b.op("lda #>line")
	b.op("sta $%02x", msg.Ptr+1)
	b.op("lda nlen")
	b.op("sta $%02x", msg.Len)
	b.op("lda #$00")
	b.op("sta $%02x", msg.Len+1)
	b.op("lda #<digest")
	b.op("sta $%02x", out.Ptr)
	b.op("lda #>digest")
	b.op("sta $%02x", out.Ptr+1)
	if blank {
		// The screen off (DEN, $D011 bit 4, clear; bit 7 written 0 as
		// the KERNAL has it), then a wait for raster line 256 or later,
		// below the display window: no badline until the next frame,
		// which starts with DEN clear and so has none.
		b.op("lda $d011")
		b.op("and #$7f")
		b.op("sta save11")
		b.op("and #$6f")
		b.op("sta $d011")
		b.label("vwait")
		b.op("lda $d011")
		b.op("bpl vwait")
	}
	// CIA #2: both timers stopped and loaded with $FFFF, B counting A's
	// underflows, then A started counting cycles.
	b.op("lda #$00")
	b.op("sta $dd0e")
	b.op("sta $dd0f")
	b.op("lda #$ff")
	for _, r := range []string{"$dd04", "$dd05", "$dd06", "$dd07"} {
		b.op("sta %s", r)
	}
	b.op("lda #$51") // B: count A underflows, force load, start
	b.op("sta $dd0f")
	b.op("lda #$11") // A: count phi2, force load, start
	b.op("sta $dd0e")
	b.label("callhash")
	b.op("jsr %s", abi.Label)
	b.op("lda #$00")
	b.op("sta $dd0e") // stop A: B stops with it
	// elapsed = $FFFFFFFF - B:A
	for i, r := range []string{"$dd04", "$dd05", "$dd06", "$dd07"} {
		b.op("lda %s", r)
		b.op("eor #$ff")
		b.op("sta cycles+%d", i)
	}
	if blank {
		b.op("lda save11") // the screen as it was
		b.op("sta $d011")
	}
	b.op("lda #$34")
	b.op("sta $01")
	b.op("ldx #$02")
	b.label("zrs")
	b.op("lda $%04x,x", zpSave)
	b.op("sta $00,x")
	b.op("inx")
	b.op("cpx #$%02x", (abi.ZPTop+1)&0xff)
	b.op("bne zrs")
	b.op("lda save01")
	b.op("sta $01")
	b.op("cli")
	// The digest in hex.
	b.op("lda #$00")
	b.op("sta di")
	b.label("hexlp")
	b.op("ldx di")
	b.op("lda digest,x")
	b.op("lsr a")
	b.op("lsr a")
	b.op("lsr a")
	b.op("lsr a")
	b.op("tax")
	b.op("lda hexdig,x")
	b.op("jsr $%04x", kernalCHROUT)
	b.op("ldx di")
	b.op("lda digest,x")
	b.op("and #$0f")
	b.op("tax")
	b.op("lda hexdig,x")
	b.op("jsr $%04x", kernalCHROUT)
	b.op("inc di")
	b.op("lda di")
	b.op("cmp #$%02x", n)
	b.op("bne hexlp")
	b.op("lda #$0d")
	b.op("jsr $%04x", kernalCHROUT)
	printDecimal(&b)
	b.op("rts")
	toASCII(&b)
	b.comment("0123456789abcdef (lower case set)")
	b.label("hexdig")
	b.op(".byte $30,$31,$32,$33,$34,$35")
	b.op(".byte $36,$37,$38,$39,$41,$42")
	b.op(".byte $43,$44,$45,$46")
	b.label("cyctxt") // " cycles"
	b.op(".byte $20,$43,$59,$43,$4c,$45")
	b.op(".byte $53,$0d,$00")
	b.comment("powers of ten, 10^9 down to 10^0")
	b.label("pow10")
	p := uint32(1_000_000_000)
	for i := 0; i < 10; i++ {
		b.op(".byte $%02x,$%02x,$%02x,$%02x", byte(p), byte(p>>8), byte(p>>16), byte(p>>24))
		p /= 10
	}
	area := func(label string, n int) {
		b.label(label)
		b.bytes(make([]byte, n))
	}
	area("nlen", 1)
	area("di", 1)
	area("save01", 1)
	area("save11", 1)
	area("ndig", 1)
	area("pw", 1)
	area("cycles", 4)
	area("line", prgMaxLine+1)
	area("digest", n)
	b.label("drvend")
	return b.String(), nil
}

// toASCII emits the PETSCII to ASCII conversion of A for the lower case
// character set: unshifted letters ($41-$5A) are lower case, shifted ones
// ($C1-$DA) upper case.
func toASCII(b *asmBuf) {
	b.label("toascii")
	b.op("cmp #$41")
	b.op("bcc tadone")
	b.op("cmp #$5b")
	b.op("bcc talower")
	b.op("cmp #$c1")
	b.op("bcc tadone")
	b.op("cmp #$db")
	b.op("bcs tadone")
	b.op("and #$7f") // $C1-$DA -> $41-$5A
	b.op("rts")
	b.label("talower")
	b.op("ora #$20") // $41-$5A -> $61-$7A
	b.label("tadone")
	b.op("rts")
}

// printDecimal prints the 32-bit number at cycles in decimal, without
// leading zeros, then " cycles": each digit counts how often its power of
// ten can be subtracted.
func printDecimal(b *asmBuf) {
	b.op("lda #$00")
	b.op("sta ndig") // digits printed so far
	b.op("sta pw")
	b.label("declp")
	b.op("ldy #$00") // the digit
	b.label("decsub")
	b.op("ldx pw")
	b.op("sec")
	b.op("lda cycles")
	b.op("sbc pow10,x")
	b.op("pha")
	b.op("lda cycles+1")
	b.op("sbc pow10+1,x")
	b.op("pha")
	b.op("lda cycles+2")
	b.op("sbc pow10+2,x")
	b.op("pha")
	b.op("lda cycles+3")
	b.op("sbc pow10+3,x")
	b.op("bcc decput")
	b.op("sta cycles+3")
	b.op("pla")
	b.op("sta cycles+2")
	b.op("pla")
	b.op("sta cycles+1")
	b.op("pla")
	b.op("sta cycles")
	b.op("iny")
	b.op("jmp decsub")
	b.label("decput")
	b.op("pla")
	b.op("pla")
	b.op("pla")
	b.op("tya")
	b.op("bne decout")
	b.op("ldx ndig")
	b.op("bne decout")
	b.op("lda pw")
	b.op("cmp #$24") // the last digit is printed even when zero
	b.op("bne decnext")
	b.label("decout")
	b.op("tya")
	b.op("ora #$30")
	b.op("jsr $%04x", kernalCHROUT)
	b.op("inc ndig")
	b.label("decnext")
	b.op("lda pw")
	b.op("clc")
	b.op("adc #$04")
	b.op("sta pw")
	b.op("cmp #$28")
	b.op("bne declp")
	b.op("lda #$00")
	b.op("sta di")
	b.label("cyclp")
	b.op("ldx di")
	b.op("lda cyctxt,x")
	b.op("beq cycend")
	b.op("jsr $%04x", kernalCHROUT)
	b.op("inc di")
	b.op("bne cyclp")
	b.label("cycend")
}

// prgSource joins the driver and the module's source: the module's first
// line is its `*=`.
func prgSource(driver, module string) string {
	return driver + strings.TrimPrefix(module, "\n")
}
