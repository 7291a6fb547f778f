package amd64

import (
	"os"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// TestHaveSHAVariant: under --hw auto every forced CPU level answers
// `have` as the VM does with that level's features, also for an export
// whose SHA-256 builtins were deleted as dead (seed 221 of the random
// programs: it had no SHA-NI variant, so `have sha` was false on a CPU
// with SHA-NI).
func TestHaveSHAVariant(t *testing.T) {
	p := testprog.Load(t, "../testdata/haves.lw")
	fn := p.Exports()[0]
	args := []lang.Value{{Word: 100}}
	for _, lvl := range []int{levelBase, levelAES, levelAVX512, levelAES | levelSHA, levelAVX512 | levelSHA} {
		r, err := Prepare(input(p), backend.Options{HW: "auto"})
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.ForceLevel(lvl)
		if err != nil {
			t.Fatal(err)
		}
		feats := levelFeatures(got)
		want, _, err := vm.Run(p, fn, args, vm.Options{Features: feats})
		if err != nil {
			t.Fatal(err)
		}
		res, _, err := r.Run(fn.Name, args)
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Word != want[0].Word {
			t.Errorf("level %#x forced (%#x in effect): got %d, the VM with %v %d", lvl, got, res[0].Word, feats, want[0].Word)
		}
		r.Close()
	}
}

// levelFeatures is what `have` answers at a CPU level of --hw auto.
func levelFeatures(lvl int) lang.FeatureSet {
	var feats lang.FeatureSet
	if lvl&levelMask >= levelAES {
		feats = lang.FeatureSet(lang.FeatAES) | lang.FeatureSet(lang.FeatPCLMUL)
	}
	if lvl&levelSHA != 0 {
		feats |= lang.FeatureSet(lang.FeatSHA)
	}
	if lvl&levelIFMA != 0 && lvl&levelMask == levelAVX512 {
		feats |= lang.FeatureSet(lang.FeatIFMA)
	}
	return feats
}

const haveIFMASrc = `module hi

export fn ask(x: u64) -> u64 effects none {
    if have ifma {
        return x + 4
    }
    if have aes {
        return x + 2
    }
    return x + 3
}
`

// TestHaveIFMAVariant: an export that asks `have ifma` gets the IFMA
// variant under --hw auto, true exactly at level 3 with the IFMA flag (on
// this CPU when it has IFMA: then the auto level answers true); every
// forced level answers as the VM with that level's features; --hw none
// and aes answer false, a list with ifma true.
func TestHaveIFMAVariant(t *testing.T) {
	p := testprog.Source(t, "hi.lw", haveIFMASrc)
	fn := p.Exports()[0]
	args := []lang.Value{{Word: 100}}
	for _, lvl := range []int{-1, levelBase, levelAES, levelAVX2, levelAVX512, levelAVX512 | levelIFMA, levelAES | levelIFMA | levelSHA} {
		r, err := Prepare(input(p), backend.Options{HW: "auto"})
		if err != nil {
			t.Fatal(err)
		}
		got := -1
		if lvl >= 0 {
			if got, err = r.ForceLevel(lvl); err != nil {
				t.Fatal(err)
			}
		}
		res, _, err := r.Run(fn.Name, args)
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		if lvl < 0 {
			// The CPU's own level: IFMA's answer when /proc/cpuinfo has it.
			want := uint64(103)
			if cpuHas("aes") {
				want = 102
			}
			if cpuHas("avx512ifma") && cpuHas("avx512f") {
				want = 104
			}
			if res[0].Word != want {
				t.Errorf("auto at the CPU's level: %d, want %d", res[0].Word, want)
			}
			continue
		}
		want, _, err := vm.Run(p, fn, args, vm.Options{Features: levelFeatures(got)})
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Word != want[0].Word {
			t.Errorf("level %#x forced (%#x in effect): got %d, the VM %d", lvl, got, res[0].Word, want[0].Word)
		}
	}
	for hw, want := range map[string]uint64{"none": 103, "aes": 102, "ifma": 104} {
		if !cpuHas("avx512ifma") && hw == "ifma" {
			continue
		}
		r := runnerFor(t, p, hw)
		res, _, err := r.Run(fn.Name, args)
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Word != want {
			t.Errorf("--hw %s: %d, want %d", hw, res[0].Word, want)
		}
	}
}

// cpuHas reports whether /proc/cpuinfo lists flag.
func cpuHas(flag string) bool {
	b, _ := os.ReadFile("/proc/cpuinfo")
	return strings.Contains(string(b), " "+flag+" ") || strings.Contains(string(b), " "+flag+"\n")
}
