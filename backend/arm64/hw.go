package arm64

import (
	"fmt"

	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

// --hw: none (the computed forms), crypto (the Armv8 Cryptography
// Extensions compiled in unconditionally), auto (both, picked at run time
// from getauxval(AT_HWCAP), dispatch.go).

// The AT_HWCAP bits of the extensions the builtins use (Linux's
// asm/hwcap.h).
const (
	hwcapAES   = 1 << 3 // AESE, AESD, AESMC, AESIMC
	hwcapPMULL = 1 << 4 // PMULL and PMULL2 on 64-bit lanes
	hwcapSHA2  = 1 << 6 // SHA256H, SHA256H2, SHA256SU0, SHA256SU1
	hwcapAll   = hwcapAES | hwcapPMULL | hwcapSHA2
)

// The levels the dispatcher distinguishes.
const (
	levelBase   = 0 // the computed forms
	levelCrypto = 1 // the Cryptography Extensions each function uses
)

// cryptoFeatures are the LLVM features of a crypto variant.
const cryptoFeatures = "+neon,+aes,+sha2"

// variant is one compiled version of an export.
type variant struct {
	name   string // symbol suffix: "soft" or "crypto"
	crypto bool   // the builtins use the Cryptography Extensions, `have F` holds
	caps   uint64 // the AT_HWCAP bits the variant needs (dispatch)
}

var (
	softVariant   = variant{name: "soft"}
	cryptoVariant = variant{name: "crypto", crypto: true}
)

// hwConfig is what --hw asks for.
type hwConfig struct {
	mode string // "none", "crypto" or "auto"
}

// parseHW reads the --hw value.
func parseHW(s string) (hwConfig, error) {
	switch s {
	case "", "none":
		return hwConfig{mode: "none"}, nil
	case "crypto", "auto":
		return hwConfig{mode: s}, nil
	}
	return hwConfig{}, fmt.Errorf("--hw %q: the arm64 target takes none, crypto or auto", s)
}

// capsOf returns the AT_HWCAP bits a function needs to run its crypto
// variant: those of the builtins it uses and of the features it asks
// `have` about (0 when it does neither).
func capsOf(f *ir.Function) uint64 {
	var caps uint64
	feat := func(x sem.Feature) {
		switch x {
		case sem.FeatAES:
			caps |= hwcapAES
		case sem.FeatPCLMUL:
			caps |= hwcapPMULL
		case sem.FeatSHA:
			caps |= hwcapSHA2
		}
	}
	ir.WalkInstrs(f.Body, func(in *ir.Instr) {
		switch in.Op {
		case ir.OpClmulLo, ir.OpClmulHi:
			feat(sem.FeatPCLMUL)
		case ir.OpAESEnc, ir.OpAESEncLast:
			feat(sem.FeatAES)
		case ir.OpSHA256Rnds2, ir.OpSHA256Msg1, ir.OpSHA256Msg2:
			feat(sem.FeatSHA)
		case ir.OpHave:
			feat(sem.Feature(in.Aux))
		}
	})
	return caps
}

// Variants returns the variants of export f: under auto, a crypto variant
// and the computed one when f uses a builtin or asks `have`, else one.
func (h hwConfig) Variants(f *ir.Function) []llvm.Variant {
	switch h.mode {
	case "crypto":
		return []llvm.Variant{cryptoVariant}
	case "auto":
		if caps := capsOf(f); caps != 0 {
			v := cryptoVariant
			v.caps = caps
			return []llvm.Variant{v, softVariant}
		}
	}
	return []llvm.Variant{softVariant}
}

// Dispatcher emits the AT_HWCAP dispatcher of an export (dispatch.go).
func (h hwConfig) Dispatcher(m *llvm.Module, name string, impls []*llir.Func, vs []llvm.Variant) *llir.Func {
	return modGen{m}.dispatcher(name, impls, vs[0].(variant).caps)
}

// Finish emits the level queries of --hw auto in every module, dispatched
// exports or not (the header declares them; the runner's driver calls
// force_level).
func (h hwConfig) Finish(m *llvm.Module) {
	if h.Dispatched() {
		modGen{m}.capsFunc()
	}
}

// Dispatched says whether --hw auto compiles several variants.
func (h hwConfig) Dispatched() bool { return h.mode == "auto" }

// Describe names the setting for stats.
func (h hwConfig) Describe() string { return h.mode }

// Header declares the level queries of --hw auto.
func (h hwConfig) Header(mod string) string {
	if !h.Dispatched() {
		return ""
	}
	return "\n/* --hw auto: the level in use (0 computed, 1 the Armv8 Cryptography\n" +
		"   Extensions, as far as the CPU has them), the AT_HWCAP bits in use\n" +
		"   (HWCAP_AES 0x8, HWCAP_PMULL 0x10, HWCAP_SHA2 0x40; a function runs its\n" +
		"   crypto version when all the bits it needs are there), and a way to\n" +
		"   lower them: force_level(0) keeps none, force_level(1) those of the CPU;\n" +
		"   it returns the level in effect, and -1 for any other n, changing\n" +
		"   nothing. */\n" +
		fmt.Sprintf("int %s(void);\n", llvm.SymbolName(mod, "cpu_level")) +
		fmt.Sprintf("int %s(void);\n", llvm.SymbolName(mod, "cpu_flags")) +
		fmt.Sprintf("int %s(int level);\n", llvm.SymbolName(mod, "force_level"))
}

func (v variant) Suffix() string { return v.name }

func (v variant) Features() string {
	if v.crypto {
		return cryptoFeatures
	}
	return ""
}

func (v variant) Selector(fn *llvm.Func) llvm.Selector {
	s := &fgen{Func: fn, v: v, pairs: map[[2]value.Value]clmulPair{},
		pair: map[*ir.Instr]*ir.Instr{}, paired: map[*ir.Instr]bool{}, fused: map[*ir.Instr][4]value.Value{}}
	if !v.crypto {
		s.soft = llvm.NewSoftAES()
	}
	return s
}

// modGen is a module being emitted, for the module-level helpers of this
// target (the level queries).
type modGen struct{ *llvm.Module }
