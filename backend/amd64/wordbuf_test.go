package amd64

import (
	"regexp"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
)

// wordBufSrc has a word buffer computed two words at a time, each pair
// from the pairs before it (a message schedule's shape), read back at
// every offset; two word buffers in the two branches of an if whose pairs
// share operands from before it (each branch forms its own vectors); and
// two byte arrays that are not word buffers: one read at an offset before
// it is written, one also written a byte at a time.
const wordBufSrc = `module wbuf

export fn sched(x: [16]u64, out: mut [8]u64) effects none {
    var w = x
    var wk: [384]u8
    for t in 0..16 {
        store_le64(wk, 8 * t, w[t] + 0x0123_4567_89ab_cdef)
    }
    for g in 0..2 {
        for p in 0..8 {
            for j in 0..2 {
                let t = 2 * p + j
                let a = w[(t + 1) & 15]
                let b = w[(t + 14) & 15]
                let s0 = (a >>> 1) ^ (a >>> 8) ^ (a >> 7)
                let s1 = (b >>> 19) ^ (b <<< 3) ^ (b << 6)
                w[t] += s0 + w[(t + 9) & 15] + s1
                store_le64(wk, 8 * (16 * g + 16 + t), w[t] + 0x0f0f_0f0f_0f0f_0f0f)
            }
            for j in 0..2 {
                let t = 16 * g + 2 * p + j
                out[t & 7] = (out[t & 7] >>> 5) + load_le64(wk, 8 * t)
            }
        }
    }
    for t in 32..48 {
        out[t & 7] ^= load_le64(wk, 8 * t)
    }
}

export fn branches(x: [4]u64, out: mut [4]u64) effects none {
    let a = (x[0] >>> 7) + x[1]
    let b = (x[2] >>> 7) + x[3]
    if (x[0] & 1) == 1 {
        var wk: [16]u8
        store_le64(wk, 0, a ^ 5)
        store_le64(wk, 8, b ^ 5)
        out[0] = load_le64(wk, 0)
        out[1] = load_le64(wk, 8)
    } else {
        var wk: [16]u8
        store_le64(wk, 0, a ^ 9)
        store_le64(wk, 8, b ^ 9)
        out[2] = load_le64(wk, 8)
        out[3] = load_le64(wk, 0)
    }
}

export fn early(x: [4]u64, out: mut [4]u64) effects none {
    var wk: [32]u8
    store_le64(wk, 0, x[0] + x[1])
    store_le64(wk, 8, x[2] + x[3])
    out[0] = load_le64(wk, 16)
    out[1] = load_le64(wk, 8)
}

export fn bytes(x: [4]u64, out: mut [4]u64) effects none {
    var wk: [32]u8
    store_le64(wk, 0, x[0] + x[1])
    store_le64(wk, 8, x[2] + x[3])
    wk[3] = 7
    out[0] = load_le64(wk, 0)
    out[1] = load_le64(wk, 8)
}
`

// TestWordBuffers: in the hardware variants a word buffer stays in memory
// (a compiler fence before a load that follows stores to it) and each
// pair of words stored side by side is computed as <2 x i64> vector ops
// and stored at once, rotates and shifts included, and it is not zeroed;
// the other two byte arrays get none of that. Every variant gives the
// VM's results.
func TestWordBuffers(t *testing.T) {
	p := testprog.Source(t, "wbuf.lw", wordBufSrc)
	ll, err := Compile(input(p), backend.Options{Emit: "ll", HW: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"avx512", "avx2", "aes"} {
		for _, fn := range []string{"sched", "branches", "early", "bytes"} {
			body := regexp.MustCompile(`(?s)define internal i32 @lowentc_wbuf_` + fn + `\.` + v + `\(.*?\n}\n`).Find(ll)
			if body == nil {
				t.Fatalf("no %s variant of %s", v, fn)
			}
			s := string(body)
			fences := strings.Count(s, `asm sideeffect "", "r,~{memory}"`)
			pairs := strings.Count(s, "store <2 x i64>")
			rot := strings.Count(s, "@llvm.fshr.v2i64") + strings.Count(s, "@llvm.fshl.v2i64")
			zeroed := strings.Contains(s, "@llvm.memset")
			if fn == "branches" {
				if fences != 2 || pairs != 2 || zeroed {
					t.Errorf("branches.%s: %d fences, %d pair stores, zeroed %v; want 2, 2, not zeroed", v, fences, pairs, zeroed)
				}
				continue
			}
			if fn != "sched" {
				if fences != 0 || rot != 0 || !zeroed {
					t.Errorf("%s.%s: %d fences, %d vector rotates, zeroed %v; want none, none, zeroed (not a word buffer)", fn, v, fences, rot, zeroed)
				}
				continue
			}
			if zeroed {
				t.Errorf("sched.%s: the word buffer is zeroed; no load reads its zeros", v)
			}
			// A fence before the first two loads after each stored pair
			// (16), none before the last 16 loads (no store since); 8 + 16
			// pair stores; four rotates a pair.
			if fences != 16 || pairs != 24 || rot != 16*4 {
				t.Errorf("sched.%s: %d fences, %d pair stores, %d vector rotates; want 16, 24, 64", v, fences, pairs, rot)
			}
		}
	}
	for _, hw := range []string{"none", "aes", "auto"} {
		r, err := Prepare(input(p), backend.Options{HW: hw})
		if err != nil {
			t.Fatalf("--hw %s: %v", hw, err)
		}
		for _, fn := range p.Exports() {
			for seed := uint64(1); seed <= 3; seed++ {
				args := wordBufArgs(fn, seed)
				got, want := againstVM(t, p, r, fn, args)
				if got != want {
					t.Errorf("--hw %s %s seed %d: got %s, the VM %s", hw, fn.Name, seed, got, want)
				}
			}
		}
		r.Close()
	}
}

// wordBufArgs fills every array argument with words from seed.
func wordBufArgs(fn *lang.FuncDecl, seed uint64) []lang.Value {
	var args []lang.Value
	x := seed * 0x9e37_79b9_7f4a_7c15
	for _, prm := range fn.Params {
		at := prm.Type.(*lang.ArrayType)
		v := lang.Value{IsArray: true}
		for i := 0; i < at.Len; i++ {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			v.Elems = append(v.Elems, x)
		}
		args = append(args, v)
	}
	return args
}
