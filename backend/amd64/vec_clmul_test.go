package amd64

import (
	"encoding/hex"
	"fmt"
	"math/rand"
	"regexp"
	"slices"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/driver"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// TestWideClmul: under AVX-512 (AVX2) the sixteen-block GHASH step loads
// four (two) blocks per 512-bit (256-bit) register and multiplies them
// with one VPCLMULQDQ per Karatsuba term: 12 (24) wide products per step
// in ghash and in gcm's hash loop.
func TestWideClmul(t *testing.T) {
	for _, c := range []struct {
		hw, reg string
		want    int
	}{{"avx512,vpclmul,pclmul", "zmm", 12}, {"avx2,vpclmul,pclmul", "ymm", 24}} {
		for _, mod := range []string{"ghash", "gcm"} {
			asm := disassemble(t, mod, c.hw)
			mul := regexp.MustCompile(`(?m)^\s+[0-9a-f]+:\s+vpclmulqdq\s+\$(0x)?[01], [^,]+, %` + c.reg)
			load := regexp.MustCompile(`(?m)^\s+[0-9a-f]+:\s+vmovdqu(64)?\s+-?\d*\(%(r\d+|r[abcd]x|r[sd]i|rbp)\), %` + c.reg)
			if n := len(mul.FindAllString(asm, -1)); n < c.want {
				t.Errorf("%s --hw %s: %d VPCLMULQDQ on %s, want at least %d (one sixteen-block step)", mod, c.hw, n, c.reg, c.want)
			}
			if n := len(load.FindAllString(asm, -1)); n < c.want/3 { // not from the stack
				t.Errorf("%s --hw %s: %d loads of a whole %s register, want at least %d", mod, c.hw, n, c.reg, c.want/3)
			}
		}
	}
}

// wideClmulSrc has loops of the shape the wide products take (mac4: four
// blocks times four loop-invariant factors, summed in six chains) and
// near misses that must keep the 128-bit selection and still compute the
// same: a product also used outside its chain (twice), a chain with a
// foreign term in the middle (mixed), a block whose factor changes in
// the loop (variant).
const wideClmulSrc = `module wclmul

fn mac(acc: mut [6]u64, x0: u64, x1: u64, h0: u64, h1: u64) {
    let xm = x0 ^ x1
    let hm = h0 ^ h1
    acc[0] ^= clmul_lo(x0, h0)
    acc[1] ^= clmul_hi(x0, h0)
    acc[2] ^= clmul_lo(x1, h1)
    acc[3] ^= clmul_hi(x1, h1)
    acc[4] ^= clmul_lo(xm, hm)
    acc[5] ^= clmul_hi(xm, hm)
}

fn fold(y: mut [2]u64, acc: [6]u64) {
    y[0] = y[0] ^ acc[0] ^ (acc[2] << 1) ^ (acc[4] >> 3) ^ acc[5]
    y[1] = y[1] ^ acc[1] ^ (acc[3] >> 1) ^ (acc[4] << 7) ^ acc[5]
}

export fn mac4(h: [8]u64, data: []u8, out: mut [2]u64) effects none {
    var y: [2]u64
    for blk in chunks(data, 64) {
        var acc: [6]u64
        for j in 0..4 {
            mac(acc, load_be64(blk, 16 * j + 8), load_be64(blk, 16 * j), h[2 * j], h[2 * j + 1])
        }
        mac(acc, y[0], y[1], h[0], h[1])
        fold(y, acc)
    }
    out[0] = y[0]
    out[1] = y[1]
}

export fn twice(h: [8]u64, data: []u8, out: mut [2]u64) effects none {
    var y: [2]u64
    for blk in chunks(data, 64) {
        var acc: [6]u64
        for j in 0..4 {
            mac(acc, load_be64(blk, 16 * j + 8), load_be64(blk, 16 * j), h[2 * j], h[2 * j + 1])
        }
        y[0] ^= acc[0] ^ clmul_lo(load_be64(blk, 8), h[0])
        fold(y, acc)
    }
    out[0] = y[0]
    out[1] = y[1]
}

export fn mixed(h: [8]u64, data: []u8, out: mut [2]u64) effects none {
    var y: [2]u64
    for blk in chunks(data, 64) {
        var acc: [6]u64
        for j in 0..2 {
            mac(acc, load_be64(blk, 16 * j + 8), load_be64(blk, 16 * j), h[2 * j], h[2 * j + 1])
        }
        mac(acc, y[0], y[1], h[0], h[1])
        for j in 2..4 {
            mac(acc, load_be64(blk, 16 * j + 8), load_be64(blk, 16 * j), h[2 * j], h[2 * j + 1])
        }
        fold(y, acc)
    }
    out[0] = y[0]
    out[1] = y[1]
}

export fn variant(h: [8]u64, data: []u8, out: mut [2]u64) effects none {
    var y: [2]u64
    for blk in chunks(data, 64) {
        var acc: [6]u64
        for j in 0..4 {
            mac(acc, load_be64(blk, 16 * j + 8), load_be64(blk, 16 * j), h[2 * j] ^ y[1], h[2 * j + 1])
        }
        fold(y, acc)
    }
    out[0] = y[0]
    out[1] = y[1]
}
`

// TestWideClmulShapes runs the shapes of wideClmulSrc under every --hw
// level against the VM, on lengths with and without a partial group.
func TestWideClmulShapes(t *testing.T) {
	p, ds := driver.LoadSource("wclmul.lw", []byte(wideClmulSrc))
	if len(ds) > 0 {
		t.Fatal(ds.Render(lang.Sources{"wclmul.lw": []byte(wideClmulSrc)}))
	}
	rng := rand.New(rand.NewSource(13))
	for _, hw := range []string{"aes", "avx2,vpclmul,pclmul", "avx512,vpclmul,pclmul"} {
		r, err := Prepare(input(p), backend.Options{HW: hw})
		if err != nil {
			t.Fatalf("--hw %s: %v", hw, err)
		}
		for _, fn := range p.Exports() {
			for _, n := range []int{0, 64, 100, 256, 1000} {
				h := lang.Value{IsArray: true}
				for i := 0; i < 8; i++ {
					h.Elems = append(h.Elems, rng.Uint64())
				}
				data := lang.Value{IsArray: true}
				for i := 0; i < n; i++ {
					data.Elems = append(data.Elems, uint64(rng.Intn(256)))
				}
				args := []lang.Value{h, data, {IsArray: true, Elems: make([]uint64, 2)}}
				got, want := againstVM(t, p, r, fn, args)
				if got != want {
					t.Errorf("--hw %s: %s(len %d): got %s, the VM %s", hw, fn.Name, n, got, want)
				}
			}
		}
		r.Close()
	}
}

// TestCTRSixteenBlocks: under AVX-512 the CTR steps of aes and gcm run
// sixteen blocks, four 512-bit VAESENC per round (40 per step), and the
// counter edges of the sixteen-block step (a low byte past 0xf0, carries
// into the high word, the wrap of the whole counter; GCM's 32-bit counter
// past a low byte of 0xf0 after fifteen steps) agree with Go at every
// level of one --hw auto object.
func TestCTRSixteenBlocks(t *testing.T) {
	// With eight-block steps the objects held 36 (aes) and 72 (gcm)
	// VAESENC on zmm, two registers per round in each CTR loop; sixteen
	// blocks per step at least double that.
	for _, c := range []struct {
		mod  string
		want int
	}{{"aes", 72}, {"gcm", 144}} {
		asm := disassemble(t, c.mod, "avx512,vaes,aes")
		re := regexp.MustCompile(`(?m)^\s+[0-9a-f]+:\s+vaesenc\s+[^,]+, %zmm\d+, %zmm`)
		if n := len(re.FindAllString(asm, -1)); n < c.want {
			t.Errorf("%s --hw avx512,vaes,aes: %d VAESENC on zmm, want at least %d (four registers per round)", c.mod, n, c.want)
		}
	}
	rng := rand.New(rand.NewSource(16))
	rnd := func(n int) []byte {
		b := make([]byte, n)
		rng.Read(b)
		return b
	}
	var cases []golden.Case
	for _, iv := range []string{"00", "ef", "f0", "f1", "ff"} {
		for _, hi := range []string{"0123456789abcdef0123456789abcd", "0123456789abcdefffffffffffffff", "ffffffffffffffffffffffffffffff"} {
			for _, n := range []int{256, 300, 600} {
				b, _ := hex.DecodeString(hi + iv)
				cases = append(cases, golden.CTRCase(fmt.Sprintf("aes128_ctr/iv=%s%s/len=%d", hi, iv, n), rnd(16), b, rnd(n)))
			}
		}
	}
	for _, n := range []int{3840, 4096, 4200, 8192 + 17} {
		cases = append(cases, golden.GCMSealCase(fmt.Sprintf("aes128_gcm_seal/len=%d", n), rnd(16), rnd(12), rnd(13), rnd(n)))
	}
	for _, mod := range []string{"aes", "gcm"} {
		p, err := golden.Load(mod)
		if err != nil {
			t.Fatal(err)
		}
		for _, lvl := range []int{levelBase, levelAES, levelAVX2, levelAVX512} {
			r, err := Prepare(input(p), backend.Options{HW: "auto"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := r.ForceLevel(lvl); err != nil {
				t.Fatal(err)
			}
			var ps golden.Programs
			for _, c := range cases {
				if c.Module != mod {
					continue
				}
				err := golden.RunCase(&ps, func(_ *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
					res, _, err := r.Run(fn.Name, args)
					return res, err
				}, c)
				if err != nil {
					t.Errorf("level %#x: %s: %v", lvl, c.Name, err)
				}
			}
			r.Close()
		}
	}
}

// objdumpLine is one instruction line of llvm-objdump -d: address,
// mnemonic and operands.
var objdumpLine = regexp.MustCompile(`(?m)^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$`)

// loopsWith returns the instructions of each loop of asm (from a backward
// jump's target to the jump) that holds an instruction matching insn.
func loopsWith(asm string, insn *regexp.Regexp) [][]string {
	lines := objdumpLines(asm)
	jump := regexp.MustCompile(`^j\w+ (?:0x)?([0-9a-f]+)`)
	var loops [][]string
	for i, l := range lines {
		m := jump.FindStringSubmatch(l.text)
		if m == nil {
			continue
		}
		var target uint64
		fmt.Sscanf(m[1], "%x", &target)
		if target > l.addr {
			continue
		}
		var body []string
		hit := false
		for j := i; j >= 0 && lines[j].addr >= target; j-- {
			body = append(body, lines[j].text)
			hit = hit || insn.MatchString(lines[j].text)
		}
		if hit {
			loops = append(loops, body)
		}
	}
	return loops
}

// innerLoopsWith is loopsWith over the innermost loops only: a backward
// jump whose range holds another backward jump's whole range is left
// out. Such a range need not be a loop at all: block placement may put a
// branch's target before it (gcm's open_ctx jumps back to the sixteen-
// block hash from the test of its length), and the range then spans
// whatever code lies between, hash loops and their set-up included.
func innerLoopsWith(asm string, insn *regexp.Regexp) [][]string {
	lines := objdumpLines(asm)
	jump := regexp.MustCompile(`^j\w+ (?:0x)?([0-9a-f]+)`)
	type span struct{ from, to uint64 }
	var back []span
	for _, l := range lines {
		if m := jump.FindStringSubmatch(l.text); m != nil {
			var target uint64
			fmt.Sscanf(m[1], "%x", &target)
			if target <= l.addr {
				back = append(back, span{target, l.addr})
			}
		}
	}
	var loops [][]string
	for _, sp := range back {
		inner := false
		for _, o := range back {
			if o != sp && o.from >= sp.from && o.to <= sp.to {
				inner = true
			}
		}
		if inner {
			continue
		}
		var body []string
		hit := false
		for _, l := range lines {
			if l.addr >= sp.from && l.addr <= sp.to {
				body = append(body, l.text)
				hit = hit || insn.MatchString(l.text)
			}
		}
		if hit {
			loops = append(loops, body)
		}
	}
	return loops
}

// TestGhashValueInVector: GHASH's running value is carried from one
// sixteen-block step to the next in a vector register (a <2 x i64> phi),
// so the hash loop moves nothing between vector and general registers
// (before, each step took y's two words out with VMOVQ/VPEXTRQ and put
// them back with VMOVQ, on the loop-carried chain). The hash loops are
// ghash's and gcm's over the additional data and in open (the seal's
// stitched loop also builds counter blocks, from general registers).
func TestGhashValueInVector(t *testing.T) {
	wide := regexp.MustCompile(`^vpclmulqdq .*%zmm`)
	aes := regexp.MustCompile(`^vaes`)
	cross := regexp.MustCompile(`^(vmovq|vmovd|vpextrq|vpinsrq|movq|shldq|shrdq) .*%(xmm\d+, %r|r\w+, %xmm)`)
	for _, mod := range []string{"ghash", "gcm"} {
		var loops [][]string
		for _, body := range innerLoopsWith(disassemble(t, mod, "avx512,vaes,vpclmul,aes,pclmul"), wide) {
			if !slices.ContainsFunc(body, aes.MatchString) {
				loops = append(loops, body)
			}
		}
		if len(loops) == 0 {
			t.Fatalf("%s: no hash loop with 512-bit VPCLMULQDQ", mod)
		}
		for _, body := range loops {
			for _, x := range body {
				if cross.MatchString(x) {
					t.Errorf("%s: the sixteen-block hash loop moves between register files: %s", mod, x)
				}
			}
		}
	}
}

// TestStitchedSeal: with VAES and VPCLMULQDQ the GCM seal is one loop
// whose step runs the sixteen blocks' AES rounds on 512-bit registers and
// the previous step's sixteen block products on 512-bit VPCLMULQDQ (the
// AES unit and the multiplier work at once); before, the seal ran a CTR
// loop and then a hash loop. Under AVX2 the same loop takes 256 bits.
func TestStitchedSeal(t *testing.T) {
	for _, c := range []struct{ hw, reg string }{
		{"avx512,vaes,vpclmul,aes,pclmul", "zmm"},
		{"avx2,vaes,vpclmul,aes,pclmul", "ymm"},
	} {
		mul := regexp.MustCompile(`^vpclmulqdq .*%` + c.reg)
		enc := regexp.MustCompile(`^vaesenc .*%` + c.reg)
		found := false
		for _, body := range loopsWith(disassemble(t, "gcm", c.hw), mul) {
			for _, x := range body {
				found = found || enc.MatchString(x)
			}
		}
		if !found {
			t.Errorf("gcm --hw %s: no loop runs both VAESENC and VPCLMULQDQ on %s", c.hw, c.reg)
		}
	}
}

// TestGhashReductionUnshifted: the sixteen-block step multiplies by
// powers of H divided by x (ghash.lw's powers16), whose carry-less
// products need no shift left by one bit before the reduction
// (crypto_hw's gf128_reduce_div): the hash loops have no 63-bit shift
// right, the carry between the 64-bit words of that shift.
func TestGhashReductionUnshifted(t *testing.T) {
	wide := regexp.MustCompile(`^vpclmulqdq .*%zmm`)
	aes := regexp.MustCompile(`^vaes`)
	carry := regexp.MustCompile(`^(v?psrlq|shrq|shldq|shrdq) \$(0x3f|63|0x1|1),`)
	for _, mod := range []string{"ghash", "gcm"} {
		n := 0
		for _, body := range innerLoopsWith(disassemble(t, mod, "avx512,vaes,vpclmul,aes,pclmul"), wide) {
			if slices.ContainsFunc(body, aes.MatchString) {
				continue
			}
			n++
			for _, x := range body {
				if carry.MatchString(x) {
					t.Errorf("%s: the sixteen-block hash loop shifts the product: %s", mod, x)
				}
			}
		}
		if n == 0 {
			t.Fatalf("%s: no hash loop with 512-bit VPCLMULQDQ", mod)
		}
	}
}

// TestGhashEightBlockWide: below ghash's UPDATE16_MIN the hash takes
// eight blocks per reduction with y's product apart from the blocks'
// (ghash.lw's step8_by, the powers divided by x), so that the blocks'
// products are wide too: a hash loop whose step is two 512-bit groups
// (6 VPCLMULQDQ on zmm; 12 on ymm under AVX2) and no 63-bit shift.
// Before, the step under 2 KiB was step8 on 128-bit products (24
// PCLMULQDQ xmm, y xored into the first block).
func TestGhashEightBlockWide(t *testing.T) {
	for _, c := range []struct {
		hw, reg string
		want    int
	}{{"avx512,vaes,vpclmul,aes,pclmul", "zmm", 6}, {"avx2,vaes,vpclmul,aes,pclmul", "ymm", 12}} {
		wide := regexp.MustCompile(`^vpclmulqdq .*%` + c.reg)
		aes := regexp.MustCompile(`^vaes`)
		carry := regexp.MustCompile(`^(v?psrlq|shrq|shldq|shrdq) \$(0x3f|63|0x1|1),`)
		for _, mod := range []string{"ghash", "gcm"} {
			found := false
			for _, body := range loopsWith(disassemble(t, mod, c.hw), wide) {
				if slices.ContainsFunc(body, aes.MatchString) || slices.ContainsFunc(body, carry.MatchString) {
					continue
				}
				n := 0
				for _, x := range body {
					if wide.MatchString(x) {
						n++
					}
				}
				found = found || n == c.want
			}
			if !found {
				t.Errorf("%s --hw %s: no hash loop of eight blocks on %d VPCLMULQDQ %s", mod, c.hw, c.want, c.reg)
			}
		}
	}
}

// asmLine is one instruction of objdump's output: its address and text.
type asmLine struct {
	addr uint64
	text string
}

// objdumpLines are the instructions of objdump's output in order.
func objdumpLines(asm string) []asmLine {
	var lines []asmLine
	for _, m := range objdumpLine.FindAllStringSubmatch(asm, -1) {
		var a uint64
		fmt.Sscanf(m[1], "%x", &a)
		lines = append(lines, asmLine{a, m[2] + " " + m[3]})
	}
	return lines
}
