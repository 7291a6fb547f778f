package mos6502

import (
	"maps"
	"math/bits"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testlong"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// ctGroups are sets of calls that must each take one number of cycles:
// the same export and lengths, different keys and data. Every call is also
// checked against Go's reference (golden.RunCase).
func ctGroups(rng *rand.Rand) map[string][]golden.Case {
	bytes := func(n int) []byte {
		b := make([]byte, n)
		rng.Read(b)
		return b
	}
	// Eight random keys and data a group beside the extremes in the
	// default suite; twenty in the long run (LOWENT_LONG=1).
	n := testlong.Count(8, 20)
	g := map[string][]golden.Case{}
	add := func(group string, c golden.Case) {
		c.Name = group + "/" + strconv.Itoa(len(g[group]))
		g[group] = append(g[group], c)
	}
	// GHASH with no data costs the powers of H; with data, the blocks too.
	// The extreme keys 0...01 and ff...ff differed by 83,790 cycles when
	// the carry-less multiply branched on key bits.
	one, ff := make([]byte, 16), make([]byte, 16)
	one[15] = 1
	for i := range ff {
		ff[i] = 0xff
	}
	for _, l := range []int{0, 32} {
		group := "ghash/len=" + strconv.Itoa(l)
		add(group, golden.GHASHCase("", one, bytes(l)))
		add(group, golden.GHASHCase("", ff, bytes(l)))
		for range n {
			add(group, golden.GHASHCase("", bytes(16), bytes(l)))
		}
	}
	for range n {
		add("aes128_encrypt_block", golden.AESBlockCase("", bytes(16), bytes(16)))
		add("aes128_ctr/len=37", golden.CTRCase("", bytes(16), bytes(16), bytes(37)))
	}
	aeadCTGroups(add, "gcm", 16, n, bytes, golden.GCMSealCase, golden.GCMOpenCase, golden.GCMSealRef)
	chachaCTGroups(rng, n, add)
	return g
}

// aeadCTGroups adds the groups NAME_seal and NAME_open of an AEAD: n
// seals of random messages and the opens of their ciphertexts, and the
// opens of one message with its tag forged in each byte (a forged tag is
// rejected in the same time wherever it differs).
func aeadCTGroups(add func(string, golden.Case), name string, keyLen, n int, bytes func(int) []byte,
	seal func(name string, key, nonce, aad, pt []byte) golden.Case,
	open func(name string, key, nonce, aad, ct, tag []byte) golden.Case,
	ref func(key, nonce, aad, pt []byte) (ct, tag []byte)) {
	for range n {
		key, nonce, aad, pt := bytes(keyLen), bytes(12), bytes(5), bytes(21)
		add(name+"_seal/aad=5,len=21", seal("", key, nonce, aad, pt))
		ct, tag := ref(key, nonce, aad, pt)
		add(name+"_open/ok", open("", key, nonce, aad, ct, tag))
	}
	key, nonce, aad, pt := bytes(keyLen), bytes(12), bytes(5), bytes(21)
	ct, tag := ref(key, nonce, aad, pt)
	for i := range 16 {
		bad := append([]byte(nil), tag...)
		bad[i] ^= 1 << (i % 8)
		add(name+"_open/forged", open("", key, nonce, aad, ct, bad))
	}
}

// ctModule is the stdlib module of a group's export.
var ctModule = map[string]string{
	"ghash": "ghash", "aes128_encrypt_block": "aes", "aes128_ctr": "aes",
	"aes128_gcm_seal": "gcm", "aes128_gcm_open": "gcm",
}

// TestConstantTime: GHASH, AES, GCM, ChaCha20, Poly1305 and
// ChaCha20-Poly1305 take the same number of cycles for
// every key and data of the same lengths, in the speed and --opt size
// outputs. Nothing the 6502 helpers do may depend on secret data: no
// branch on key or data bits (the carry-less multiply is mask-based), and
// the tables indexed by secret bytes (the S-box, xtime, linear maps) are
// page aligned, so `lda table,x` never pays a page crossing.
func TestConstantTime(t *testing.T) {
	seed := goldenSeed(t)
	groups := ctGroups(rand.New(rand.NewSource(seed)))
	var ps golden.Programs
	for _, mode := range []string{"speed", "size"} {
		progs := map[string]*program{}
		progFor := func(mod string) *program {
			if prog, ok := progs[mod]; ok {
				return prog
			}
			var prog *program
			var err error
			if mode == "speed" {
				prog, err = stdlibProgram(mod, nil)
			} else {
				var p *lang.Program
				if p, err = ps.Get(mod); err == nil {
					prog, err = build(input(p), backend.Options{Opt: "size"}, layout{org: runOrg})
				}
			}
			if err != nil {
				t.Fatalf("%s (%s): %v", mod, mode, err)
			}
			// The 256-byte tables (labels t0, t1, ...) start on a page.
			for l, addr := range prog.img.labels {
				if _, err := strconv.Atoi(strings.TrimPrefix(l, "t")); err == nil && l[0] == 't' && addr%256 != 0 {
					t.Errorf("%s (%s): table %s at $%04x, not page aligned", mod, mode, l, addr)
				}
			}
			progs[mod] = prog
			return prog
		}
		for _, name := range slices.Sorted(maps.Keys(groups)) {
			cases := groups[name]
			counts := map[string][]int{} // cycles -> the cases that took them
			for i, c := range cases {
				prog := progFor(ctModule[c.Export])
				runner := func(_ *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
					res, st, err := (&Runner{prog: prog}).Run(fn.Name, args)
					if err == nil {
						counts[st[0].Value] = append(counts[st[0].Value], i)
					}
					return res, err
				}
				if err := golden.RunCase(&ps, runner, c); err != nil {
					t.Errorf("%s %s: %v", mode, c.Name, err)
				}
			}
			if len(counts) != 1 {
				t.Errorf("%s %s: %d calls took %d different cycle counts: %v", mode, name, len(cases), len(counts), counts)
			}
		}
	}
}

// TestSelectRotateConstantTime: select on conditions computed from the
// data and rotates of a byte by constants take one number of cycles
// whatever the operands, in both modes (backend/testdata/ctops.lw), and so
// do products and quotients of data. Each result is also checked against
// Go's arithmetic.
func TestSelectRotateConstantTime(t *testing.T) {
	p := testprog.Load(t, "../testdata/ctops.lw")
	rng := rand.New(rand.NewSource(goldenSeed(t)))
	r8 := func(x uint8, k int) uint8 { return bits.RotateLeft8(x, -k) }
	ref := map[string]func(a []uint64) []uint64{
		"sel": func(a []uint64) []uint64 {
			x, y, z, w := uint8(a[0]), uint16(a[1]), uint32(a[2]), a[3]
			if x >= 0x80 {
				x = 0x5a
			}
			if y == 0x1234 {
				y = 7
			}
			if z <= uint32(w) {
				z = uint32(w)
			}
			if a[0]&1 == 0 {
				w ^= 0xffff0000ffff0000
			}
			return []uint64{uint64(x), uint64(y), uint64(z), w}
		},
		"rotr": func(a []uint64) []uint64 {
			x := uint8(a[0])
			return []uint64{uint64(r8(x, 1)), uint64(r8(x, 2)), uint64(r8(x, 3)), uint64(r8(x, 5)),
				uint64(bits.RotateLeft16(uint16(a[1]), -1)), uint64(bits.RotateLeft32(uint32(a[2]), -1))}
		},
		"rotall": func(a []uint64) []uint64 {
			v := uint8(a[0])
			for range 3 {
				v = r8(v, 1) ^ r8(v, 2) ^ r8(v, 3) ^ r8(v, 4) ^ r8(v, 5) ^ r8(v, 6) ^ r8(v, 7) ^ (v + 1)
			}
			return []uint64{uint64(v)}
		},
		"many": func(a []uint64) []uint64 {
			v := uint8(a[0])
			k := uint8(0)
			for r := 1; r < 8; r++ {
				for s := 1; s < 8; s++ {
					k++
					v = (r8(v, r) ^ v<<s) + k
				}
			}
			for _, rk := range [][2]int{{1, 1}, {2, 3}, {3, 5}, {5, 7}, {7, 9}} {
				v = r8(v, rk[0]) + uint8(rk[1])
			}
			return []uint64{uint64(v)}
		},
		"mul32": func(a []uint64) []uint64 { return []uint64{uint64(uint32(a[0]) * uint32(a[1]))} },
		"mulc": func(a []uint64) []uint64 {
			return []uint64{uint64(uint32(a[0]) * 0x9e3779b9), uint64(uint16(0x1235 * a[1]))}
		},
		"div": func(a []uint64) []uint64 {
			x, y, z := uint8(a[0]), uint32(a[1]), uint32(a[2])|1
			return []uint64{uint64(x / 7), uint64(x % 13), uint64(y / 1000), uint64(y % z)}
		},
		"rotv": func(a []uint64) []uint64 { return []uint64{uint64(r8(uint8(a[0]), int(a[1]&7)))} },
	}
	for _, fn := range p.Exports() {
		if ref[fn.Name] == nil {
			t.Errorf("export %s has no reference", fn.Name)
		}
	}
	tg, _ := backend.Lookup("mos6502")
	for _, opt := range []string{"speed", "size"} {
		r, err := tg.Prepare(input(p), backend.Options{Opt: opt})
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range slices.Sorted(maps.Keys(ref)) {
			fn := p.Export(name)
			counts := map[string][][]uint64{}
			for i := range 30 {
				var args []lang.Value
				var in []uint64
				for k := range fn.Params {
					w := rng.Uint64()
					switch {
					case name == "sel" && k == 1 && i%3 == 0:
						w = 0x1234 // the equality holds sometimes
					case name == "sel" && k == 3 && i%4 == 0:
						w = in[2] // c == d
					case name == "rotv" && k == 1:
						w = 3 // a public amount
					}
					in = append(in, w&fn.Params[k].Type.(*lang.WordType).Mask())
					args = append(args, lang.Value{Word: in[k]})
				}
				res, st, err := r.Run(fn.Name, args)
				if err != nil {
					t.Fatalf("--opt %s %s: %v", opt, name, err)
				}
				want := ref[name](in)
				for k := range want {
					if res[k].Word != want[k] {
						t.Errorf("--opt %s %s%x: result %d = %#x, want %#x", opt, name, in, k, res[k].Word, want[k])
					}
				}
				counts[st[0].Value] = append(counts[st[0].Value], in)
			}
			if len(counts) != 1 {
				t.Errorf("--opt %s %s: %d different cycle counts: %v", opt, name, len(counts), counts)
			}
		}
		r.Close()
	}
}
