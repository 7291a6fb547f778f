package sem

import (
	"fmt"
	"strings"
)

// Feature is a hardware capability a builtin's fast lowering uses. Features
// are not effects: a builtin's answer is the same on every path.
type Feature uint8

const (
	FeatPCLMUL Feature = 1 << iota // carry-less multiply (clmul_lo, clmul_hi)
	FeatAES                        // AES rounds (aes_enc, aes_enclast)
	FeatSHA                        // SHA-256 rounds and schedule (sha256_rnds2, sha256_msg1, sha256_msg2)
	// FeatIFMA is 52-bit integer multiply-add on vectors (AVX-512 IFMA):
	// no builtin of its own; `have ifma` asks for a code shape that a
	// backend selects to VPMADD52LUQ/VPMADD52HUQ.
	FeatIFMA
)

// FeatureSet is a set of features.
type FeatureSet uint8

// AllFeatures lists the features in canonical order.
var AllFeatures = []Feature{FeatPCLMUL, FeatAES, FeatSHA, FeatIFMA}

func (f Feature) String() string {
	switch f {
	case FeatPCLMUL:
		return "pclmul"
	case FeatAES:
		return "aes"
	case FeatSHA:
		return "sha"
	case FeatIFMA:
		return "ifma"
	}
	return fmt.Sprintf("feature(%d)", uint8(f))
}

// FeatureByName returns the feature called name ("pclmul", "aes", "sha",
// "ifma").
func FeatureByName(name string) (Feature, bool) {
	for _, f := range AllFeatures {
		if f.String() == name {
			return f, true
		}
	}
	return 0, false
}

// ParseFeatures reads a feature list: "none", "all", or names joined by
// commas.
func ParseFeatures(s string) (FeatureSet, error) {
	switch s {
	case "", "none":
		return 0, nil
	case "all":
		var all FeatureSet
		for _, f := range AllFeatures {
			all |= FeatureSet(f)
		}
		return all, nil
	}
	var set FeatureSet
	for _, name := range strings.Split(s, ",") {
		f, ok := FeatureByName(strings.TrimSpace(name))
		if !ok {
			return 0, fmt.Errorf("unknown feature %q (want none, all, or a list of %s)", strings.TrimSpace(name), FeatureSet(0xff))
		}
		set |= FeatureSet(f)
	}
	return set, nil
}

// Has reports whether s contains f.
func (s FeatureSet) Has(f Feature) bool { return s&FeatureSet(f) != 0 }

func (s FeatureSet) String() string {
	if s == 0 {
		return "none"
	}
	var names []string
	for _, f := range AllFeatures {
		if s.Has(f) {
			names = append(names, f.String())
		}
	}
	return strings.Join(names, ",")
}
