package jcvm

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/internal/tools"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// convKey names one converted stdlib module.
type convKey struct {
	mod   string
	noInt bool
}

type converted struct {
	jca string
	err error
}

var (
	convOnce sync.Once
	convDir  string
	convJCA  = map[convKey]*converted{}
)

// convertStdlib converts every stdlib module at both widths through the
// kit, once per test binary, two conversions at a time.
func convertStdlib(t *testing.T) map[convKey]*converted {
	kit := tools.JavaCardKit(t)
	convOnce.Do(func() {
		for _, tool := range []string{"javac", "java"} {
			if _, err := exec.LookPath(tool); err != nil {
				t.Fatalf("%s not found: the converter route needs a JDK", tool)
			}
		}
		dir, err := os.MkdirTemp("", "lowent-jcconv")
		if err != nil {
			t.Fatal(err)
		}
		convDir = dir
		var keys []convKey
		for _, noInt := range []bool{false, true} {
			for _, mod := range stdlibModules {
				k := convKey{mod, noInt}
				keys = append(keys, k)
				convJCA[k] = &converted{}
			}
		}
		start := time.Now()
		work := make(chan convKey)
		var wg sync.WaitGroup
		for range min(2, runtime.NumCPU()) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := range work {
					c := convJCA[k]

					cls, err := stdlibClassErr(k.mod, backend.Options{NoInt: k.noInt})
					if err != nil {
						c.err = err
						continue
					}

					// The CAP of TestCAPJavaRoute: one conversion
					// per module and width in the test binary.
					capc, err := stdlibCAPErr(kit, k.mod, k.noInt, "java")
					if err != nil {
						c.err = fmt.Errorf("%s (W=%d): %v", k.mod, cls.W, err)
						continue
					}
					c.jca = capc.JCA
				}
			}()
		}
		for _, k := range keys {
			work <- k
		}
		close(work)
		wg.Wait()
		t.Logf("converted %d modules in %v", len(keys), time.Since(start).Round(time.Millisecond))
	})
	if convDir == "" {
		t.Fatal("the stdlib's conversion did not run")
	}
	return convJCA
}

// loadConverted parses and loads the converter's .jca of cls's module;
// the exports are matched by name and descriptor with cls's.
func loadConverted(jca string, cls *Class) (*Class, error) {
	f, err := parseJCA(jca)
	if err != nil {
		return nil, err
	}
	loaded, err := loadJCA(f, cls.W)
	if err != nil {
		return nil, err
	}
	if loaded.Name != cls.Name || loaded.Carry == nil {
		return nil, fmt.Errorf("the converter's .jca holds class %s (carry field: %v), want %s", loaded.Name, loaded.Carry != nil, cls.Name)
	}
	for _, e := range cls.Exports {
		var m *Method
		for _, lm := range loaded.Methods {
			if lm.Name == e.Method.Name && descriptor(lm) == descriptor(e.Method) {
				m = lm
			}
		}
		if m == nil || !m.Export {
			return nil, fmt.Errorf("the converter's .jca has no public method %s%s", e.Method.Name, descriptor(e.Method))
		}
		loaded.Exports = append(loaded.Exports, &Export{Name: e.Name, Method: m, Fn: e.Fn})
	}
	return loaded, nil
}

// mainExports is each stdlib module's export timed per block, and the
// block's bytes (fed to its last slice parameter, as bench --block does).
var mainExports = map[string]struct {
	export string
	block  int
}{
	"sha256": {"sha256", 64}, "blake2b": {"blake2b", 128}, "ghash": {"ghash", 16},
	"aes": {"aes128_ctr", 16}, "gcm": {"aes128_gcm_seal", 16}, "sha512": {"sha512", 128},
	"sha3": {"sha3_256", 136}, "chacha20": {"chacha20_xor", 64}, "poly1305": {"poly1305", 16},
	"chacha20poly1305": {"chacha20_poly1305_seal", 64},
}

// TestGoldenConverterJCA runs the whole golden suite on the bytecode the
// Java Card 3.0.5 converter makes of every stdlib module's --emit
// javacard tree, at both widths: javac --release 7, the converter (-i
// with int) with -out CAP JCA, the .jca parsed and loaded into the
// simulator. It logs, per module and width, the modeled jcop4 ms per block
// of the main export (Measure's figure for 2 blocks less the one for 1)
// on the converter's bytecode and on the backend's own.
func TestGoldenConverterJCA(t *testing.T) {
	conv := convertStdlib(t)
	cases := golden.Cases(golden.Seed(t))
	for _, noInt := range []bool{false, true} {
		opts := backend.Options{NoInt: noInt}
		t.Run(fmt.Sprintf("noint=%v", noInt), func(t *testing.T) {
			type loaded struct {
				cls *Class
				sim *Sim
				err error
			}
			var mu sync.Mutex
			byProg := map[*lang.Program]*loaded{}
			run := func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
				mu.Lock()
				defer mu.Unlock()
				l, ok := byProg[p]
				if !ok {
					l = &loaded{}
					byProg[p] = l
					cls, err := classOf(p, opts)
					c := conv[convKey{p.Root.Module, noInt}]
					switch {
					case err != nil:
						l.err = err
					case c == nil:
						l.err = fmt.Errorf("module %s was not converted", p.Root.Module)
					case c.err != nil:
						l.err = c.err
					default:
						if l.cls, l.err = loadConverted(c.jca, cls); l.err == nil {
							l.sim = newSim(l.cls)
						}
					}
				}
				if l.err != nil {
					return nil, l.err
				}
				exp := exportOf(l.cls, fn.Name)
				if exp == nil {
					return nil, fmt.Errorf("no export %s in the converter's .jca", fn.Name)
				}
				return simCall(l.sim, l.cls, exp, args)
			}
			golden.Run(t, run, cases)
			for _, mod := range stdlibModules {
				c := conv[convKey{mod, noInt}]
				if c.err != nil {
					t.Errorf("%s: %v", mod, c.err)
					continue
				}
				own := stdlibClass(t, mod, opts)
				cj, err := loadConverted(c.jca, own)
				if err != nil {
					t.Errorf("%s: %v", mod, err)
					continue
				}
				me := mainExports[mod]
				fn := testprog.Stdlib(t, mod).Export(me.export)
				var per [2]float64
				for i, cls := range []*Class{cj, own} {
					r := &Runner{cls: cls, sim: newSim(cls), card: Cards["jcop4"]}
					per[i] = perBlockMs(t, r, fn, me.block)
				}
				t.Logf("%-16s W=%d %s per %d-byte block: converter %.3f ms, backend %.3f ms (converter/backend %.3f)",
					mod, own.W, me.export, me.block, per[0], per[1], per[0]/per[1])
			}
		})
	}
}

// perBlockMs is the modeled ms of fn for 2 blocks of block bytes less
// the one for 1 block, each through Runner.Measure (bench's path).
func perBlockMs(t *testing.T, r *Runner, fn *lang.FuncDecl, block int) float64 {
	t.Helper()
	var ms [2]float64
	for i := range ms {
		args := benchArgs(fn, (i+1)*block, rand.New(rand.NewSource(1)))
		c, err := r.Measure(fn.Name, args)
		if err != nil {
			t.Fatalf("%s, %d blocks: %v", fn.Name, i+1, err)
		}
		ms[i] = c.Value
	}
	return ms[1] - ms[0]
}
