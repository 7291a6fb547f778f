// Package golden is the standard library's golden suite: every stdlib export
// called on official test vectors and on random inputs of every block-edge
// length, each compared with Go's own crypto packages (or, for GHASH, a
// bit-by-bit reference written here from SP 800-38D).
//
// The suite is data: a list of Cases and a Runner-agnostic driver. The VM,
// the IR interpreter and every backend run the same cases by passing their
// own Runner:
//
//	golden.Run(t, myRunner, golden.Cases(seed))
package golden

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io/fs"
	"slices"
	"sync"
	"testing"

	"github.com/lowent/lowentc/driver"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib"
	"github.com/lowent/lowentc/vm"
)

// Runner calls the exported function fn of program p with args and returns
// its results. A mut argument's Elems must be updated in place, as vm.Run
// does.
type Runner func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error)

// VM is the Runner of the reference VM (no hardware features), the one
// every target's answers are compared with.
func VM(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
	res, _, err := vm.Run(p, fn, args, vm.Options{})
	return res, err
}

// Case is one call of a stdlib export and the outcome Go's reference expects.
type Case struct {
	Name   string              // unique within a suite, e.g. "sha256/len=55"
	Module string              // the stdlib module that exports the function, e.g. "sha256"
	Export string              // the exported function
	Bytes  int                 // total input bytes, for runners that must budget their time
	Args   func() []lang.Value // fresh arguments; mut outputs start zeroed or filled with a pattern
	Want   func() Expect       // the Go reference's answer
}

// Expect is the outcome of a call: the contents of some arguments after it,
// and the function's word results. Every argument not listed in Args must be
// left exactly as it was passed (inputs, and outputs that must stay
// untouched, like the plaintext of a failed GCM open).
type Expect struct {
	Args    map[int][]byte
	Words   map[int][]uint64 // arguments of wider words (a [25]u64 state), element by element
	Results []uint64
}

// Load loads and checks the stdlib module NAME as a root program, from the
// sources embedded in the stdlib package (the ones lowentc itself uses).
func Load(module string) (*lang.Program, error) {
	for _, p := range []string{module + ".lw", module + "/" + module + ".lw"} {
		src, err := fs.ReadFile(stdlib.FS, p)
		if err != nil {
			continue
		}
		prog, ds := driver.LoadSource("stdlib/"+p, src)
		if len(ds) > 0 {
			return nil, fmt.Errorf("loading stdlib module %s:\n%s", module, ds.Render(sourcesOf(prog, p, src)))
		}
		return prog, nil
	}
	return nil, fmt.Errorf("no stdlib module %s", module)
}

func sourcesOf(prog *lang.Program, name string, src []byte) lang.Sources {
	if prog != nil {
		return prog.Sources
	}
	// Diagnostics can point into imported stdlib files too: offer them all.
	s := lang.Sources{"stdlib/" + name: src}
	_ = fs.WalkDir(stdlib.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, err := fs.ReadFile(stdlib.FS, p); err == nil {
				s["stdlib/"+p] = b
			}
		}
		return nil
	})
	return s
}

// Programs caches loaded stdlib modules across the cases of a run.
type Programs struct {
	mu    sync.Mutex
	progs map[string]*lang.Program
	errs  map[string]error
}

// Get returns the loaded module, loading it on first use.
func (ps *Programs) Get(module string) (*lang.Program, error) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.progs == nil {
		ps.progs, ps.errs = map[string]*lang.Program{}, map[string]error{}
	}
	if p, ok := ps.progs[module]; ok {
		return p, ps.errs[module]
	}
	p, err := Load(module)
	ps.progs[module], ps.errs[module] = p, err
	return p, err
}

// Run runs every case as a subtest of t with runner.
func Run(t *testing.T, runner Runner, cases []Case) {
	t.Helper()
	var ps Programs
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if err := RunCase(&ps, runner, c); err != nil {
				t.Error(err)
			}
		})
	}
}

// RunCase runs one case and returns what went wrong, or nil.
func RunCase(ps *Programs, runner Runner, c Case) error {
	prog, err := ps.Get(c.Module)
	if err != nil {
		return err
	}
	fn := prog.Export(c.Export)
	if fn == nil {
		return fmt.Errorf("module %s has no export %s", c.Module, c.Export)
	}
	args := c.Args()
	before := make([][]uint64, len(args))
	for i, a := range args {
		before[i] = append([]uint64(nil), a.Elems...)
	}
	results, err := runner(prog, fn, args)
	if err != nil {
		return fmt.Errorf("%s.%s: %v", c.Module, c.Export, err)
	}
	want := c.Want()
	var msgs []string
	if len(results) != len(want.Results) {
		msgs = append(msgs, fmt.Sprintf("%d results, want %d", len(results), len(want.Results)))
	} else {
		for i, r := range results {
			if r.IsArray || r.Word != want.Results[i] {
				msgs = append(msgs, fmt.Sprintf("result %d = %+v, want word %#x", i, r, want.Results[i]))
			}
		}
	}
	for i, a := range args {
		name := paramName(fn, i)
		if w, ok := want.Words[i]; ok {
			if !slices.Equal(a.Elems, w) {
				msgs = append(msgs, fmt.Sprintf("%s =\n\t%#x\nwant\n\t%#x", name, a.Elems, w))
			}
			continue
		}
		if w, ok := want.Args[i]; ok {
			got, err := ToBytes(a)
			if err != nil {
				msgs = append(msgs, fmt.Sprintf("%s: %v", name, err))
			} else if !bytes.Equal(got, w) {
				msgs = append(msgs, fmt.Sprintf("%s =\n\t%s\nwant\n\t%s", name, hex.EncodeToString(got), hex.EncodeToString(w)))
			}
			continue
		}
		if !slices.Equal(a.Elems, before[i]) {
			msgs = append(msgs, fmt.Sprintf("%s was changed; it must be left untouched", name))
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	s := fmt.Sprintf("%s.%s:", c.Module, c.Export)
	for _, m := range msgs {
		s += "\n" + m
	}
	return fmt.Errorf("%s", s)
}

func paramName(fn *lang.FuncDecl, i int) string {
	if i < len(fn.Params) {
		return fn.Params[i].Name
	}
	return fmt.Sprintf("argument %d", i)
}

// Bytes is the lang.Value of a byte array or slice argument.
func Bytes(b []byte) lang.Value {
	e := make([]uint64, len(b))
	for i, x := range b {
		e[i] = uint64(x)
	}
	return lang.Value{Elems: e, IsArray: true}
}

// Words is the lang.Value of an array or slice argument of wider words.
func Words(w []uint64) lang.Value {
	return lang.Value{Elems: append([]uint64(nil), w...), IsArray: true}
}

// ToBytes reads back a byte array or slice value.
func ToBytes(v lang.Value) ([]byte, error) {
	if !v.IsArray {
		return nil, fmt.Errorf("not an array")
	}
	b := make([]byte, len(v.Elems))
	for i, e := range v.Elems {
		if e > 0xff {
			return nil, fmt.Errorf("element %d is %#x, not a byte", i, e)
		}
		b[i] = byte(e)
	}
	return b, nil
}
