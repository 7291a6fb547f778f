package amd64

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCPULevelQueries: a C program linked with sha256 --hw auto reads the
// level (0-3), the flags (0x100 exactly when /proc/cpuinfo lists sha_ni,
// 0x200 when it lists avx512ifma at level 3)
// and forces them down.
func TestCPULevelQueries(t *testing.T) {
	dir := buildLib(t, "sha256")
	src := `#include <stdio.h>
#include "sha256.h"
int main(void) {
	int level = lowentc_sha256_cpu_level(), flags = lowentc_sha256_cpu_flags();
	int f3 = lowentc_sha256_force_level(3);
	int after = lowentc_sha256_cpu_level() | lowentc_sha256_cpu_flags();
	int f1 = lowentc_sha256_force_level(0x101);
	printf("%d %d %d %d %d\n", level, flags, f3, after, f1);
	return 0;
}
`
	if err := os.WriteFile(filepath.Join(dir, "q.c"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "q")
	if out, err := exec.Command("gcc", "-O2", "-o", bin, filepath.Join(dir, "q.c"), "-L"+dir, "-lsha256").CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	var level, flags, f3, after, f1 int
	if _, err := fmt.Sscan(string(out), &level, &flags, &f3, &after, &f1); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	cpuinfo, _ := os.ReadFile("/proc/cpuinfo")
	sha := strings.Contains(string(cpuinfo), " sha_ni")
	aesni := strings.Contains(string(cpuinfo), " aes")
	t.Logf("level %d, flags %#x, force 3 -> %#x, force 0x101 -> %#x (cpuinfo sha_ni %v)", level, flags, f3, f1, sha)
	if level < 0 || level > 3 {
		t.Errorf("cpu_level %d, want 0-3", level)
	}
	ifma := strings.Contains(string(cpuinfo), " avx512ifma") && level == levelAVX512
	if (sha && aesni) != (flags&levelSHA != 0) || ifma != (flags&levelIFMA != 0) || flags&^levelFlags != 0 {
		t.Errorf("cpu_flags %#x with sha_ni %v and aes %v in /proc/cpuinfo", flags, sha, aesni)
	}
	if f3 != min(3, level) || after != f3 {
		t.Errorf("force_level(3) = %#x, then level|flags %#x; want %#x (no flag)", f3, after, min(3, level))
	}
	if want := min(1, level) | flags&levelSHA; f1 != want {
		t.Errorf("force_level(0x101) = %#x, want %#x", f1, want)
	}
}
