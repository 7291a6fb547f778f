package jcvm

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/tools"
)

// capKey names one CAP of a stdlib module.
type capKey struct {
	mod   string
	noInt bool
	route string
}

type capBuilt struct {
	once sync.Once
	cap  *CAP
	err  error
}

var (
	capMu    sync.Mutex
	capCache = map[capKey]*capBuilt{}
)

// stdlibCAP is the verified CAP of stdlib module mod by route, built once
// per test binary with the kit of the tools' directory: the tests that
// read a CAP or the converter's .jca share it.
func stdlibCAP(t testing.TB, mod string, noInt bool, route string) *CAP {
	t.Helper()
	c, err := stdlibCAPErr(tools.JavaCardKit(t), mod, noInt, route)
	if err != nil {
		t.Fatalf("%s (no-int %v) by route %s: %v", mod, noInt, route, err)
	}
	return c
}

// stdlibCAPErr is stdlibCAP with the kit at home, returning the error.
func stdlibCAPErr(home, mod string, noInt bool, route string) (*CAP, error) {
	kit := &Kit{Home: home}
	capMu.Lock()
	b := capCache[capKey{mod, noInt, route}]
	if b == nil {
		b = &capBuilt{}
		capCache[capKey{mod, noInt, route}] = b
	}
	capMu.Unlock()
	b.once.Do(func() {
		cls, err := stdlibClassErr(mod, backend.Options{NoInt: noInt})
		if err != nil {
			b.err = err
			return
		}
		aids := DefaultAIDs(cls.Name)
		if b.cap, b.err = buildCAP(kit, cls, aids, route); b.err == nil {
			b.err = kit.Verify(b.cap)
		}
	})
	return b.cap, b.err
}

// TestCAPJavaRoute builds the CAP of every stdlib module at both widths by
// the java route (javac --release 7, the kit's converter: 0 errors) and
// requires the off-card verifier's "0 warnings and 0 errors"; the Method
// component fits the compact CAP's 65,535 bytes.
func TestCAPJavaRoute(t *testing.T) {
	for _, noInt := range []bool{false, true} {
		for _, mod := range stdlibModules {
			t.Run(fmt.Sprintf("%s/noint=%v", mod, noInt), func(t *testing.T) {
				t.Parallel()
				c := stdlibCAP(t, mod, noInt, "java")
				if c.Verifier != "0 warnings and 0 errors" {
					t.Fatalf("verifier: %q", c.Verifier)
				}
				sz, err := capComponents(c.Data)
				if err != nil {
					t.Fatal(err)
				}
				if sz.Method > 65535 {
					t.Errorf("Method component %d bytes, over 65,535", sz.Method)
				}
				if !strings.Contains(c.JCA, ".class public final "+className(mod)+" ") {
					t.Errorf("the converter's .jca has no library class %s", className(mod))
				}
				t.Logf("CAP %d bytes, Method component %d, constant pool %d, static fields %d; verifier: %s", sz.File, sz.Method, sz.ConstantPool, sz.StaticField, c.Verifier)
			})
		}
	}
}

// TestFindKit: without --jc-home and JC_HOME the error says what to set;
// a directory that is not a kit is named with what it lacks.
func TestFindKit(t *testing.T) {
	t.Setenv(KitEnv, "")
	if _, err := FindKit(""); err == nil || !strings.Contains(err.Error(), "--jc-home") || !strings.Contains(err.Error(), "JC_HOME") {
		t.Errorf("no kit: %v", err)
	}
	dir := t.TempDir()
	if _, err := FindKit(dir); err == nil || !strings.Contains(err.Error(), "lib/api_classic.jar") {
		t.Errorf("not a kit: %v", err)
	}
	t.Setenv(KitEnv, tools.JavaCardKit(t))
	k, err := FindKit("")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(k.Home); err != nil {
		t.Fatal(err)
	}
}
