package amd64

import (
	"regexp"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
)

// TestSHA512VectorSchedule: under --hw auto the AVX-512 and AVX2 variants
// of stdlib/sha512.lw compute the message schedule in vector registers
// (sha512.lw stages W+K in a word buffer, wordbuf.go pairs its words), so
// the window no longer spills: at most 150 spill and reload lines and
// 6,000 instructions for the function's two inlined copies of compress
// (the scalar schedule had about 1,000 and 7,200), and at least 300
// vector instructions.
func TestSHA512VectorSchedule(t *testing.T) {
	p := testprog.Load(t, "../../stdlib/sha512.lw")
	asm, err := Compile(input(p), backend.Options{Emit: "asm", HW: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"avx512", "avx2"} {
		body := regexp.MustCompile(`(?s)\nlowentc_sha512_sha512\.` + v + `:(.*?)\.Lfunc_end`).FindStringSubmatch(string(asm))
		if body == nil {
			t.Fatalf("no %s variant of sha512 in the assembly", v)
		}
		n, spills, vec := 0, 0, 0
		for _, line := range strings.Split(body[1], "\n") {
			if !strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "\t.") || strings.HasPrefix(line, "\t#") {
				continue
			}
			n++
			if strings.Contains(line, "Spill") || strings.Contains(line, "Reload") {
				spills++
			}
			if strings.Contains(line, "mm") {
				vec++
			}
		}
		if spills > 150 || n > 6000 || vec < 300 {
			t.Errorf("sha512.%s: %d instructions, %d spill and reload lines, %d vector instructions; want at most 6000, 150 and at least 300", v, n, spills, vec)
		}
	}
}
