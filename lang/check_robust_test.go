package lang_test

import (
	"io/fs"
	"math/rand"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/parser"
	"github.com/lowent/lowentc/stdlib"
)

// checkInvariants verifies what a checked, error-free program promises to
// the stages after the checker: every expression typed (never untyped),
// every name and call resolved, every symbol numbered.
func checkInvariants(t *testing.T, files []*lang.File) {
	t.Helper()
	for _, file := range files {
		for _, d := range file.Consts {
			if d.Type == nil || d.Val == nil {
				t.Errorf("%s: const %s not evaluated", d.Pos, d.Name)
			}
		}
		for _, f := range file.Funcs {
			for i, s := range f.Locals {
				if s.Slot != i || s.Type == nil {
					t.Errorf("%s: local %s slot %d type %v", f.Name, s.Name, s.Slot, s.Type)
				}
			}
			for _, p := range f.Params {
				if p.Type == nil || p.Sym == nil || p.Sym.Type != p.Type {
					t.Errorf("%s: param %s unresolved", f.Name, p.Name)
				}
			}
			if len(f.ResultTypes) != len(f.Results) && !(len(f.Results) == 1 && f.Results[0].Tuple != nil) {
				t.Errorf("%s: results %v", f.Name, f.ResultTypes)
			}
			walk(f, func(e lang.Expr) {
				switch x := e.(type) {
				case *lang.CallExpr:
					if (x.Func == nil) == (x.Builtin == nil) {
						t.Errorf("%s: call %s unresolved", x.Pos, x.Name)
					}
					if x.Type() == nil && x.Func != nil && len(x.Func.ResultTypes) == 0 {
						return // a call statement with no result
					}
					if x.Type() == nil && x.Builtin != nil && (x.Builtin.ID == lang.BStore || x.Builtin.ID == lang.BUncheckedSet || x.Builtin.ID == lang.BTrace) {
						return
					}
				case *lang.Ident:
					if x.Sym == nil && x.Name != "_" {
						t.Errorf("%s: %s unresolved", x.Pos, x.Name)
					}
					if x.Name == "_" {
						return
					}
				}
				if e.Type() == nil || e.Type() == lang.Untyped {
					t.Errorf("%s: expression %T has type %v", e.Position(), e, e.Type())
				}
			}, func(s lang.Stmt) {
				switch s := s.(type) {
				case *lang.LetStmt:
					if len(s.Syms) != len(s.Names) {
						t.Errorf("%s: let symbols %d for %d names", s.Pos, len(s.Syms), len(s.Names))
					}
				case *lang.ForStmt:
					if s.Sym == nil || s.Sym.Type == nil {
						t.Errorf("%s: loop index unresolved", s.Pos)
					}
				case *lang.ForChunksStmt:
					if len(s.VarSyms) != len(s.Vars) || s.SizeVal <= 0 || (s.Index != "") != (s.IndexSym != nil) {
						t.Errorf("%s: chunk loop unresolved", s.Pos)
					}
				}
			})
		}
	}
}

// stdlibFiles parses every standard library module, each after its imports.
func stdlibFiles(t *testing.T) []*lang.File {
	t.Helper()
	var pending []*lang.File
	err := fs.WalkDir(stdlib.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(p, ".lw") {
			return err
		}
		src, err := fs.ReadFile(stdlib.FS, p)
		if err != nil {
			return err
		}
		f, ds := parser.ParseFile(p, src)
		if ds != nil {
			t.Fatalf("parse %s:\n%s", p, ds.Render(nil))
		}
		pending = append(pending, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var order []*lang.File
	done := map[string]bool{}
	for len(pending) > 0 {
		var rest []*lang.File
		for _, f := range pending {
			ready := true
			for _, imp := range f.Imports {
				ready = ready && done[imp.Name]
			}
			if ready {
				order = append(order, f)
				done[f.Module] = true
			} else {
				rest = append(rest, f)
			}
		}
		if len(rest) == len(pending) {
			t.Fatalf("stdlib imports do not resolve")
		}
		pending = rest
	}
	return order
}

// TestStdlib: the standard library checks cleanly and every function in it
// is effect-free with no run-time check left, as its exports declare.
func TestStdlib(t *testing.T) {
	files := stdlibFiles(t)
	if ds := lang.Check(files); len(ds) > 0 {
		t.Fatalf("stdlib:\n%s", ds.Render(nil))
	}
	checkInvariants(t, files)
	for _, f := range files {
		for _, fn := range f.Funcs {
			if fn.Export && (fn.Effects == nil || fn.Effects.Set != 0 || fn.Inferred != 0) {
				t.Errorf("%s: export not effects none", fn.QualName())
			}
		}
	}
}

// TestAcceptedInvariants re-checks the accepted programs for the invariants.
func TestAcceptedInvariants(t *testing.T) {
	for name, src := range acceptedPrograms {
		t.Run(name, func(t *testing.T) { checkInvariants(t, mustCheck(t, src)) })
	}
}

var tokenRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*|0x[0-9a-fA-F_]+|[0-9][0-9_]*|"[^"]*"|<<<=?|>>>=?|<<=?|>>=?|[-+*/%&|^=!<>]=|&&|\|\||->|\.\.|\S`)

// TestMutantsDoNotPanic checks thousands of small mutations of valid
// programs: whatever parses must check without panicking, and a program
// the checker accepts must satisfy the invariants.
func TestMutantsDoNotPanic(t *testing.T) {
	var seeds []string
	for _, src := range acceptedPrograms {
		seeds = append(seeds, src)
	}
	for _, f := range stdlibFiles(t) {
		if len(f.Imports) == 0 {
			seeds = append(seeds, string(f.Src))
		}
	}
	extra := []string{"u8", "u64", "bool", "mut", "0", "300", "65536", "(", ")", "[", "]", ",", "+", "<<<",
		"let", "var", "_", "len", "rest", "x", "true", "as", "return", "absorb", "unsafe", "trap", "==", "{", "}"}
	tokens := make([][][]int, len(seeds))
	for i, src := range seeds {
		tokens[i] = tokenRE.FindAllStringIndex(src, -1)
	}
	rng := rand.New(rand.NewSource(1))
	parsed, accepted := 0, 0
	n := 2000
	if testing.Short() {
		n = 500
	}
	for i := 0; i < n; i++ {
		k := rng.Intn(len(seeds))
		src, locs := seeds[k], tokens[k]
		// One or two edits, applied right to left so that the token
		// offsets stay valid.
		picks := []int{rng.Intn(len(locs))}
		if rng.Intn(3) == 0 {
			picks = append(picks, rng.Intn(len(locs)))
		}
		sort.Sort(sort.Reverse(sort.IntSlice(picks)))
		for j, p := range picks {
			if j > 0 && p == picks[j-1] {
				continue
			}
			l := locs[p]
			var repl string
			switch rng.Intn(3) {
			case 0: // delete
			case 1: // replace with another token of the program
				m := locs[rng.Intn(len(locs))]
				repl = seeds[k][m[0]:m[1]]
			case 2:
				repl = extra[rng.Intn(len(extra))]
			}
			src = src[:l[0]] + " " + repl + " " + src[l[1]:]
		}
		f, ds := parser.ParseFile("m.lw", []byte(src))
		if ds != nil {
			continue
		}
		parsed++
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic %v on:\n%s", r, src)
				}
			}()
			if len(lang.Check([]*lang.File{f})) == 0 {
				accepted++
				checkInvariants(t, []*lang.File{f})
			}
		}()
	}
	t.Logf("%d mutants parsed, %d accepted", parsed, accepted)
	if parsed < n/10 {
		t.Errorf("only %d of %d mutants parsed: the test exercises too little", parsed, n)
	}
}
