package mos6502

import (
	"fmt"
	"sort"
	"strings"
)

// The --opt size interpreter. Under --opt size every function is a list
// of word operations: each op is a code byte and its operands (byte
// counts, and the 16-bit addresses of values that live in memory, n
// bytes little-endian each), run by a small interpreter (wop) that a
// function enters by `jsr wop`. An op costs 3 to 10 bytes whatever the
// width of its words, where inline 6502 code costs 6 or more bytes a byte.
// Codes are numbered in order of first use and only the handlers used are
// emitted.

// Zero page of the interpreter.
const (
	wIP  = 0x03 // address of the byte before the next op
	wOB  = 0x05 // the current op's operand bytes (9)
	wPA  = 0x0e // a computed element address (2)
	wC   = 0x10 // counters and the dispatch vector
	wC2  = 0x11
	wT   = 0x12
	wSel = 0x13
	// wZPFirst is the first zero-page byte for array pointers.
	wZPFirst = 0x14
)

// wHandler is one op's handler: its operand byte count, the shared
// routines it calls and its source (labels in column 1).
type wHandler struct {
	operands int
	deps     []string
	body     string
}

// Operand layouts (offsets into ob):
//
//	binop  n, d(2), a(2), b(2)         xor and or add sub mul divu remu eq ne ult ule
//	mulw   n, lo(2), hi(2), a(2), b(2)
//	mov    n, d(2), a(2)
//	zext   nd, d(2), a(2), na
//	bytes  n, d(2), a(2), k            rby sbl sbr (k in bytes, below n)
//	bits   n, d(2), k                  bsl bsr brl brr (in place, k in 1..7)
//	vbits  n, d(2), a(2), k(2), nk     vsl vsr vrl vrr (d = a shifted by the
//	       nk-byte value at k)
//	sel    n, d(2), a(2), b(2), c(2)
//	mem    n, sk, base(2), idx(2), v(2) ld ldr st str: sk = log2(element
//	       bytes), bit 7 set when base is the zero-page pointer's address
//	ptr    dz, sk, base(2), off(2)     the pointer at dz = element off
//	jge    n, target(2), a(2), b(2)    jump when a >= b
//	jz     c(2), target(2); jmp target(2); call target(2); chk c(2), id
//	inc    n, d(2)
var wHandlers = map[string]wHandler{
	"mov": {5, nil, `
whmov    ldy $05
         dey
whmov1   lda ($08),y
         sta ($06),y
         dey
         bpl whmov1
         jmp wnext`},
	"zext": {6, nil, `
whzext   ldy #$00
whzext1  lda #$00
         cpy $0a
         bcs whzext2
         lda ($08),y
whzext2  sta ($06),y
         iny
         cpy $05
         bne whzext1
         jmp wnext`},
	"xor": byteWiseHandler("xor", "", "eor"),
	"and": byteWiseHandler("and", "", "and"),
	"or":  byteWiseHandler("or", "", "ora"),
	"add": byteWiseHandler("add", "clc", "adc"),
	"sub": byteWiseHandler("sub", "sec", "sbc"),
	"inc": {3, nil, `
whinc    ldy #$00
whinc1   lda ($06),y
         clc
         adc #$01
         sta ($06),y
         bcc whinc2
         iny
         cpy $05
         bne whinc1
whinc2   jmp wnext`},
	// The comparisons make their bool from the flags without a branch:
	// `cmp #1` sets C when wt (the or of the differences) is not zero,
	// `lda #0 / rol a` takes C.
	"eq": {7, []string{"cmp"}, `
wheq     jsr wcmp
         lda $12
         cmp #$01
         lda #$00
         rol a
         eor #$01
         jmp wseta`},
	"ne": {7, []string{"cmp"}, `
whne     jsr wcmp
         lda $12
         cmp #$01
         lda #$00
         rol a
         jmp wseta`},
	"ult": {7, []string{"cmp"}, `
whult    jsr wcmp
         lda #$00
         rol a
         eor #$01
         jmp wseta`},
	"ule": {7, []string{"cmp"}, `
whule    jsr wcmp
         lda #$00
         rol a
         ldx $12
         cpx #$01
         rol a
         cmp #$03
         lda #$00
         rol a
         eor #$01
         jmp wseta`},
	"jge": {7, []string{"cmp"}, `
whjge    jsr wcmp
         bcc whjge1
         lda $06
         sta $03
         lda $07
         sta $04
whjge1   jmp wnext`},
	// sel without a branch: m = c - 1 ($00 when c is true, $ff when
	// false), d = a ^ ((a ^ b) & m) byte by byte (c is read first: its
	// slot may be d's).
	"sel": {9, nil, `
whsel    ldy #$00
         lda ($0c),y
         tax
         dex
         stx $12
         ldy $05
         dey
whsel1   lda ($08),y
         eor ($0a),y
         and $12
         eor ($08),y
         sta ($06),y
         dey
         bpl whsel1
         jmp wnext`},
	"rby": {6, []string{"bufa"}, `
whrby    jsr wbufa
         lda $05
         sec
         sbc $0a
         tax
         ldy #$00
whrby1   cpx $05
         bcc whrby2
         ldx #$00
whrby2   lda wbuf,x
         sta ($06),y
         inx
         iny
         cpy $05
         bne whrby1
         jmp wnext`},
	"sbl": {6, []string{"bufa", "sbx"}, `
whsbl    jsr wbufa
         lda #$00
         sec
         sbc $0a
         tax
         jmp wsbx`},
	"sbr": {6, []string{"bufa", "sbx"}, `
whsbr    jsr wbufa
         ldx $0a
         jmp wsbx`},
	"bsl": {4, []string{"sl1"}, `
whbsl    clc
         jsr wsl1
         dec $08
         bne whbsl
         jmp wnext`},
	"brl": {4, []string{"sl1"}, `
whbrl    ldy $05
         dey
         lda ($06),y
         asl a
         jsr wsl1
         dec $08
         bne whbrl
         jmp wnext`},
	"bsr": {4, []string{"sr1"}, `
whbsr    clc
         jsr wsr1
         dec $08
         bne whbsr
         jmp wnext`},
	"brr": {4, []string{"sr1"}, `
whbrr    ldy #$00
         lda ($06),y
         lsr a
         jsr wsr1
         dec $08
         bne whbrr
         jmp wnext`},
	// The run-time shifts set up d and the count ($08) and continue in
	// the handler of the constant 1-bit steps.
	"vsl": varShiftHandler("vsl", "vshf", "sl1", "bsl"),
	"vsr": varShiftHandler("vsr", "vshf", "sr1", "bsr"),
	"vrl": varShiftHandler("vrl", "vrot", "sl1", "brl"),
	"vrr": varShiftHandler("vrr", "vrot", "sr1", "brr"),
	// mul adds b and'ed with the mask 0 - (the multiplier bit shifted out
	// into C) at every step: no branch on the operands' bits.
	"mul": {7, []string{"ld3", "shl", "out"}, `
whmul    jsr wld3
whmul1   ldx #wr-wq
         clc
         jsr wshl
         ldx #$00
         clc
         jsr wshl
         lda #$00
         sbc #$00
         eor #$ff
         sta $12
         ldx #$00
         ldy $05
         clc
whmul2   lda wbuf,x
         and $12
         adc wr,x
         sta wr,x
         inx
         dey
         bne whmul2
         dec $11
         bne whmul1
         ldx #wr-wq
         jmp wout`},
	// mulw: lo, hi = the 2n-byte product of a and b (n bytes each), in
	// 8n steps, each adding b and'ed with the mask 0 - (the multiplier's
	// low bit) to the high half (wq) and shifting the whole product right
	// through the multiplier (wr), which then holds the low half: no
	// branch on the operands' bits.
	"mulw": {9, nil, `
whmulw   ldy $05
         dey
whmw1    lda ($0a),y
         sta wr,y
         lda ($0c),y
         sta wbuf,y
         lda #$00
         sta wq,y
         dey
         bpl whmw1
         lda $05
         asl a
         asl a
         asl a
         sta $11
whmw2    lda wr
         and #$01
         eor #$ff
         clc
         adc #$01
         sta $12
         ldx #$00
         ldy $05
         clc
whmw3    lda wbuf,x
         and $12
         adc wq,x
         sta wq,x
         inx
         dey
         bne whmw3
         ldx $05
         dex
whmw4    ror wq,x
         dex
         bpl whmw4
         ldx $05
         dex
whmw5    ror wr,x
         dex
         bpl whmw5
         dec $11
         bne whmw2
         ldy $05
         dey
whmw6    lda wr,y
         sta ($06),y
         lda wq,y
         sta ($08),y
         dey
         bpl whmw6
         jmp wnext`},
	// mulk: a * b with a constant multiplier a (public: the compiler
	// wrote it), adding b only at its set bits.
	"mulk": {7, []string{"ld3", "shl", "out"}, `
whmulk   jsr wld3
whmulk1  ldx #wr-wq
         clc
         jsr wshl
         ldx #$00
         clc
         jsr wshl
         bcc whmulk3
         ldx #$00
         ldy $05
         clc
whmulk2  lda wr,x
         adc wbuf,x
         sta wr,x
         inx
         dey
         bne whmulk2
whmulk3  dec $11
         bne whmulk1
         ldx #wr-wq
         jmp wout`},
	"divu": {7, []string{"div"}, `
whdivu   ldx #$00
         jmp wdiv`},
	"remu": {7, []string{"div"}, `
whremu   ldx #wr-wq
         jmp wdiv`},
	"ld":  memCopyHandler("ld", "$0e", "$0b"),
	"st":  memCopyHandler("st", "$0b", "$0e"),
	"ldr": memReverseHandler("ldr", "$0e", "$0b"),
	"str": memReverseHandler("str", "$0b", "$0e"),
	"ptr": {6, []string{"addr"}, `
whptr    jsr waddr
         ldx $05
         lda $0e
         sta $00,x
         lda $0f
         sta $01,x
         jmp wnext`},
	"jz": {4, nil, `
whjz     ldy #$00
         lda ($05),y
         bne whjz1
         lda $07
         sta $03
         lda $08
         sta $04
whjz1    jmp wnext`},
	"jmp": {2, nil, `
whjmp    lda $05
         sta $03
         lda $06
         sta $04
         jmp wnext`},
	"call": {2, nil, `
whcall   lda $04
         pha
         lda $03
         pha
         jsr wcall
         pla
         sta $03
         pla
         sta $04
         jmp wnext
wcall    jmp ($05)`},
	"ret": {0, nil, `
whret    rts`},
	"chk": {3, nil, `
whchk    ldy #$00
         lda ($05),y
         bne whchk1
         ldx $07
         jmp trap
whchk1   jmp wnext`},
}

// varShiftHandler is the handler of the run-time shift or rotate NAME:
// the routine setup (wvshf, wvrot) sets up d and the count, and a count
// other than zero continues in the handler of the constant 1-bit steps,
// step, which calls the routine bit.
func varShiftHandler(name, setup, bit, step string) wHandler {
	label := fmt.Sprintf("%-9s", "wh"+name+"1")
	return wHandler{8, []string{"vamt", bit, step}, fmt.Sprintf("\nwh%-7sjsr w%s\n         beq wh%s1\n         jmp wh%s\n%sjmp wnext",
		name, setup, name, step, label)}
}

// memCopyHandler is the handler of the load or store NAME: waddr computes
// the element's address, then the n bytes are copied, highest first, from
// the value the pointer at from addresses to the one at to (the element
// at $0e, the value at $0b).
func memCopyHandler(name, from, to string) wHandler {
	return wHandler{8, []string{"addr"}, fmt.Sprintf("\nwh%-7sjsr waddr\n         ldy $05\n         dey\n"+
		"%-9slda (%s),y\n         sta (%s),y\n         dey\n         bpl wh%s1\n         jmp wnext",
		name, "wh"+name+"1", from, to, name)}
}

// memReverseHandler is the handler of the byte-reversed load or store
// NAME: as memCopyHandler's, with the bytes pushed on the stack in order
// and pulled back into the other value.
func memReverseHandler(name, from, to string) wHandler {
	loop := func(n, insn string) string {
		return fmt.Sprintf("%-9s%s\n         iny\n         cpy $05\n         bne wh%s%s\n", "wh"+name+n, insn, name, n)
	}
	return wHandler{8, []string{"addr"}, fmt.Sprintf("\nwh%-7sjsr waddr\n         ldy #$00\n", name) +
		loop("1", "lda ("+from+"),y\n         pha") + "         ldy #$00\n" +
		loop("2", "pla\n         sta ("+to+"),y") + "         jmp wnext"}
}

// byteWiseHandler is the handler of the binop NAME that computes d = a OP
// b byte by byte, lowest first, with the 6502 instruction insn; with a
// carry instruction first (clc, sec), the carry runs through the bytes.
func byteWiseHandler(name, carry, insn string) wHandler {
	label := func(suffix string) string { return fmt.Sprintf("%-9s", "wh"+name+suffix) }
	body := "\n" + label("") + "ldy #$00\n"
	loop := "         iny\n         cpy $05\n"
	if carry != "" {
		body += "         ldx $05\n         " + carry + "\n"
		loop = "         iny\n         dex\n"
	}
	body += label("1") + "lda ($08),y\n         " + insn + " ($0a),y\n         sta ($06),y\n" + loop +
		"         bne wh" + name + "1\n         jmp wnext"
	return wHandler{7, nil, body}
}

// wShared are the routines handlers share.
var wShared = map[string]struct {
	deps []string
	body string
}{
	// wcmp: a - b over n bytes; C = a >= b, wt = 0 iff a == b. wseta
	// stores A as the bool result.
	"cmp": {nil, `
wcmp     ldy #$00
         sty $12
         ldx $05
         sec
wcmp1    lda ($08),y
         sbc ($0a),y
         ora $12
         sta $12
         iny
         dex
         bne wcmp1
         rts
wseta    ldy #$00
         sta ($06),y
         jmp wnext`},
	// wvrot / wvshf: the count of a run-time rotate (k mod 8n) or shift
	// (k, at most 8n: 8n steps give zero) in $08 and Z clear unless it is
	// zero, d = a. The amount is read first: its slot may be d's.
	"vamt": {nil, `
wvrot    ldy #$00
         lda $05
         asl a
         asl a
         asl a
         sec
         sbc #$01
         and ($0a),y
         sta $12
         jmp wvmov
wvshf    lda $05
         asl a
         asl a
         asl a
         sta $12
         ldy $0c
wvshf1   dey
         beq wvshf2
         lda ($0a),y
         bne wvmov
         beq wvshf1
wvshf2   lda ($0a),y
         cmp $12
         bcs wvmov
         sta $12
wvmov    ldy $05
         dey
wvmov1   lda ($08),y
         sta ($06),y
         dey
         bpl wvmov1
         lda $12
         sta $08
         rts`},
	"bufa": {nil, `
wbufa    ldy $05
         dey
wbufa1   lda ($08),y
         sta wbuf,y
         dey
         bpl wbufa1
         rts`},
	// wsbx: d[y] = wbuf[x+y], zero where x+y is not below n.
	"sbx": {nil, `
wsbx     ldy #$00
wsbx1    lda #$00
         cpx $05
         bcs wsbx2
         lda wbuf,x
wsbx2    sta ($06),y
         inx
         iny
         cpy $05
         bne wsbx1
         jmp wnext`},
	// wsl1 / wsr1: d shifted one bit left / right through C.
	"sl1": {nil, `
wsl1     ldy #$00
         ldx $05
wsl11    lda ($06),y
         rol a
         sta ($06),y
         iny
         dex
         bne wsl11
         rts`},
	"sr1": {nil, `
wsr1     ldy $05
         dey
wsr11    lda ($06),y
         ror a
         sta ($06),y
         dey
         bpl wsr11
         rts`},
	// wld3: wbuf = b, wq = a, wr = 0, wc2 = 8n (multiply and divide).
	"ld3": {nil, `
wld3     ldy $05
         dey
wld31    lda ($0a),y
         sta wbuf,y
         lda ($08),y
         sta wq,y
         lda #$00
         sta wr,y
         dey
         bpl wld31
         lda $05
         asl a
         asl a
         asl a
         sta $11
         rts`},
	// wshl: the n-byte buffer at wq+x shifted left through C.
	"shl": {nil, `
wshl     ldy $05
wshl1    rol wq,x
         inx
         dey
         bne wshl1
         rts`},
	// wout: d = the n-byte buffer at wq+x.
	"out": {nil, `
wout     ldy #$00
wout1    lda wq,x
         sta ($06),y
         inx
         iny
         cpy $05
         bne wout1
         jmp wnext`},
	// wdiv: restoring division of a by b, n bytes: quotient in wq,
	// remainder in wr (x/0 = all ones, x%0 = x); the result is the buffer
	// at wq+x. No branch on the operands: take = (the bit shifted out of
	// wr) | (wr >= b) is the carry of the bit, kept in wt as 0/1, minus
	// the trial's borrow; it is added to wq and makes the mask that keeps
	// wr or the trial difference wt2.
	"div": {[]string{"ld3", "shl", "out"}, `
wdiv     stx $13
         jsr wld3
wdiv1    ldx #$00
         clc
         jsr wshl
         ldx #wr-wq
         jsr wshl
         lda #$00
         rol a
         sta $12
         ldx #$00
         ldy $05
         sec
wdiv2    lda wr,x
         sbc wbuf,x
         sta wt2,x
         inx
         dey
         bne wdiv2
         lda $12
         sbc #$00
         lda #$00
         sbc #$00
         sta $12
         lda wq
         adc #$00
         sta wq
         ldx #$00
         ldy $05
wdiv5    lda wt2,x
         eor wr,x
         and $12
         eor wt2,x
         sta wr,x
         inx
         dey
         bne wdiv5
         dec $11
         bne wdiv1
         ldx $13
         jmp wout`},
	// waddr: pa = base + (idx << sk&7), base the pointer at zero-page
	// address base when sk's bit 7 is set.
	"addr": {nil, `
waddr    ldy #$00
         lda ($09),y
         sta $0e
         iny
         lda ($09),y
         sta $0f
         lda $06
         and #$07
         tax
         beq waddr2
waddr1   asl $0e
         rol $0f
         dex
         bne waddr1
waddr2   lda $06
         bmi waddr3
         clc
         lda $0e
         adc $07
         sta $0e
         lda $0f
         adc $08
         sta $0f
         rts
waddr3   ldx $07
         clc
         lda $0e
         adc $00,x
         sta $0e
         lda $0f
         adc $01,x
         sta $0f
         rts`},
}

// wInterp collects the op codes a module uses.
type wInterp struct {
	codes map[string]int
	order []string
}

// code returns op name's code, assigning the next one at first use.
func (w *wInterp) code(name string) int {
	if c, ok := w.codes[name]; ok {
		return c
	}
	if _, ok := wHandlers[name]; !ok {
		panic("BUG: mos6502: no interpreter op " + name)
	}
	w.codes[name] = len(w.order)
	w.order = append(w.order, name)
	return w.codes[name]
}

// emit writes the interpreter: dispatch loop, the tables, the handlers
// used and the routines they share, and its scratch buffers.
func (w *wInterp) emit(out *asmBuf) {
	out.comment("wop: the --opt size interpreter")
	emitBody(out, fmt.Sprintf(`
wop      pla
         sta $03
         pla
         sta $04
wnext    ldy #$01
         lda ($03),y
         tax
         iny
wcopy    tya
         cmp wlen,x
         bcs wadv
         lda ($03),y
         sta $0003,y
         iny
         bne wcopy
wadv     dey
         tya
         clc
         adc $03
         sta $03
         bcc wdisp
         inc $04
wdisp    txa
         asl a
         tax
         lda wjt,x
         sta $%02x
         lda wjt+1,x
         sta $%02x
         jmp ($%02x)`, wC, wC+1, wC))
	out.label("wlen")
	var lens []byte
	for _, name := range w.order {
		lens = append(lens, byte(wHandlers[name].operands+2))
	}
	out.bytes(lens)
	out.label("wjt")
	for _, name := range w.order {
		out.op(".word wh%s", name)
	}
	shared := map[string]bool{}
	var need func(d string)
	need = func(d string) {
		if shared[d] {
			return
		}
		shared[d] = true
		if s, ok := wShared[d]; ok {
			for _, x := range s.deps {
				need(x)
			}
		}
	}
	handlers := map[string]bool{}
	for _, name := range w.order {
		handlers[name] = true
		for _, d := range wHandlers[name].deps {
			if _, isHandler := wHandlers[d]; isHandler {
				handlers[d] = true
			} else {
				need(d)
			}
		}
	}
	for _, name := range sortedKeys(handlers) {
		emitBody(out, wHandlers[name].body)
	}
	for _, name := range sortedKeys(shared) {
		emitBody(out, wShared[name].body)
	}
}

// wBuffers are the interpreter's scratch areas (8 bytes each: wq and wr
// adjacent, the distance between them fits an immediate).
var wBuffers = []string{"wbuf", "wq", "wr", "wt2"}

func sortedKeys(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// emitBody copies handler source: a line starting in column 1 is a label
// (alone, or followed by an instruction).
func emitBody(out *asmBuf, body string) {
	for _, line := range strings.Split(strings.TrimPrefix(body, "\n"), "\n") {
		if line == "" {
			continue
		}
		if line[0] != ' ' {
			f := strings.Fields(line)
			out.label(f[0])
			if len(f) > 1 {
				out.op("%s", strings.Join(f[1:], " "))
			}
			continue
		}
		out.op("%s", strings.TrimSpace(line))
	}
}
