package amd64

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// laneShapesSrc has lane loops the selection takes (every u64 operation,
// a mulw's halves plain and accumulated, a splatted value, the blocks of
// a byte array) and ones it must leave scalar (a row read one lane over,
// a mulw half used otherwise, a lane-carried sum), each under `have ifma`.
const laneShapesSrc = `module ls

fn ops(a: mut [24]u64, x: u64) {
    for l in 0..8 {
        let u = a[l]
        let v = a[8 + l]
        a[16 + l] = ((u + v) ^ (u - x)) | ((~v & u) >> 3) | (v << 7)
        a[l] = u * 3 + (v >> 61)
    }
}

fn madd(a: mut [24]u64, p: [16]u64) {
    for l in 0..8 {
        let x = a[l] & 0xf_ffff_ffff_ffff
        let y = p[l] & 0xfff_ffff_ffff
        let (lo, hi) = mulw(x, y)
        let (lo2, hi2) = mulw(a[8 + l] & 0x3ff_ffff_ffff, p[8 + l] & 0xf_ffff_ffff_ffff)
        a[16 + l] = a[16 + l] + (lo & 0xf_ffff_ffff_ffff) + (lo2 & 0xf_ffff_ffff_ffff)
        a[l] = ((hi << 12) | (lo >> 52)) + (((hi2 << 12) | (lo2 >> 52)) ^ 5)
    }
}

fn blocks(a: mut [24]u64, m: [128]u8) {
    for l in 0..8 {
        let w0 = load_le64(m, 16 * l)
        let w1 = load_le64(m, 16 * l + 8)
        a[l] = a[l] + (w0 ^ (w1 >> 1))
        a[8 + l] = w1 - w0
    }
}

fn shifted(a: mut [24]u64) {
    for l in 0..8 {
        a[l] = a[l] + a[l + 1]
    }
}

fn widehalf(a: mut [24]u64) {
    for l in 0..8 {
        let (lo, hi) = mulw(a[l] & 0xf_ffff_ffff_ffff, a[8 + l] & 0xf_ffff_ffff_ffff)
        a[16 + l] = lo + hi
    }
}

export fn run(x: u64, p: [16]u64, msg: []u8) -> [24]u64 requires len(msg) == 256 effects none {
    var a: [24]u64
    for i in 0..24 {
        a[i] = x * ((i as u64) + 1) ^ p[i & 15]
    }
    if have ifma {
        ops(a, x)
        madd(a, p)
        for m in chunks(msg, 128) {
            blocks(a, m)
            madd(a, p)
        }
        shifted(a)
        widehalf(a)
    } else {
        a[0] = a[0] ^ 1
    }
    return a
}
`

// TestLaneLoopShapes runs laneShapesSrc natively in the IFMA variant
// (--hw auto on a CPU with IFMA, and --hw ifma) against the VM with
// ifma, on random inputs.
func TestLaneLoopShapes(t *testing.T) {
	if !cpuHas("avx512ifma") {
		t.Fatal("this test needs a CPU with AVX-512 IFMA (/proc/cpuinfo avx512ifma)")
	}
	p := testprog.Source(t, "ls.lw", laneShapesSrc)
	fn := p.Exports()[0]
	// Selected: madd's four halves, in its two copies (before the chunk
	// loop and in it), each on two halves of four lanes; widehalf stays
	// scalar (its one 128-bit product).
	ll, err := Compile(input(p), backend.Options{HW: "ifma", Emit: "ll"})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(ll), "call <4 x i64> @llvm.x86.avx512.vpmadd52"); n != 16 {
		t.Errorf("--hw ifma: %d 256-bit VPMADD52 calls, want 16", n)
	}
	if n := strings.Count(string(ll), " i128 "); n == 0 {
		t.Errorf("--hw ifma: widehalf's product was selected too")
	}
	feats := levelFeatures(levelAVX512 | levelIFMA)
	rng := rand.New(rand.NewSource(14))
	for _, hw := range []string{"auto", "ifma"} {
		r, err := Prepare(input(p), backend.Options{HW: hw})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 20; i++ {
			ps := make([]uint64, 16)
			for j := range ps {
				ps[j] = rng.Uint64()
			}
			msg := make([]uint64, 256)
			for j := range msg {
				msg[j] = uint64(rng.Intn(256))
			}
			args := []lang.Value{{Word: rng.Uint64()}, {Elems: ps, IsArray: true}, {Elems: msg, IsArray: true}}
			want, _, err := vm.Run(p, fn, lang.CopyValues(args), vm.Options{Features: feats})
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := r.Run(fn.Name, lang.CopyValues(args))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("--hw %s: %d results, want %d", hw, len(got), len(want))
			}
			for k := range want {
				if !sameValue(got[k], want[k]) {
					t.Fatalf("--hw %s, input %d: result %d is %v, the VM's %v", hw, i, k, got[k], want[k])
				}
			}
		}
		r.Close()
	}
}

func sameValue(a, b lang.Value) bool {
	if a.Word != b.Word || len(a.Elems) != len(b.Elems) {
		return false
	}
	for i := range a.Elems {
		if a.Elems[i] != b.Elems[i] {
			return false
		}
	}
	return true
}
