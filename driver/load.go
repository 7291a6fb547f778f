// Package driver loads a Lowent program: it parses the named file and every
// module it imports, orders them, and runs the checker. It is the front half
// shared by the command line, the tests and every backend.
package driver

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/parser"
	"github.com/lowent/lowentc/stdlib"
)

// MaxSourceSize bounds one source file (4 MiB), so that a stray binary or
// an endless device is refused quickly rather than parsed. The parser has
// its own bound on the number of tokens (parser.MaxTokens).
const MaxSourceSize = 4 << 20

// Load parses and checks the file at path and the modules it imports. A
// module NAME is NAME.lw beside the importing file, else the standard
// library's NAME.lw or NAME/NAME.lw. All diagnostics found are returned.
func Load(path string) (*lang.Program, lang.Diags) {
	src, err := readSource(path)
	if err != nil {
		var fe *FileError
		if errors.As(err, &fe) {
			return nil, lang.Diags{lang.Errorf(lang.Pos{File: path}, "%s", fe.Msg)}
		}
		return nil, lang.Diags{lang.Errorf(lang.Pos{File: path}, "%v", err)}
	}
	return LoadSource(path, src)
}

// LoadSource is Load for a root file whose text is already in memory.
func LoadSource(path string, src []byte) (*lang.Program, lang.Diags) {
	l := &loader{sources: lang.Sources{}, byModule: map[string]*lang.File{}, state: map[string]int{}}
	root := l.parse(path, src)
	if root == nil {
		return nil, l.finish()
	}
	l.visit(root, filepath.Dir(path))
	if len(l.diags) > 0 {
		return nil, l.finish()
	}
	if ds := lang.Check(l.order); len(ds) > 0 {
		l.diags = append(l.diags, ds...)
		return nil, l.finish()
	}
	return &lang.Program{Root: root, Files: l.order, Sources: l.sources}, nil
}

type loader struct {
	sources  lang.Sources
	byModule map[string]*lang.File
	state    map[string]int // module name -> 1 visiting, 2 done
	order    []*lang.File
	diags    lang.Diags
}

func (l *loader) finish() lang.Diags {
	l.diags.Sort()
	return l.diags
}

func (l *loader) parse(name string, src []byte) *lang.File {
	l.sources[name] = src
	f, ds := parser.ParseFile(name, src)
	l.diags = append(l.diags, ds...)
	return f
}

// visit loads f's imports depth-first, then appends f, so every module comes
// after the modules it imports. An import cycle is reported at the import
// that closes it.
func (l *loader) visit(f *lang.File, dir string) {
	if other, ok := l.byModule[f.Module]; ok && other != f {
		l.diags = append(l.diags, lang.Errorf(f.Pos, "module %s is also defined at %s", f.Module, other.Pos))
		return
	}
	l.byModule[f.Module] = f
	l.state[f.Module] = 1
	for _, imp := range f.Imports {
		switch l.state[imp.Name] {
		case 1:
			l.diags = append(l.diags, lang.Errorf(imp.Pos, "import cycle: module %s imports %s, which imports it back", f.Module, imp.Name))
			continue
		case 2:
			continue
		}
		name, src, err := l.find(imp.Name, dir)
		if err != nil {
			l.diags = append(l.diags, lang.Errorf(imp.Pos, "%v", err))
			continue
		}
		g := l.parse(name, src)
		if g == nil {
			continue
		}
		if g.Module != imp.Name {
			l.diags = append(l.diags, lang.Errorf(g.Pos, "file %s declares module %s, but it was imported as %s", name, g.Module, imp.Name))
			continue
		}
		l.visit(g, filepath.Dir(name))
	}
	l.state[f.Module] = 2
	l.order = append(l.order, f)
}

// find locates module NAME: beside the importer first, then in the stdlib.
// Stdlib files are named "stdlib/..." in positions.
func (l *loader) find(name, dir string) (string, []byte, error) {
	if !validModuleName(name) {
		return "", nil, errorf("invalid module name %q", name)
	}
	for _, p := range []string{filepath.Join(dir, name+".lw"), filepath.Join(dir, name, name+".lw")} {
		if src, err := readSource(p); err == nil {
			return p, src, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", nil, err
		}
	}
	for _, p := range []string{name + ".lw", name + "/" + name + ".lw"} {
		if src, err := fs.ReadFile(stdlib.FS, p); err == nil {
			return "stdlib/" + p, src, nil
		}
	}
	return "", nil, errorf("module %s not found (looked for %s.lw beside the importing file and in the standard library)", name, name)
}

func validModuleName(s string) bool {
	if s == "" {
		return false
	}
	return !strings.ContainsAny(s, "/\\.")
}

// readSource reads a source file, refusing a directory and anything longer
// than MaxSourceSize. It reads through a limit, so that a device or a pipe
// that never ends (/dev/zero) is refused at the limit too. The error names
// the file: "PATH: reason".
func readSource(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fileError(path, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, &FileError{Path: path, Msg: "is a directory, not a .lw file"}
	}
	src, err := io.ReadAll(io.LimitReader(f, MaxSourceSize+1))
	if err != nil {
		return nil, fileError(path, err)
	}
	if len(src) > MaxSourceSize {
		return nil, &FileError{Path: path, Msg: fmt.Sprintf("larger than %d bytes (the limit of a source file)", MaxSourceSize)}
	}
	return src, nil
}

// FileError is a problem with a file as a whole (missing, unreadable, a
// directory, too large): it has no line to point at.
type FileError struct {
	Path string
	Msg  string
	Err  error // the underlying error, if any (fs.ErrNotExist, ...)
}

func (e *FileError) Error() string { return e.Path + ": " + e.Msg }
func (e *FileError) Unwrap() error { return e.Err }

func fileError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &FileError{Path: path, Msg: pe.Err.Error(), Err: pe.Err}
	}
	return &FileError{Path: path, Msg: err.Error(), Err: err}
}

// ReadSourceText returns the text of a file named in a position: a file on
// disk, or a "stdlib/..." module compiled into lowentc.
func ReadSourceText(name string) ([]byte, error) {
	if p, ok := strings.CutPrefix(name, "stdlib/"); ok {
		if src, err := fs.ReadFile(stdlib.FS, p); err == nil {
			return src, nil
		}
	}
	return readSource(name)
}
