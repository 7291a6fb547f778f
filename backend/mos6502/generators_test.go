package mos6502

import (
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/ir"
)

// The files of each code generator (module.go's codeGen); every other
// file of the package is shared by both, and so are the declarations of
// gen.go and alloc.go other than fgen and its methods (the ABI types,
// arrInfo, the liveness).
var (
	byteGenFiles = []string{"gen.go", "ops.go", "mem.go", "control.go", "rotate.go", "addr.go", "alloc.go",
		"schedule.go", "linear.go", "linmap.go", "tabbuild.go", "peep.go"}
	sizeGenFiles = []string{"wide.go", "wide_ops.go", "wide_interp.go", "wide_helpers.go"}
	mixedFiles   = map[string]bool{"gen.go": true, "alloc.go": true}
)

// TestGeneratorsApart: the byte generator and the size interpreter use
// only their own declarations and the shared ones, never each other's: a
// name one of them declares is not used in the other's files.
func TestGeneratorsApart(t *testing.T) {
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	for _, want := range append(append([]string(nil), byteGenFiles...), sizeGenFiles...) {
		if _, err := os.Stat(want); err != nil {
			t.Errorf("%s: %v (the lists of each generator's files are out of date)", want, err)
		}
	}
	// The package's own names are all this needs: its imports are not
	// read (their errors are ignored), so the check takes milliseconds.
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: fakeImporter{}, Error: func(error) {}}
	pkg, _ := conf.Check("mos6502", fset, files, info)
	group := map[string]string{}
	for _, f := range byteGenFiles {
		group[f] = "the byte generator"
	}
	for _, f := range sizeGenFiles {
		group[f] = "the size interpreter"
	}
	// owner is the generator a position's top-level declaration belongs
	// to, "" for a shared one.
	type span struct {
		from, to token.Pos
		owner    string
	}
	var spans []span
	for _, f := range files {
		name := filepath.Base(fset.Position(f.Pos()).Filename)
		for _, d := range f.Decls {
			owner := group[name]
			if mixedFiles[name] && !declaresFgen(d) {
				owner = ""
			}
			spans = append(spans, span{d.Pos(), d.End(), owner})
		}
	}
	owner := func(p token.Pos) string {
		for _, s := range spans {
			if s.from <= p && p < s.to {
				return s.owner
			}
		}
		return ""
	}
	if owner(token.NoPos) != "" {
		t.Fatal("no position")
	}
	var bad []string
	for id, obj := range info.Uses {
		if obj == nil || obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		if gu, gd := owner(id.Pos()), owner(obj.Pos()); gu != "" && gd != "" && gu != gd {
			bad = append(bad, fmt.Sprintf("%s: %s, declared at %s (%s), used in %s", fset.Position(id.Pos()), id.Name, fset.Position(obj.Pos()), gd, gu))
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// declaresFgen reports whether d is the byte generator's function state
// fgen or one of its methods.
func declaresFgen(d ast.Decl) bool {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil && len(d.Recv.List) == 1 {
			if star, ok := d.Recv.List[0].Type.(*ast.StarExpr); ok {
				if id, ok := star.X.(*ast.Ident); ok {
					return id.Name == "fgen"
				}
			}
		}
	case *ast.GenDecl:
		for _, sp := range d.Specs {
			if ts, ok := sp.(*ast.TypeSpec); ok && ts.Name.Name == "fgen" {
				return true
			}
		}
	}
	return false
}

// fakeImporter gives every import an empty package.
type fakeImporter struct{}

func (fakeImporter) Import(path string) (*types.Package, error) {
	if p, err := importer.Default().Import(path); err == nil && !strings.Contains(path, ".") {
		return p, nil // the standard library, when its export data is at hand
	}
	p := types.NewPackage(path, filepath.Base(path))
	p.MarkComplete()
	return p, nil
}

// generatorsSrc has a call the plan below keeps (no inlining).
const generatorsSrc = `module m
fn g(x: u64) -> u64 {
    return x * 3 + 1
}
export fn f(x: u64) -> u64 effects none {
    return g(x) ^ g(x + 1)
}
`

// generatorsModule is generatorsSrc at width w, with calls kept.
func generatorsModule(t *testing.T, w int) *ir.Module {
	p := testprog.Source(t, "m.lw", generatorsSrc)
	m, err := input(p).Module(config{w: w, inline: 1}.plan())
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Funcs) < 2 {
		t.Fatalf("the call of g was inlined:\n%s", m)
	}
	return m
}

// TestGeneratorBugIsAnError: an inconsistency in either generator's input
// (here a callee generated after its caller, so its frame is unknown at
// the call) is an internal error, not a Go panic (the size interpreter
// let it through as a panic).
func TestGeneratorBugIsAnError(t *testing.T) {
	for _, w := range []int{8, wideW} {
		m := generatorsModule(t, w)
		slices.Reverse(m.Funcs) // f before g
		_, _, _, err := generate(m, layout{org: runOrg, size: w == wideW}, nil)
		if err == nil || !strings.Contains(err.Error(), "mos6502: internal error:") {
			t.Errorf("W=%d: %v, want an internal error", w, err)
		}
	}
}

// TestSizeUnsupportedIsAnError: a construct the size interpreter does not
// handle is recorded as a fitError, the first one kept, and generation
// stops there; no panic carries it.
func TestSizeUnsupportedIsAnError(t *testing.T) {
	m := generatorsModule(t, wideW)
	w := newWmod(newModgen(m, layout{org: runOrg, size: true}))
	g := &wgen{w: w, f: m.Funcs[0], a: &w.code}
	g.log2(16)
	g.unsupported(&ir.Instr{Op: ir.OpFor})
	var fe *fitError
	if !errors.As(w.err, &fe) || !strings.Contains(fe.Error(), "size generator: element of 16 bytes") {
		t.Fatalf("recorded %v, want the 16-byte element", w.err)
	}
	before := len(w.code.lines)
	g.block(m.Funcs[0].Body)
	if len(w.code.lines) != before {
		t.Errorf("%d lines emitted after the refusal", len(w.code.lines)-before)
	}
	if _, _, _, err := generateWith(w.modgen, refusing{w}, nil); !errors.As(err, &fe) {
		t.Errorf("generate: %v, want the fitError", err)
	}
}

// refusing is a codeGen whose every function is refused as w's was.
type refusing struct{ w *wmod }

func (r refusing) genFunc(*ir.Function, map[string]bool) (*funcABI, error) { return nil, r.w.err }
func (r refusing) assemble() string                                        { return "" }
