package lang

// Program is a checked set of modules: the file being compiled (Root) and
// every module it imports, directly or not.
type Program struct {
	Root    *File
	Files   []*File // every module, each after the modules it imports; Root last
	Sources Sources // file name -> text, for diagnostics
}

// Exports returns the root module's exported functions in source order.
func (p *Program) Exports() []*FuncDecl {
	var out []*FuncDecl
	for _, f := range p.Root.Funcs {
		if f.Export {
			out = append(out, f)
		}
	}
	return out
}

// Export returns the root module's exported function NAME, or nil.
func (p *Program) Export(name string) *FuncDecl {
	for _, f := range p.Exports() {
		if f.Name == name {
			return f
		}
	}
	return nil
}
