package testprog

import (
	"strings"
	"testing"
)

// fakeT records a failure instead of ending the test.
type fakeT struct {
	testing.TB
	failed string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatal(args ...any) {
	f.failed = "fatal"
}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed = format
}

func TestSourceLoadsAndRefuses(t *testing.T) {
	p := Source(t, "t.lw", "module t\nexport fn f(x: u8) -> u8 effects none {\n    return x\n}\n")
	if p == nil || p.Root.Module != "t" {
		t.Fatalf("loaded %v", p)
	}
	ft := &fakeT{TB: t}
	Source(ft, "t.lw", "module t\nexport fn f(x: u8) -> u8 effects none {\n    return y\n}\n")
	if !strings.Contains(ft.failed, "load failed") {
		t.Errorf("a program with an error did not fail the test: %q", ft.failed)
	}
	ft = &fakeT{TB: t}
	Load(ft, "no/such/file.lw")
	if ft.failed == "" {
		t.Errorf("a missing file did not fail the test")
	}
}

func TestStdlib(t *testing.T) {
	if p := Stdlib(t, "sha256"); p.Root.Module != "sha256" {
		t.Errorf("loaded %s", p.Root.Module)
	}
	ft := &fakeT{TB: t}
	Stdlib(ft, "no_such_module")
	if ft.failed == "" {
		t.Errorf("a missing module did not fail the test")
	}
}
