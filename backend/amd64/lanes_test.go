package amd64

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// TestPoly1305Lanes runs the Poly1305 and ChaCha20-Poly1305 golden cases
// around and past the eight lanes (poly1305.lw's update8) under --hw auto
// at the CPU's own level (the IFMA variant on a CPU with IFMA), at level 3
// without and with the IFMA flag, and under --hw ifma.
func TestPoly1305Lanes(t *testing.T) {
	ifma := cpuHas("avx512ifma") && cpuHas("avx512f")
	for _, mod := range []string{"poly1305", "chacha20poly1305"} {
		p := testprog.Stdlib(t, mod)
		var cases []golden.Case
		for _, c := range golden.Cases(golden.Seed(t)) {
			if c.Module == mod && (strings.Contains(c.Name, "/lanes/") || strings.Contains(c.Name, "/long/") ||
				strings.Contains(c.Name, "/ones") || strings.Contains(c.Name, "len=1000") || strings.Contains(c.Name, "len=257") ||
				strings.Contains(c.Name, "rfc8439")) {
				cases = append(cases, c)
			}
		}
		if len(cases) == 0 {
			t.Fatalf("no %s cases", mod)
		}
		if mod == "chacha20poly1305" {
			// 16 KiB + 3, which the shared suite leaves out (the 6502's
			// memory cannot hold it).
			rng := rand.New(rand.NewSource(golden.Seed(t)))
			rnd := func(n int) []byte {
				b := make([]byte, n)
				rng.Read(b)
				return b
			}
			cases = append(cases, golden.ChaChaPolySealCase("chacha20_poly1305_seal/lanes/aad=13/len=16387", rnd(32), rnd(12), rnd(13), rnd(16387)))
		}
		run := func(name string, r *Runner) {
			var ps golden.Programs
			for _, c := range cases {
				err := golden.RunCase(&ps, func(_ *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
					res, _, err := r.Run(fn.Name, args)
					return res, err
				}, c)
				if err != nil {
					t.Errorf("%s %s: %s: %v", mod, name, c.Name, err)
				}
			}
		}
		for _, lvl := range []int{-1, levelAVX512, levelAVX512 | levelIFMA, levelAES} {
			r, err := Prepare(input(p), backend.Options{HW: "auto"})
			if err != nil {
				t.Fatal(err)
			}
			name := "auto"
			if lvl >= 0 {
				got, err := r.ForceLevel(lvl)
				if err != nil {
					t.Fatal(err)
				}
				name = "auto forced to " + levelName(got)
				if lvl&levelIFMA != 0 && got&levelIFMA == 0 && ifma {
					t.Errorf("%s: forced %#x on a CPU with IFMA, got %#x", mod, lvl, got)
				}
			} else {
				lv, err := r.ForceLevel(levelAVX512 | levelFlags)
				if err != nil {
					t.Fatal(err)
				}
				if ifma != (lv&levelIFMA != 0) {
					t.Errorf("%s: the CPU's level %#x, /proc/cpuinfo avx512ifma %v", mod, lv, ifma)
				}
			}
			run(name, r)
			r.Close()
		}
		if ifma {
			run("--hw ifma", runnerFor(t, p, "ifma"))
		}
	}
}

func levelName(l int) string {
	s := []string{"0", "1", "2", "3"}[l&levelMask]
	if l&levelSHA != 0 {
		s += "+sha"
	}
	if l&levelIFMA != 0 {
		s += "+ifma"
	}
	return s
}

// TestPoly1305LanesSelected: under --hw auto, Poly1305's IFMA variant
// multiplies with VPMADD52LUQ/VPMADD52HUQ (two lane products of nine
// halves each way: the step's by r^8 and the last by r^8..r^1, each lane
// loop as two halves of four lanes, 72 in all, every accumulation folded
// in), all of them on ymm registers (a zmm VPMADD52 lowers the core's
// clock for what runs next to it: lanes52.go), splits the message
// blocks into even and odd words by shuffles and gathers nothing; the
// other variants have none of them.
func TestPoly1305LanesSelected(t *testing.T) {
	asm := disassemble(t, "poly1305", "auto")
	count := func(re string) int {
		return len(regexp.MustCompile(`(?m)^\s+[0-9a-f]+:\s+(`+re+`)\s`).FindAllString(asm, -1))
	}
	if n := count(`vpmadd52luq|vpmadd52huq`); n != 72 {
		t.Errorf("poly1305 --hw auto: %d VPMADD52LUQ/HUQ, want 72 (2 lane products x 2 halves x 18)", n)
	}
	if n := count(`(?:vpmadd52luq|vpmadd52huq)\s+%zmm\d+,%zmm\d+,%zmm\d+`); n != 0 {
		t.Errorf("poly1305 --hw auto: %d VPMADD52 on zmm registers, want none", n)
	}
	if n := count(`vpermt2q|vpermi2q|vpunpcklqdq|vpunpckhqdq`); n < 2 {
		t.Errorf("poly1305 --hw auto: %d two-source shuffles, want the blocks' splits", n)
	}
	if n := count(`vpgather\w+`); n != 0 {
		t.Errorf("poly1305 --hw auto: %d gathers", n)
	}
	if n := count(`vpmadd52luq|vpmadd52huq`); n > 0 {
		if m := strings.Count(disassemble(t, "poly1305", "aes"), "vpmadd52"); m != 0 {
			t.Errorf("poly1305 --hw aes: %d VPMADD52", m)
		}
	}
}

// TestLaneLoopsOnlyWhereSelected: the IR keeps the lane loops rolled
// (and so the lanes' rows, [40 x i64] tables of powers, in memory) only
// for a configuration that selects them: --hw none and aes compile the
// IR they did before the lanes, where the branch of `have ifma` left no
// array behind.
func TestLaneLoopsOnlyWhereSelected(t *testing.T) {
	p := testprog.Stdlib(t, "poly1305")
	for hw, want := range map[string]bool{"none": false, "aes": false, "auto": true} {
		ll, err := Compile(input(p), backend.Options{HW: hw, Emit: "ll"})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(ll), "alloca [40 x i64]"); got != want {
			t.Errorf("--hw %s: the lanes' tables in memory: %v, want %v", hw, got, want)
		}
	}
}
