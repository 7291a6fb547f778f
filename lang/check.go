package lang

// Check resolves names, checks types, evaluates constants, infers effects and
// features, and discharges requires/bounds for files given in dependency order
// (every module after the modules it imports). It fills every field marked
// "set by the checker" in ast.go and returns all diagnostics found (never stops at the first; never panics).
func Check(files []*File) Diags {
	c := &checker{
		mods:       map[string]*module{},
		infos:      map[*FuncDecl]*funcInfo{},
		constState: map[*ConstDecl]uint8{},
		constMod:   map[*ConstDecl]*module{},
		untyped:    map[Expr]*untypedVal{},
		symIDs:     map[*Symbol]int{},
		constMemo:  map[Expr]constResult{},
		viewSrc:    map[*Symbol]Expr{},
	}
	c.collectModules(files)
	c.checkConsts()
	c.checkSignatures()
	c.checkBodies()
	c.checkRecursion()
	c.inferEffects()
	c.diags.Sort()
	return c.diags
}

// The checker runs in phases, each over every module in dependency order:
//
//  1. collectModules: module names, imports, top-level names (scopes);
//  2. checkConsts: constant types and values (lazily, so order within and
//     across modules does not matter; cycles are errors);
//  3. checkSignatures: parameter and result types, requires (validated and
//     turned into facts for the bounds analysis), declared effects;
//  4. checkBodies: statements and expressions, types, bounds, requires at
//     call sites, and the effect sites and call edges of every function;
//  5. checkRecursion: call cycles;
//  6. inferEffects: effects and features bottom-up to a fixpoint, absorb
//     blocks, declared effect sets.
type checker struct {
	diags Diags
	mods  map[string]*module
	order []*module
	funcs []*funcInfo // every function, in file and source order
	infos map[*FuncDecl]*funcInfo

	constState map[*ConstDecl]uint8
	constMod   map[*ConstDecl]*module
	constStack []*ConstDecl

	// untyped holds, for every expression checked as an untyped constant,
	// its exact value (nil when the value depends on the width it will get).
	untyped map[Expr]*untypedVal
	symIDs  map[*Symbol]int
	// constMemo remembers constEval's definite answers.
	constMemo map[Expr]constResult
	// viewSrc maps a chunk view to its source expression, for alias checks.
	viewSrc map[*Symbol]Expr

	// The context of the code being checked.
	mod        *module
	cur        *funcInfo // nil outside function bodies and signatures
	scopes     []map[string]*Symbol
	absorbs    []*absorbInfo
	inRequires bool // checking a requires condition: no effect sites
}

// module is one checked file: its name, top-level names and imports.
type module struct {
	name    string
	file    *File
	scope   map[string]*Symbol
	imports map[string]*module
}

// funcInfo is what the checker knows about one function.
type funcInfo struct {
	decl  *FuncDecl
	mod   *module
	scope map[string]*Symbol // parameters; the body's outermost block shares it

	sites   []*site
	absorbs []*absorbInfo
	calls   []callEdge

	// Facts for the bounds analysis: ranges of immutable words (let-bound,
	// loop indices, parameters bounded by requires), loop indices bounded
	// by a length, equal-length classes of slices, and the canonical forms
	// of the requires conjuncts.
	ranges  map[*Symbol]interval
	loopLen map[*Symbol]string
	lenRep  map[*Symbol]*Symbol
	facts   map[string]bool

	reqBroken bool // a requires condition has an error: call sites skip them
	// hadErrors: an error was reported in this function; tainted: here or
	// in a callee. Errors drop effect sites, so an absorb in a tainted
	// function is not blamed for listing an effect its body lacks.
	hadErrors, tainted bool
}

type callEdge struct {
	callee *FuncDecl
	pos    Pos
	name   string // as written at the call
}

const (
	constBusy = 1
	constDone = 2
)

func (c *checker) errorf(p Pos, format string, args ...any) *Diag {
	d := Errorf(p, format, args...)
	c.diags = append(c.diags, d)
	if c.cur != nil {
		c.cur.hadErrors = true
	}
	return d
}

// symID numbers symbols for canonical keys of the bounds analysis.
func (c *checker) symID(s *Symbol) int {
	id, ok := c.symIDs[s]
	if !ok {
		id = len(c.symIDs) + 1
		c.symIDs[s] = id
	}
	return id
}

// ---------------------------------------------------------------- modules

func (c *checker) collectModules(files []*File) {
	for _, f := range files {
		if f == nil {
			continue
		}
		m := &module{name: f.Module, file: f, scope: map[string]*Symbol{}, imports: map[string]*module{}}
		if prev, ok := c.mods[f.Module]; ok {
			d := c.errorf(f.Pos, "duplicate module %s", f.Module)
			d.Notes = append(d.Notes, Note{Pos: prev.file.Pos, Msg: "module " + f.Module + " is also declared here"})
		}
		c.order = append(c.order, m)
		for _, imp := range f.Imports {
			if imp == nil {
				continue
			}
			switch dep, ok := c.mods[imp.Name]; {
			case imp.Name == f.Module:
				c.errorf(imp.Pos, "module %s imports itself", f.Module)
			case m.imports[imp.Name] != nil:
				c.errorf(imp.Pos, "module %s is imported twice", imp.Name)
			case !ok:
				c.errorf(imp.Pos, "unknown module %s", imp.Name)
			default:
				m.imports[imp.Name] = dep
			}
		}
		for _, d := range f.Consts {
			if d == nil {
				continue
			}
			c.constMod[d] = m
			c.declare(m, &Symbol{Name: d.Name, Kind: SymConst, Pos: d.Pos, Const: d})
		}
		for _, fn := range f.Funcs {
			if fn == nil {
				continue
			}
			if fn.File == nil {
				fn.File = f
			}
			info := &funcInfo{decl: fn, mod: m, ranges: map[*Symbol]interval{},
				loopLen: map[*Symbol]string{}, lenRep: map[*Symbol]*Symbol{}, facts: map[string]bool{}}
			c.funcs = append(c.funcs, info)
			c.infos[fn] = info
			c.declare(m, &Symbol{Name: fn.Name, Kind: SymFunc, Pos: fn.Pos, Func: fn})
		}
		// Imports only see modules given before the importer.
		if _, ok := c.mods[f.Module]; !ok {
			c.mods[f.Module] = m
		}
	}
}

// declare adds a top-level name to a module, rejecting duplicates and the
// names of builtins.
func (c *checker) declare(m *module, s *Symbol) {
	if s.Name == "" || s.Name == "_" {
		c.errorf(s.Pos, "a top-level declaration needs a name")
		return
	}
	if _, ok := Builtins[s.Name]; ok || s.Name == "chunks" {
		c.errorf(s.Pos, "cannot declare %s: it is the name of a builtin", s.Name)
		return
	}
	if prev, ok := m.scope[s.Name]; ok {
		d := c.errorf(s.Pos, "%s is already declared in module %s", s.Name, m.name)
		d.Notes = append(d.Notes, Note{Pos: prev.Pos, Msg: "previous declaration of " + s.Name})
		return
	}
	m.scope[s.Name] = s
}

// importedModule returns the module `name` as seen from the current module.
func (c *checker) importedModule(name string, p Pos) *module {
	if m := c.mod.imports[name]; m != nil {
		return m
	}
	if _, ok := c.mods[name]; ok || name == c.mod.name {
		c.errorf(p, "module %s is not imported", name)
	} else {
		c.errorf(p, "unknown module %s", name)
	}
	return nil
}

// ---------------------------------------------------------------- scopes

// lookup finds an unqualified name in the local scopes, then the module.
func (c *checker) lookup(name string) *Symbol {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if s, ok := c.scopes[i][name]; ok {
			return s
		}
	}
	if c.mod != nil {
		return c.mod.scope[name]
	}
	return nil
}

// lookupLocal finds a name in the local scopes only.
func (c *checker) lookupLocal(name string) *Symbol {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if s, ok := c.scopes[i][name]; ok {
			return s
		}
	}
	return nil
}

func (c *checker) pushScope() map[string]*Symbol {
	s := map[string]*Symbol{}
	c.scopes = append(c.scopes, s)
	return s
}

func (c *checker) popScope() { c.scopes = c.scopes[:len(c.scopes)-1] }

// newLocal makes a parameter or local symbol of the current function and,
// unless it is "_", declares it in the innermost scope.
func (c *checker) newLocal(name string, kind SymKind, t Type, mutable bool, p Pos) *Symbol {
	s := &Symbol{Name: name, Kind: kind, Type: t, Mutable: mutable, Pos: p, MaxLen: -1}
	setLenFromType(s)
	if c.cur != nil {
		s.Slot = len(c.cur.decl.Locals)
		c.cur.decl.Locals = append(c.cur.decl.Locals, s)
	}
	if name == "_" || name == "" || len(c.scopes) == 0 {
		return s
	}
	scope := c.scopes[len(c.scopes)-1]
	if prev, ok := scope[name]; ok {
		d := c.errorf(p, "%s is already declared in this block", name)
		d.Notes = append(d.Notes, Note{Pos: prev.Pos, Msg: "previous declaration of " + name})
	} else {
		scope[name] = s
	}
	return s
}

// setLenFromType records a fixed array's length as the symbol's length bounds.
func setLenFromType(s *Symbol) {
	if at, ok := s.Type.(*ArrayType); ok {
		s.MinLen, s.MaxLen = int64(at.Len), int64(at.Len)
	}
}

// ---------------------------------------------------------------- phases

func (c *checker) checkConsts() {
	for _, m := range c.order {
		for _, d := range m.file.Consts {
			if d != nil {
				c.resolveConst(d, d.Pos)
			}
		}
	}
}

func (c *checker) checkSignatures() {
	for _, info := range c.funcs {
		c.signature(info)
	}
}

func (c *checker) checkBodies() {
	for _, info := range c.funcs {
		c.body(info)
	}
}

// signature resolves a function's parameter and result types, checks its
// requires conditions and derives facts from them, and its effects declaration.
func (c *checker) signature(info *funcInfo) {
	fn := info.decl
	c.mod, c.cur, c.scopes = info.mod, info, nil
	defer func() { c.cur, c.scopes = nil, nil }()
	fn.Locals = nil
	info.scope = c.pushScope()
	for _, p := range fn.Params {
		if p == nil {
			continue
		}
		var t Type
		if p.TypeExpr == nil {
			c.errorf(p.Pos, "parameter %s needs a type", p.Name)
		} else {
			t = c.resolveType(p.TypeExpr, true)
		}
		if p.Mut && t != nil {
			switch t.(type) {
			case *ArrayType, *SliceType:
			default:
				c.errorf(p.Pos, "mut is only allowed on array and slice parameters, not %s", t)
			}
		}
		if p.Name == "_" {
			c.errorf(p.Pos, "a parameter needs a name")
		}
		p.Type = t
		p.Sym = c.newLocal(p.Name, SymParam, t, p.Mut, p.Pos)
	}
	fn.ResultTypes = nil
	results := fn.Results
	if len(results) == 1 && results[0] != nil && results[0].Tuple != nil {
		results = results[0].Tuple
	}
	for _, r := range results {
		var t Type
		if r != nil {
			t = c.resolveType(r, false)
		}
		fn.ResultTypes = append(fn.ResultTypes, t)
	}
	c.requires(info)
	if fn.Effects != nil {
		fn.Effects.Set = c.effectNames(fn.Effects.Names, fn.Effects.Pos)
	} else if fn.Export {
		c.errorf(fn.Pos, "export fn %s must declare its effects (effects none, or a list such as effects trap)", fn.Name)
	}
}

// effectNames parses a list of effect names; "none" alone is the empty set.
func (c *checker) effectNames(names []string, p Pos) EffectSet {
	var set EffectSet
	for _, n := range names {
		if n == "none" {
			if len(names) > 1 {
				c.errorf(p, "effects none cannot be combined with other effects")
			}
			continue
		}
		e, ok := ParseEffect(n)
		if !ok {
			c.errorf(p, "unknown effect %s (the effects are trap, unsafe and io)", n)
			continue
		}
		set = set.With(e)
	}
	return set
}

// body checks a function's statements.
func (c *checker) body(info *funcInfo) {
	fn := info.decl
	c.mod, c.cur = info.mod, info
	c.scopes = []map[string]*Symbol{info.scope}
	defer func() { c.cur, c.scopes = nil, nil }()
	if fn.Body == nil {
		return
	}
	c.stmts(fn.Body.Stmts)
	if len(fn.ResultTypes) > 0 && !terminates(fn.Body) {
		c.errorf(fn.Pos, "missing return at the end of fn %s", fn.Name)
	}
}

// terminates reports whether every path through s ends in a return.
func terminates(s Stmt) bool {
	switch s := s.(type) {
	case *ReturnStmt:
		return true
	case *Block:
		if s == nil {
			return false
		}
		for _, st := range s.Stmts {
			if terminates(st) {
				return true
			}
		}
	case *IfStmt:
		return s.Else != nil && terminates(s.Then) && terminates(s.Else)
	case *AbsorbStmt:
		return terminates(s.Body)
	}
	return false
}

// calleeName is a call's callee as written.
func calleeName(e *CallExpr) string {
	if e.Module != "" {
		return e.Module + "." + e.Name
	}
	return e.Name
}

// plural picks "effect" or "effects" for a set.
func plural(s EffectSet, one, many string) string {
	n := 0
	for _, e := range AllEffects {
		if s.Has(e) {
			n++
		}
	}
	if n > 1 {
		return many
	}
	return one
}
