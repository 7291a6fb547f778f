package mos6502

import (
	"fmt"
	"strings"

	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

// layout says where the emitted program goes.
type layout struct {
	org    int  // first address of the tables (page aligned)
	linear bool // synthesize linear maps into tables
	prg    bool // a C64 program: BASIC stub and driver (prg.go) before org
	size   bool // --opt size: reuse computed pointers, shared helpers
	// ptrs reuses computed pointers as size does (--opt balanced: a
	// rolled loop's arr[4*i+k] then costs one pointer and Y = k).
	ptrs bool
	// build builds linear-map tables at start-up (tabbuild.go) rather
	// than emitting them as data (--opt balanced: fewer source lines).
	build bool
	// peep applies balanced's peepholes to the code (peep.go).
	peep bool
	// maxLines, when not 0, bounds the lines of the module's source
	// (--opt balanced: balancedLines); a longer one does not fit.
	maxLines int
	// noBlank (tests only) leaves the screen on in the C64 program.
	noBlank bool
	// zpKeep: scalar parameters and results leave free the zero page
	// their callers' array pointers need (frame.go). Off at first, so a
	// module that fits keeps its scalars in zero page; build sets it and
	// tries again when the zero page ran out.
	zpKeep bool
	// entry and outLen: the export the C64 program calls and the bytes
	// of its out parameter.
	entry  string
	outLen int
	// reserved are labels an export's entry label must not take: the
	// internal labels of a first generation in which an export's name
	// clashed with one of them (target.go's buildSeen retries).
	reserved map[string]bool
}

// reusePtrs reports whether a computed address arr[b|k] is the pointer
// arr+b and Y = k, one pointer for a run of accesses (mem.go, splitLow).
func (l layout) reusePtrs() bool { return l.size || l.ptrs }

// modgen generates one module.
type modgen struct {
	m       *ir.Module
	lay     layout
	code    asmBuf
	need    map[string]bool
	tables  [][]byte
	tabIdx  map[string]int
	globals map[*ir.Array]string
	funcs   []*funcABI
	frames  map[*ir.Function]*frame
	zpRes   map[*ir.Function]int // zero page kept free for callers' pointers
	checks  []*ir.CheckInfo      // a trap's id is its index + 1
	checkID map[ir.CheckInfo]int // the id of each distinct check
	ovlBufs int                  // the most arrays an export's entry checks (overlap.go)
	ovd     []byte               // the size-mode checks' descriptors (overlap.go)
	ovShift bool                 // a size-mode check shifts a slice's length
	nabs    int                  // absolute value slots (label vb)
	ytmp    int                  // parallel-copy temporaries (label yt)
	locals  []localArr

	// tabChecks are the first lines, in code, of the exports' entry
	// checks that the tables are built (tabbuild.go).
	tabChecks []int
}

type localArr struct {
	label string
	n     int
}

// trapID returns the trap id of check c: copies of one check (unrolled,
// inlined) report the same thing, so they share an id.
func (mg *modgen) trapID(c *ir.CheckInfo) int {
	if c != nil {
		if id, ok := mg.checkID[*c]; ok {
			return id
		}
	}
	mg.checks = append(mg.checks, c)
	if c != nil {
		if mg.checkID == nil {
			mg.checkID = map[ir.CheckInfo]int{}
		}
		mg.checkID[*c] = len(mg.checks)
	}
	return len(mg.checks)
}

// tooManyChecks is the error of a program with more distinct checks than
// a one-byte trap id numbers; build then tries less unrolling and
// inlining.
func tooManyChecks(checks []*ir.CheckInfo) error {
	e := &fitError{msg: fmt.Sprintf("mos6502: %d run-time checks, more than 255 (a trap number is one byte)", len(checks))}
	if c := checks[255]; c != nil && c.Pos.Line > 0 {
		e.pos = c.Pos
		e.msg += "; this is the 256th"
	}
	return e
}

// tableLabel is the label of linear-map table i.
func (mg *modgen) tableLabel(i int) string { return fmt.Sprintf("t%d", i) }

// addTable returns the index of a 256-byte table, shared with an equal one.
func (mg *modgen) addTable(t []byte) int {
	k := string(t)
	if i, ok := mg.tabIdx[k]; ok {
		return i
	}
	mg.tables = append(mg.tables, t)
	mg.tabIdx[k] = len(mg.tables) - 1
	return len(mg.tables) - 1
}

// The package holds two code generators, chosen by the width the module
// is legalized at:
//
//   - the byte generator (W=8; the speed and balanced modes, and size when
//     the interpreter does not fit): 6502 code for every operation, the
//     methods of modgen and fgen (module.go, gen.go, ops.go, mem.go,
//     control.go, rotate.go, addr.go, alloc.go, schedule.go, linear.go,
//     linmap.go, tabbuild.go, peep.go, helpers.go);
//   - the size interpreter (W=64, --opt size): interpreter ops for each
//     word operation, the methods of wmod and wgen (wide.go, wide_ops.go,
//     wide_interp.go, wide_helpers.go).
//
// Each is a codeGen, and generate runs either the same way. They share
// the module's state, modgen (module.go: the frames of frame.go, the
// globals and constant tables, the run-time checks and their trap ids,
// the exports' ABIs and entries, the source's prologue and variable
// areas), the liveness of live.go, the assembler buffer of asm.go, the
// entry checks of overlap.go and the run-time helpers of helpers.go (the
// interpreter's wideHelpers adds its rolled forms); neither calls the
// other's methods (TestGeneratorsApart keeps it so).
type codeGen interface {
	// genFunc generates f (its callees done before) into the module's
	// code, lays out its frame and returns its ABI; an error is a limit
	// of the machine or a construct the generator does not handle.
	genFunc(f *ir.Function, labels map[string]bool) (*funcABI, error)
	// assemble returns the whole program's source.
	assemble() string
}

// newModgen is the state of the generation of m laid out as lay.
func newModgen(m *ir.Module, lay layout) *modgen {
	mg := &modgen{m: m, lay: lay, need: map[string]bool{}, tabIdx: map[string]int{}, globals: map[*ir.Array]string{},
		frames: map[*ir.Function]*frame{}}
	for i, gl := range m.Globals {
		mg.globals[gl] = fmt.Sprintf("g%d", i)
	}
	return mg
}

// generate emits the TMP source of m's exports named in only (all when
// only is nil) and of the functions they call, the exports' ABIs and the
// run-time checks: with the size interpreter when m is legalized at
// wideW, else with the byte generator.
func generate(m *ir.Module, lay layout, only map[string]bool) (string, []*funcABI, []*ir.CheckInfo, error) {
	mg := newModgen(m, lay)
	var cg codeGen = mg
	if m.W == wideW {
		cg = newWmod(mg)
	}
	return generateWith(mg, cg, only)
}

// generateWith runs the code generator cg over mg's module.
func generateWith(mg *modgen, cg codeGen, only map[string]bool) (src string, abis []*funcABI, checks []*ir.CheckInfo, err error) {
	// The package's boundary for the generators' own bugs: an
	// inconsistency they find (a BUG: panic) or a run-time panic of
	// theirs is reported as an internal error, never as a Go panic. No
	// expected outcome passes through here: limits and unsupported
	// constructs are returned as errors.
	defer func() {
		if r := recover(); r != nil {
			src, abis, checks, err = "", nil, nil, fmt.Errorf("mos6502: internal error: %v", r)
		}
	}()
	labels := reservedLabels(mg.lay)
	fs := reachable(mg.m, only)
	mg.zpRes = zpReserve(fs)
	for _, f := range fs {
		abi, err := cg.genFunc(f, labels)
		if err != nil {
			return "", nil, nil, err
		}
		if f.Export && (only == nil || only[f.Name]) {
			mg.funcs = append(mg.funcs, abi)
		}
	}
	if len(mg.checks) > 255 {
		return "", nil, nil, tooManyChecks(mg.checks)
	}
	return cg.assemble(), mg.funcs, mg.checks, nil
}

// reachable returns the functions of m the exports named in only (all
// when nil) need, callees first (m.Funcs' order).
func reachable(m *ir.Module, only map[string]bool) []*ir.Function {
	var roots []*ir.Function
	for _, f := range m.Funcs {
		if f.Export && (only == nil || only[f.Name]) {
			roots = append(roots, f)
		}
	}
	need := ir.CallClosure(roots...)
	var out []*ir.Function
	for _, f := range m.Funcs {
		if need[f] {
			out = append(out, f)
		}
	}
	return out
}

// reservedLabels is a fresh set of the labels exports must not take.
func reservedLabels(lay layout) map[string]bool {
	labels := map[string]bool{}
	for l := range lay.reserved {
		labels[l] = true
	}
	return labels
}

// labelClash is a generated source in which an export's entry label is
// also an internal label (an export called trap, l3 or mulw, say).
type labelClash struct{ internal map[string]bool }

func (e *labelClash) Error() string { return "BUG: mos6502: an entry label clashes" }

// checkLabels returns a *labelClash when an entry label of abis is
// defined more than once in src; its internal set is every label src
// defines except the entry labels defined once.
func checkLabels(src string, abis []*funcABI) error {
	count := map[string]int{}
	for _, line := range strings.Split(src, "\n") {
		if line == "" || !(line[0] == '_' || line[0] >= 'a' && line[0] <= 'z' || line[0] >= 'A' && line[0] <= 'Z') {
			continue
		}
		count[strings.Fields(line)[0]]++
	}
	internal := map[string]bool{}
	for l := range count {
		internal[l] = true
	}
	clash := false
	for _, a := range abis {
		if count[a.Label] > 1 {
			clash = true
		} else {
			delete(internal, a.Label)
		}
	}
	if !clash {
		return nil
	}
	return &labelClash{internal: internal}
}

// entryLabel is an export's label: its name cut to 15 characters, unique.
func entryLabel(name string, taken map[string]bool) string {
	l := strings.ToLower(name)
	if len(l) > 15 {
		l = l[:15]
	}
	for i := 2; taken[l]; i++ {
		s := fmt.Sprint(i)
		l = l[:min(len(l), 15-len(s))] + s
	}
	taken[l] = true
	return l
}

// genFunc generates one function in its static frame (frame.go). An
// export's entry saves the stack pointer for traps, then falls into the
// body that calls from other functions jump to.
func (mg *modgen) genFunc(f *ir.Function, labels map[string]bool) (*funcABI, error) {
	f.Renumber()
	g := &fgen{g: mg, y: -1, f: f, a: &mg.code, loc: map[*ir.Value]string{}, known: map[*ir.Value]byte{},
		arrs: map[*ir.Array]arrInfo{}, inA: map[*ir.Value]bool{}, slen: map[*ir.Array]int{}}
	abi := &funcABI{Name: f.Name}
	g.abi = abi
	fr := &frame{label: fmt.Sprintf("fn%d", len(mg.frames))}
	fa := mg.frameBase(f)
	low := fa.zp // the callees' frames end here
	if err := g.layoutParams(&fa, fr); err != nil {
		return nil, err
	}
	si := 0
	for i, p := range f.Params {
		pa := paramABI{Name: p.Name}
		if p.Val != nil {
			pa.Loc = fr.scalars[si]
			si++
		} else {
			ap := fr.arrays[i-si]
			pa.Ptr, pa.Len = ap.ptr, ap.len
		}
		abi.Params = append(abi.Params, pa)
	}
	abi.ResultLocs = fr.results
	for gl, l := range mg.globals {
		g.arrs[gl] = arrInfo{label: l}
	}
	for i, a := range f.Locals {
		l := fmt.Sprintf("b%d_%d", len(mg.frames), i)
		g.arrs[a] = arrInfo{label: l}
		mg.locals = append(mg.locals, localArr{l, a.Len})
	}
	g.prepare(f.Body)
	if mg.lay.linear {
		// The plan needs use counts; liveness is then recomputed with the
		// roots reading their leaves and the absorbed values gone.
		g.lv = computeLiveness(f, nil, nil)
		g.lin = planLinear(g)
	}
	g.lv = computeLiveness(f, g.lin, nil)
	g.schedule(f.Body)
	g.hoistStores(f.Body)
	g.lv = computeLiveness(f, g.lin, nil)
	g.planRebase(f)
	g.planDeadStores(f)
	g.fz = g.fuseLoads(f)
	g.lv = computeLiveness(f, g.lin, g)
	if mg.lay.reusePtrs() {
		g.skipOr = g.absorbedOrs(f.Body)
	}
	// Values needing no storage: constants, lengths, known index limbs,
	// bytes consumed through tables only and indices absorbed into y.
	for v := range g.lv.iv {
		if g.skipOr[v] {
			delete(g.lv.iv, v)
		} else if _, ok := g.constOf(v); ok {
			delete(g.lv.iv, v)
		} else if _, ok := g.loc[v]; ok {
			delete(g.lv.iv, v)
		}
	}
	g.coalesce()
	// Values live at no call may also take the zero page of the callees'
	// frames, below f's own ([zpFirst, low)): no callee runs while they
	// are live. The rest, and those that do not fit there, get f's frame.
	ivs := g.lv.intervals()
	lowLoc := map[*interval]string{}
	if nlow := low - zpFirst; nlow > 0 {
		calls := g.callPositions(f.Body)
		var local, rest []*interval
		for _, iv := range ivs {
			if iv.spansAny(calls) {
				rest = append(rest, iv)
			} else {
				local = append(local, iv)
			}
		}
		where, _ := allocate(local)
		for _, iv := range local {
			if s := where[iv]; s < nlow {
				lowLoc[iv] = fmt.Sprintf("$%02x", zpFirst+s)
			} else {
				rest = append(rest, iv)
			}
		}
		ivs = rest
	}
	where, nslots := allocate(ivs)
	nzp := max(0, zpLast-fa.zp+1-mg.zpRes[f])
	for v, iv := range g.lv.iv {
		if l, ok := lowLoc[iv]; ok {
			g.loc[v] = l
			continue
		}
		s := where[iv]
		if s < nzp {
			g.loc[v] = fmt.Sprintf("$%02x", fa.zp+s)
		} else {
			g.loc[v] = fmt.Sprintf("vb+%d", fa.abs+s-nzp)
		}
	}
	fr.zpEnd = fa.zp + min(nslots, nzp)
	fr.absEnd = fa.abs + max(0, nslots-nzp)
	abi.ZPTop = fr.zpEnd - 1
	mg.nabs = max(mg.nabs, fr.absEnd)
	g.a.comment(fmt.Sprintf("%s", f.QualName))
	if f.Export {
		mg.exportEntry(g.a, f, fr, abi, labels)
	}
	g.a.label(fr.label)
	g.forget()
	g.block(f.Body)
	mg.frames[f] = fr
	return abi, nil
}

// exportEntry emits the entry of export f into a: its label (in labels,
// and in abi), the check that the tables are built (tabbuild.go), the
// stack pointer saved for traps and the entry checks of its array
// parameters (overlap.go); then falls into the body fr.label, which calls
// from other functions jump to (abi.Body).
func (mg *modgen) exportEntry(a *asmBuf, f *ir.Function, fr *frame, abi *funcABI, labels map[string]bool) {
	abi.Label = entryLabel(f.Name, labels)
	a.label(abi.Label)
	a.op("cld")
	mg.tableCheck(a)
	a.op("tsx")
	a.op("stx savesp")
	mg.overlapEntry(a, f, fr.arrays)
	abi.Body = fr.label
}

// callPositions returns the liveness positions of the calls in b.
func (g *fgen) callPositions(b *ir.Block) []int {
	var ps []int
	ir.WalkInstrs(b, func(in *ir.Instr) {
		if in.Op == ir.OpCall {
			ps = append(ps, g.lv.pos[in])
		}
	})
	return ps
}

// prepare records what storage-free values are known: slice lengths (in
// the parameter area, high limbs zero) and loop index limbs that stay zero.
func (g *fgen) prepare(b *ir.Block) {
	for _, in := range b.Instrs {
		switch in.Op {
		case ir.OpLen:
			info := g.arrs[in.Arr]
			for i, r := range in.Results {
				switch {
				case in.Arr.IsSlice() && i < 2:
					g.loc[r] = fmt.Sprintf("$%02x", g.paramLen(in.Arr)+i)
				case in.Arr.IsSlice():
					g.known[r] = 0
				default:
					n := in.Arr.Len / in.Arr.Per
					g.known[r] = byte(n >> (8 * i))
				}
			}
			_ = info
		case ir.OpFor:
			body := in.Blocks[0]
			n := len(body.Params) - len(in.Results)
			lo, hi := in.Args[:n], in.Args[n:2*n]
			for i := n - 1; i >= 1; i-- {
				l, lok := g.constOf(lo[i])
				h, hok := g.constOf(hi[i])
				if !lok || !hok || l != 0 || h != 0 {
					break
				}
				g.known[body.Params[i]] = 0
			}
		}
		for _, blk := range in.Blocks {
			g.prepare(blk)
		}
	}
}

func (g *fgen) paramLen(a *ir.Array) int {
	if l := g.slen[a]; l != 0 {
		return l
	}
	g.bug("slice %s is not a parameter", a.Name)
	return 0
}

// prologue writes what both generators' sources begin with: the header
// comment (each export's entry label, parameters, results and zero page),
// the origin and the page-aligned tables.
func (mg *modgen) prologue(out *asmBuf, mode string) {
	out.comment(fmt.Sprintf("lowentc: module %s%s", mg.m.Name, mode))
	out.comment("Turbo Macro Pro source, 6502")
	for _, f := range mg.funcs {
		out.comment(fmt.Sprintf("%s: jsr %s", f.Name, f.Label))
		for _, p := range f.Params {
			switch {
			case p.Loc != "":
				out.comment(fmt.Sprintf(" %s at %s", p.Name, p.Loc))
			case p.Len != 0:
				out.comment(fmt.Sprintf(" %s ptr $%02x len $%02x", p.Name, p.Ptr, p.Len))
			default:
				out.comment(fmt.Sprintf(" %s ptr $%02x", p.Name, p.Ptr))
			}
		}
		if len(f.ResultLocs) > 0 {
			out.comment(fmt.Sprintf(" results at %s", f.ResultLocs[0]))
		}
		out.comment(fmt.Sprintf(" zero page $02-$%02x", f.ZPTop))
	}
	out.op("*= $%04x", mg.lay.org)
	if mg.need["aes"] {
		mg.addTable(aesSbox())
		mg.addTable(xtimeTable())
	}
	if mg.buildsTables() {
		mg.builtTables(out)
		return
	}
	for i, t := range mg.tables {
		out.label(mg.tableLabel(i))
		out.bytes(t)
	}
}

// assemble puts the pieces together: tables (page aligned), constant
// globals, code, helpers, then the variable areas.
func (mg *modgen) assemble() string {
	out := asmBuf{dense: mg.lay.build}
	mg.prologue(&out, "")
	for i, gl := range mg.m.Globals {
		out.comment(gl.Name)
		out.label(mg.globals[gl])
		data := make([]byte, len(gl.Data))
		for j, x := range gl.Data {
			data[j] = byte(x)
		}
		out.bytes(data)
		_ = i
	}
	code := mg.code.lines
	if mg.buildsTables() {
		mg.tableBuilder(&out)
	} else {
		code = mg.dropTableChecks()
	}
	if mg.lay.peep {
		code = peephole(code)
	}
	out.lines = append(out.lines, code...)
	helpers(&out, mg)
	mg.variables(&out, nil)
	return out.String()
}

// variables writes what both generators' sources end with: the variable
// areas, each zeroed (the trap state, 8-byte buffers, the absolute value
// slots, the helpers' work areas, the local arrays), then progend.
func (mg *modgen) variables(out *asmBuf, buffers []string) {
	area := func(label string, n int) {
		out.label(label)
		out.bytes(make([]byte, max(n, 1)))
	}
	area("savesp", 1)
	area("trapid", 1)
	if mg.buildsTables() {
		area("tbok", 1)
	}
	if mg.need["ovl"] {
		area("ovt", 4*mg.ovlBufs)
		area("ove1", 2)
		area("ove2", 2)
	}
	if mg.need["ovchk"] {
		area("ovend", 1)
		area("ovbeg", 1)
		area("ovw", 2)
	}
	for _, b := range buffers {
		area(b, 8)
	}
	area("vb", mg.nabs)
	area("yt", mg.ytmp)
	if mg.need["clmul"] {
		area("ha", 8)
		area("hb", 8)
		area("hp", 16)
		area("hs", 9)
	}
	if mg.need["aes"] {
		area("as", 16)
		area("ak", 16)
		area("at", 16)
	}
	if mg.need["mulw"] {
		area("hma", 1)
		area("hmb", 1)
		area("hmt", 1)
	}
	if mg.need["divu"] {
		area("hda", 1)
		area("hdb", 1)
		area("hdr", 1)
		area("hdt", 1)
	}
	for _, l := range mg.locals {
		area(l.label, l.n)
	}
	out.label("progend")
}

func aesSbox() []byte { return sem.AESSbox[:] }

func xtimeTable() []byte {
	xt := make([]byte, 256)
	for i := range xt {
		x := i << 1
		if i&0x80 != 0 {
			x ^= 0x11b
		}
		xt[i] = byte(x)
	}
	return xt
}
