package stdlib_test

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib"
)

// contract lists every stdlib export with its exact signature: outside
// tools call these, so a change here is a breaking change.
var contract = map[string][]string{
	"sha256": {"sha256(msg: []u8, out: mut [32]u8)"},
	"blake2b": {
		"blake2b(msg: []u8, out: mut [64]u8)",
		"blake2b_keyed(key: []u8, msg: []u8, out: mut []u8)",
	},
	"ghash": {
		"ghash(h: [16]u8, data: []u8, out: mut [16]u8)",
		"ghash_init(h: [16]u8, ctx: mut [16]u64)",
		"ghash_ctx(ctx: [16]u64, data: []u8, out: mut [16]u8)",
	},
	"aes": {
		"aes128_encrypt_block(key: [16]u8, src: [16]u8, dst: mut [16]u8)",
		"aes128_ctr(key: [16]u8, iv: [16]u8, src: []u8, dst: mut []u8)",
		"aes128_ctr_init(key: [16]u8, ctx: mut [22]u64)",
		"aes128_ctr_ctx(ctx: [22]u64, iv: [16]u8, src: []u8, dst: mut []u8)",
	},
	"gcm": {
		"aes128_gcm_seal(key: [16]u8, nonce: [12]u8, aad: []u8, pt: []u8, ct: mut []u8, tag: mut [16]u8)",
		"aes128_gcm_open(key: [16]u8, nonce: [12]u8, aad: []u8, ct: []u8, tag: [16]u8, pt: mut []u8) -> bool",
		"aes128_gcm_init(key: [16]u8, ctx: mut [38]u64)",
		"aes128_gcm_seal_ctx(ctx: [38]u64, nonce: [12]u8, aad: []u8, pt: []u8, ct: mut []u8, tag: mut [16]u8)",
		"aes128_gcm_open_ctx(ctx: [38]u64, nonce: [12]u8, aad: []u8, ct: []u8, tag: [16]u8, pt: mut []u8) -> bool",
	},
	"chacha20": {
		"chacha20_block(key: [32]u8, nonce: [12]u8, counter: u32, out: mut [64]u8)",
		"chacha20_xor(key: [32]u8, nonce: [12]u8, counter: u32, src: []u8, dst: mut []u8)",
	},
	"poly1305": {"poly1305(key: [32]u8, msg: []u8, tag: mut [16]u8)"},
	"chacha20poly1305": {
		"chacha20_poly1305_seal(key: [32]u8, nonce: [12]u8, aad: []u8, pt: []u8, ct: mut []u8, tag: mut [16]u8)",
		"chacha20_poly1305_open(key: [32]u8, nonce: [12]u8, aad: []u8, ct: []u8, tag: [16]u8, pt: mut []u8) -> bool",
	},
	"crypto_hw": nil,
	"sha512":    {"sha512(msg: []u8, out: mut [64]u8)"},
	"sha3": {
		"keccak_f1600(st: mut [25]u64)",
		"sha3_256(msg: []u8, out: mut [32]u8)",
		"shake128(msg: []u8, out: mut []u8)",
	},
}

func signature(fn *lang.FuncDecl) string {
	var ps []string
	for _, p := range fn.Params {
		mut := ""
		if p.Mut {
			mut = "mut "
		}
		ps = append(ps, fmt.Sprintf("%s: %s%s", p.Name, mut, p.Type))
	}
	s := fn.Name + "(" + strings.Join(ps, ", ") + ")"
	switch len(fn.ResultTypes) {
	case 0:
	case 1:
		s += " -> " + fn.ResultTypes[0].String()
	default:
		var rs []string
		for _, r := range fn.ResultTypes {
			rs = append(rs, r.String())
		}
		s += " -> (" + strings.Join(rs, ", ") + ")"
	}
	return s
}

// TestExportsContract loads every stdlib module and checks its exports:
// exactly the contract's signatures, each declared and inferred effect-free.
func TestExportsContract(t *testing.T) {
	for module, want := range contract {
		t.Run(module, func(t *testing.T) {
			p := testprog.Stdlib(t, module)
			var got []string
			for _, fn := range p.Exports() {
				got = append(got, signature(fn))
				if fn.Effects == nil || len(fn.Effects.Names) != 0 {
					t.Errorf("%s does not declare effects none", fn.QualName())
				}
				if fn.Inferred != 0 {
					t.Errorf("%s has effects %s", fn.QualName(), fn.Inferred)
				}
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("exports of %s:\n%s\nwant:\n%s", module, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestEveryModuleInContract keeps the contract complete: each embedded
// source is a module listed above.
func TestEveryModuleInContract(t *testing.T) {
	err := fs.WalkDir(stdlib.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := strings.TrimSuffix(p[strings.LastIndexByte(p, '/')+1:], ".lw")
		if _, ok := contract[name]; !ok {
			t.Errorf("stdlib file %s is not in the contract table", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCryptoHWEffectFree checks that every crypto_hw function is effect-free,
// which GHASH and GCM rely on, and that its multiplies may use pclmul.
func TestCryptoHWEffectFree(t *testing.T) {
	p := testprog.Stdlib(t, "crypto_hw")
	for _, fn := range p.Root.Funcs {
		if fn.Inferred != 0 {
			t.Errorf("%s has effects %s", fn.QualName(), fn.Inferred)
		}
		if !fn.Features.Has(lang.FeatPCLMUL) {
			t.Errorf("%s: features %s, want pclmul", fn.QualName(), fn.Features)
		}
	}
}
