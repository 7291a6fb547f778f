package amd64

import (
	"fmt"
	"sort"
	"strings"
)

// A variant is one compiled version of an export: the computed (soft) path
// or a hardware path with its own LLVM target features. Under --hw auto an
// export that uses a builtin is compiled once per variant and a dispatcher
// picks one at run time (see dispatch.go).
type variant struct {
	name     string // symbol suffix: "soft", "aes", "avx2"
	hw       bool   // clmul/aes builtins use PCLMULQDQ/AESENC
	features string // the function's "target-features" attribute ("" for none)
	level    int    // the CPU level (cpuLevel) that allows this variant
	wide     bool   // VAES and VPCLMULQDQ may be used too
	zmm      bool   // ... on 512-bit registers (AVX-512)
	sha      bool   // `have sha` holds: the SHA-256 builtins use SHA256RNDS2/MSG1/MSG2
	ifma     bool   // `have ifma` holds: AVX-512 IFMA (VPMADD52LUQ/VPMADD52HUQ) may be used
}

// The CPU levels the dispatcher distinguishes, in increasing order.
const (
	levelBase = 0 // plain x86-64
	levelAES  = 1 // + PCLMULQDQ, AES-NI, SSSE3, SSE4.1
	levelAVX2 = 2 // + AVX, AVX2, BMI1/2, VAES, VPCLMULQDQ (and the OS saves YMM)
	// levelAVX512 adds AVX-512 F/BW/VL/DQ and an OS that saves the ZMM
	// state: VAESENC on four blocks at once, and 32 vector registers.
	levelAVX512 = 3
	// levelSHA is a flag added to any level from 1 up: the CPU has the
	// SHA extensions (SHA-NI), which come apart from the AVX levels (Ice
	// Lake and Zen have them, Skylake-X does not).
	levelSHA = 0x100
	// levelIFMA is a flag beside levelSHA: the CPU has AVX-512 IFMA (52-bit
	// multiply-add on 64-bit lanes). Detection sets it only together with
	// levelAVX512, and the IFMA variant needs both.
	levelIFMA = 0x200
	// levelFlags are the flags force_level accepts beside a level.
	levelFlags = levelSHA | levelIFMA
	// levelMask keeps the level without the flags.
	levelMask = 0xff
)

// sseFeatures come with AES-NI on every CPU that has it (Westmere and
// later, Bulldozer and later). The crypto features themselves (+pclmul,
// +aes, and the wide +vaes, +vpclmulqdq) are added per function, for the
// builtins it uses (funcFeatures).
const sseFeatures = "+sse2,+ssse3,+sse4.1,+sse4.2"

// fastUnaligned tells LLVM that 32-byte unaligned loads and stores are not
// slow (true of every AVX2 CPU): otherwise llc, tuned for a generic
// x86-64, splits each 256-bit store into two 128-bit ones.
const fastUnaligned = ",-slow-unaligned-mem-32"

var (
	softVariant = variant{name: "soft", level: levelBase}
	aesVariant  = variant{name: "aes", hw: true, features: sseFeatures, level: levelAES}
	avx2Variant = variant{name: "avx2", hw: true, level: levelAVX2, wide: true,
		features: sseFeatures + ",+avx,+avx2,+bmi,+bmi2" + fastUnaligned}
	avx512Variant = variant{name: "avx512", hw: true, level: levelAVX512, wide: true, zmm: true,
		features: sseFeatures + ",+avx,+avx2,+bmi,+bmi2,+avx512f,+avx512bw,+avx512vl,+avx512dq" + fastUnaligned}
)

// hwConfig is what --hw asks for.
type hwConfig struct {
	mode     string    // "none", "aes", "auto" or "list"
	variants []variant // the variants of every export; one unless auto, best first
}

// featureNames maps the names --hw accepts in a list to LLVM features.
var featureNames = map[string]string{
	"pclmul":  "+pclmul",
	"aes":     "+aes",
	"vaes":    "+vaes,+avx,+avx2",
	"vpclmul": "+vpclmulqdq,+avx,+avx2",
	"sha":     "+sha",
	"ifma":    "+avx512f,+avx512vl,+avx512ifma",
	"avx":     "+avx",
	"avx2":    "+avx,+avx2",
	"bmi2":    "+bmi,+bmi2",
	"avx512":  "+avx512f,+avx512bw,+avx512vl",
	"sse4":    "+ssse3,+sse4.1,+sse4.2",
}

// parseHW reads the --hw value: auto, none, aes, or a comma-separated list
// of feature names (featureNames) compiled in unconditionally.
func parseHW(s string) (hwConfig, error) {
	switch s {
	case "", "none":
		return hwConfig{mode: "none", variants: []variant{softVariant}}, nil
	case "aes":
		return hwConfig{mode: "aes", variants: []variant{aesVariant}}, nil
	case "auto":
		// Best first: the dispatcher takes the first the CPU allows.
		return hwConfig{mode: "auto", variants: []variant{avx512Variant, avx2Variant, aesVariant, softVariant}}, nil
	}
	feats := map[string]bool{}
	hw, wide, zmm, sha, ifma := false, false, false, false, false
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		f, ok := featureNames[name]
		if !ok {
			return hwConfig{}, fmt.Errorf("--hw %q: unknown feature %q (want auto, none, aes, or a list of %s)",
				s, name, strings.Join(sortedKeys(featureNames), ", "))
		}
		switch name {
		case "pclmul", "aes":
			hw = true
		case "sha":
			sha = true
			for _, x := range strings.Split(f, ",") {
				feats[x] = true
			}
		case "ifma":
			ifma = true
			for _, x := range strings.Split(f, ",") {
				feats[x] = true
			}
		case "vaes", "vpclmul":
			hw, wide = true, true
		case "avx512":
			zmm = true
			fallthrough
		default:
			for _, x := range strings.Split(f, ",") {
				feats[x] = true
			}
		}
	}
	// Naming any AES or carry-less feature selects the hardware lowering of
	// all four builtins (they come together on every CPU).
	if hw || sha {
		for _, x := range strings.Split(sseFeatures, ",") {
			feats[x] = true
		}
	}
	if wide {
		feats["+avx"], feats["+avx2"] = true, true
	}
	if feats["+avx2"] {
		feats[fastUnaligned[1:]] = true
	}
	v := variant{name: "hw", hw: hw, wide: wide, zmm: zmm && wide, sha: sha, ifma: ifma, features: strings.Join(sortedKeys(feats), ","), level: levelAES}
	return hwConfig{mode: "list", variants: []variant{v}}, nil
}

// funcFeatures is the "target-features" attribute of variant v of a
// function that uses the builtins in used (from its IR ops, which agree
// with the checker's FuncDecl.Features for an export).
func funcFeatures(v variant, used builtinUse) string {
	fs := []string{}
	if v.features != "" {
		fs = append(fs, v.features)
	}
	if v.hw && used.clmul {
		fs = append(fs, "+pclmul")
		if v.wide {
			fs = append(fs, "+vpclmulqdq")
		}
	}
	if v.hw && used.aes {
		fs = append(fs, "+aes")
		if v.wide {
			fs = append(fs, "+vaes")
		}
	}
	if v.sha && used.sha && !strings.Contains(v.features, "+sha") {
		fs = append(fs, "+sha")
	}
	return strings.Join(fs, ",")
}

// shaVariant is the variant of an export that uses the SHA-256 builtins
// on a CPU with the SHA extensions. It is SSE code only: SHA256RNDS2 and
// its kin have no VEX form, and legacy SSE instructions after AVX code
// that left the upper halves of the YMM registers dirty run many times
// slower on recent Xeons (measured: 14 MB/s instead of 1,800 for SHA-256
// with +avx2). AES-NI and PCLMULQDQ are there too, on 128 bits.
var shaVariant = variant{name: "sha", hw: true, sha: true, features: sseFeatures, level: levelAES}

// ifmaVariant is the variant of an export that asks `have ifma`, on a CPU
// with AVX-512 and IFMA: the AVX-512 variant with +avx512ifma, where
// `have ifma` is true (the lane selection of backend/llvm/lanes52.go then
// emits VPMADD52LUQ/VPMADD52HUQ).
var ifmaVariant = variant{name: "ifma", hw: true, level: levelAVX512, wide: true, zmm: true, ifma: true,
	features: avx512Variant.features + ",+avx512ifma"}

// ifmaVariants returns the variants of an export that asks `have ifma`
// under --hw auto: the IFMA variant first, then vs. Other modes keep vs.
func ifmaVariants(hw hwConfig, vs []variant) []variant {
	if hw.mode == "auto" {
		return append([]variant{ifmaVariant}, vs...)
	}
	return vs
}

// shaVariants returns the variants of an export that uses the SHA-256
// builtins: under --hw auto the SHA variant first, then vs; in a feature
// list with sha, the list's variant kept to SSE (see shaVariant).
func shaVariants(hw hwConfig) []variant {
	if hw.mode == "auto" {
		return append([]variant{shaVariant}, hw.variants...)
	}
	vs := append([]variant{}, hw.variants...)
	for i, v := range vs {
		if v.sha {
			var keep []string
			for _, f := range strings.Split(v.features, ",") {
				if !strings.HasPrefix(f, "+avx") && f != "+vaes" && f != "+vpclmulqdq" {
					keep = append(keep, f)
				}
			}
			vs[i].features, vs[i].wide, vs[i].zmm = strings.Join(keep, ","), false, false
		}
	}
	return vs
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// describe names the setting for stats: the mode and, for a list, its features.
func (h hwConfig) describe() string {
	if h.mode == "list" {
		return h.variants[0].features
	}
	return h.mode
}
