package amd64

import (
	"math/rand"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
	"github.com/lowent/lowentc/vm"
)

// TestChunkLoopLanes runs ChaCha20 and the ChaCha20-Poly1305 seal, whose
// block loops run 16, 8 or 4 blocks at a time in the AVX-512, AVX2 and SSE
// variants (backend/llvm/chunkvec.go), then half as many and so on down
// to 4 for the blocks left, the last two or three as one 4-lane step on
// copies, at every CPU level on messages of one to several vector steps
// of each width and a tail, with the block counter wrapping inside a
// step, and compares them with the VM.
func TestChunkLoopLanes(t *testing.T) {
	rng := rand.New(rand.NewSource(14))
	rnd := func(n int) []byte {
		b := make([]byte, n)
		rng.Read(b)
		return b
	}
	chacha := testprog.Stdlib(t, "chacha20")
	aead := testprog.Stdlib(t, "chacha20poly1305")
	type call struct {
		p    *lang.Program
		fn   string
		args func() []lang.Value
	}
	var calls []call
	for _, n := range []int{64*2 + 5, 64*3 + 1, 256, 511, 512, 64 * 12, 64*14 + 33, 64 * 15, 1023, 1024, 1025, 1088, 64 * 18, 2047, 2048 + 64*5 + 17, 4096} {
		for _, ctr := range []uint32{rng.Uint32() >> 4, 0xffffffff - 5, 0xfffffff0} {
			key, nonce, src := rnd(32), rnd(12), rnd(n)
			calls = append(calls, call{chacha, "chacha20_xor", func() []lang.Value {
				return []lang.Value{golden.Bytes(key), golden.Bytes(nonce), {Word: uint64(ctr)}, golden.Bytes(src), golden.Bytes(make([]byte, n))}
			}})
		}
		key, nonce, aad, pt := rnd(32), rnd(12), rnd(n%37), rnd(n)
		calls = append(calls, call{aead, "chacha20_poly1305_seal", func() []lang.Value {
			return []lang.Value{golden.Bytes(key), golden.Bytes(nonce), golden.Bytes(aad), golden.Bytes(pt),
				golden.Bytes(make([]byte, n)), golden.Bytes(make([]byte, 16))}
		}})
	}
	for _, level := range []int{levelAVX512, levelAVX2, levelAES, levelBase} {
		for _, c := range calls {
			r := runnerFor(t, c.p, "auto")
			got, err := r.ForceLevel(level)
			if err != nil {
				t.Fatal(err)
			}
			if got&levelMask != level {
				t.Logf("level %d: the CPU allows %d only", level, got&levelMask)
			}
			args := c.args()
			want := c.args()
			if _, _, err := vm.Run(c.p, c.p.Export(c.fn), want, vm.Options{}); err != nil {
				t.Fatal(err)
			}
			if _, _, err := r.Run(c.fn, args); err != nil {
				t.Fatal(err)
			}
			for i := range args {
				if !slices.Equal(args[i].Elems, want[i].Elems) {
					t.Errorf("level %d: %s, %d bytes: argument %d differs from the VM", level, c.fn, len(args[3].Elems), i)
				}
			}
		}
	}
	for _, p := range []*lang.Program{chacha, aead} {
		if _, err := runnerFor(t, p, "auto").ForceLevel(levelAVX512 | levelSHA); err != nil {
			t.Fatal(err)
		}
	}
}

// TestChunkLoopShuffles: the AVX-512 ChaCha20 moves its words with
// contiguous loads and stores and shuffles, not with gathers and scatters
// of single lanes, and only the keystream is transposed.
func TestChunkLoopShuffles(t *testing.T) {
	p := testprog.Stdlib(t, "chacha20")
	asm, err := Compile(input(p), backend.Options{Emit: "asm", HW: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?s)\nlowentc_chacha20_chacha20_xor\.avx512:(.*?)\.Lfunc_end`).FindStringSubmatch(string(asm))
	if body == nil {
		t.Fatal("no AVX-512 variant of chacha20_xor")
	}
	if m := regexp.MustCompile(`\bv(p?gather|p?scatter)\w*`).FindAllString(body[1], -1); len(m) > 0 {
		t.Errorf("gathers or scatters: %v", m)
	}
	// The first loop of the function is the vector one (16 blocks a step).
	loop := regexp.MustCompile(`(?s)Inner Loop Header: Depth=1\n(.*?)\n\tj`).FindStringSubmatch(body[1])
	if loop == nil {
		t.Fatal("no loop in the AVX-512 chacha20_xor")
	}
	count := func(re string) int { return len(regexp.MustCompile(re).FindAllString(loop[1], -1)) }
	// The keystream is transposed (16 x 16 words in 4 stages) and xored
	// with the message as loaded; transposing the message too would
	// double that. Of the stages, only the middle two are shuffles (32):
	// the first is shifts and blends, which run beside the shuffles, and
	// the last is done by the loads and stores, 256 bits at a time
	// (vinserti64x4 from memory, vextracti64x4 to memory).
	if n := count(`\b(vpermt2[dq]|vpermi2[dq]|vperm[dq]|vshufi(64x2|32x4)|vpunpck[lh]\w+|vpshufd|valign[dq])\b|\bvinserti64x4\s+\$\d+, %|\bvextracti64x4\s+\$\d+, %zmm\d+, %`); n > 40 {
		t.Errorf("%d shuffles, want 32", n)
	}
	if n := count(`\bvextracti64x4\s+\$1, %zmm\d+, -?\d*\(`); n != 16 {
		t.Errorf("%d high halves stored from a zmm register, want 16", n)
	}
	// 10 double rounds of 8 quarter rounds of 4 rotates, on 16 blocks at
	// once: 320 on zmm registers (some may become byte shuffles).
	if n := count(`\bvprold\s[^\n]*zmm`); n < 200 {
		t.Errorf("%d 512-bit rotates, want about 320", n)
	}
}

// TestChunkLoopShapes runs backend/testdata/chunkloops.lw (chunk loops of
// 16 and 128 bytes with loop-carried counters, the loop index in the data,
// and loops that must stay scalar: words half written, an array read and
// written) at every CPU level on lengths around the vector steps, and
// compares them with the VM.
func TestChunkLoopShapes(t *testing.T) {
	p := testprog.Load(t, "../testdata/chunkloops.lw")
	// Which loops run in lanes: small's 16-byte chunks and wide's in every
	// hardware variant (small's four words fill only four lanes: the
	// wider variants take them in their last, 4-lane loop), neither in
	// the computed one, partial and inplace nowhere.
	ll, err := Compile(input(p), backend.Options{Emit: "ll", HW: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	// The emitted IR is the same from one compile to the next (two arrays
	// read and two written in two).
	if again, err := Compile(input(p), backend.Options{Emit: "ll", HW: "auto"}); err != nil || string(again) != string(ll) {
		t.Errorf("two compiles of chunkloops.lw differ (%v)", err)
	}
	for _, fn := range []string{"small", "wide", "partial", "inplace", "two"} {
		for _, v := range []string{"avx512", "avx2", "aes", "soft"} {
			body := regexp.MustCompile(`(?s)\ndefine internal i32 @lowentc_chunkloops_` + fn + `\.` + v + `\(.*?\n}\n`).FindString(string(ll))
			want := (fn == "wide" || fn == "two" || fn == "small") && v != "soft"
			if got := strings.Contains(body, "shufflevector"); body == "" || got != want {
				t.Errorf("%s.%s: vector lanes %v, want %v", fn, v, got, want)
			}
		}
	}
	r, err := Prepare(input(p), backend.Options{HW: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rng := rand.New(rand.NewSource(3))
	rnd := func(n int) []byte {
		b := make([]byte, n)
		rng.Read(b)
		return b
	}
	for _, level := range []int{levelAVX512, levelAVX2, levelAES, levelBase} {
		if _, err := r.ForceLevel(level); err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{0, 16, 48, 64, 255, 256, 2*128 + 39, 3*128 + 5, 1024, 1024 + 16*3 + 5, 2048 + 64, 4096 + 128 + 17} {
			src, dst, k := rnd(n), rnd(n), uint64(rng.Uint32())
			calls := map[string][]lang.Value{
				"small":   {{Word: k}, golden.Bytes(src), golden.Bytes(dst)},
				"wide":    {{Word: k}, golden.Bytes(src), golden.Bytes(dst)},
				"partial": {golden.Bytes(src), golden.Bytes(dst)},
				"inplace": {golden.Bytes(src)},
				"two":     {golden.Bytes(src), golden.Bytes(dst), golden.Bytes(rnd(n)), golden.Bytes(rnd(n))},
			}
			for fn, args := range calls {
				want := make([]lang.Value, len(args))
				for i, a := range args {
					want[i] = a
					want[i].Elems = slices.Clone(a.Elems)
				}
				if _, _, err := vm.Run(p, p.Export(fn), want, vm.Options{}); err != nil {
					t.Fatal(err)
				}
				if _, _, err := r.Run(fn, args); err != nil {
					t.Fatal(err)
				}
				for i := range args {
					if !slices.Equal(args[i].Elems, want[i].Elems) {
						t.Errorf("level %d: %s, %d bytes: argument %d differs from the VM", level, fn, n, i)
					}
				}
			}
		}
	}
}
