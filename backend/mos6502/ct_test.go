package mos6502

import (
	"maps"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
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
	const n = 20
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
		key, nonce, aad, pt := bytes(16), bytes(12), bytes(5), bytes(21)
		add("gcm_seal/aad=5,len=21", golden.GCMSealCase("", key, nonce, aad, pt))
		ct, tag := golden.GCMSealRef(key, nonce, aad, pt)
		add("gcm_open/ok", golden.GCMOpenCase("", key, nonce, aad, ct, tag))
	}
	// A forged tag is rejected in the same time wherever it differs.
	key, nonce, aad, pt := bytes(16), bytes(12), bytes(5), bytes(21)
	ct, tag := golden.GCMSealRef(key, nonce, aad, pt)
	for i := range 16 {
		bad := append([]byte(nil), tag...)
		bad[i] ^= 1 << (i % 8)
		add("gcm_open/forged", golden.GCMOpenCase("", key, nonce, aad, ct, bad))
	}
	return g
}

// ctModule is the stdlib module of a group's export.
var ctModule = map[string]string{
	"ghash": "ghash", "aes128_encrypt_block": "aes", "aes128_ctr": "aes",
	"aes128_gcm_seal": "gcm", "aes128_gcm_open": "gcm",
}

// TestConstantTime: GHASH, AES and GCM take the same number of cycles for
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
					prog, err = build(p, backend.Options{Opt: "size"}, layout{org: runOrg})
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
					res, st, err := (&Runner{prog: prog}).Run(fn, args)
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
