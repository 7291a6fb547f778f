package vm

import (
	"fmt"
	"io"
	"runtime"
	"sync"
	"weak"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/sem"
)

// The closure forms every construct compiles to. A statement returns true
// when it executed a return.
type (
	wordFn  func(fr *frame) uint64
	arrFn   func(fr *frame) []uint64
	stmtFn  func(fr *frame) bool
	tupleFn func(fr *frame) (words []uint64, arrays [][]uint64)
)

// progCode is the compiled form of one program's functions, built lazily
// (a function and its callees on its first Run). It must not refer to the
// *lang.Program itself, so that the cache entry can be dropped once the
// program is garbage.
type progCode struct {
	mu     sync.Mutex
	byDecl map[*lang.FuncDecl]*fnCode
	nfuncs int
	consts map[*lang.ConstDecl][]uint64 // flattened constant arrays
}

// fnCode is one compiled function.
type fnCode struct {
	pc       *progCode
	id       int // index into machine.idle
	decl     *lang.FuncDecl
	nslots   int
	arrays   []localArray // array locals: storage owned by the frame
	tmps     []int        // sizes of scratch buffers (array literals, builtin tuples)
	requires []wordFn     // evaluated on the callee's frame after binding
	resArray []bool       // per result: array (true) or word
	body     stmtFn

	memChecked bool  // memErr is set (for functions called from outside)
	memErr     error // a call would need more than maxWords of local arrays
}

type localArray struct{ slot, size int }

// cache maps a program to its compiled code. Keys are weak so that
// differential tests running thousands of programs do not keep them alive.
var cache = struct {
	sync.Mutex
	m map[weak.Pointer[lang.Program]]*progCode
}{m: map[weak.Pointer[lang.Program]]*progCode{}}

// programCode returns the (possibly still empty) compiled code of p.
func programCode(p *lang.Program) *progCode {
	wp := weak.Make(p)
	cache.Lock()
	defer cache.Unlock()
	if pc := cache.m[wp]; pc != nil {
		return pc
	}
	pc := &progCode{byDecl: map[*lang.FuncDecl]*fnCode{}}
	cache.m[wp] = pc
	runtime.AddCleanup(p, func(wp weak.Pointer[lang.Program]) {
		cache.Lock()
		delete(cache.m, wp)
		cache.Unlock()
	}, wp)
	return pc
}

// contains reports whether fn is a function of one of p's files.
func contains(p *lang.Program, fn *lang.FuncDecl) bool {
	for _, f := range p.Files {
		for _, g := range f.Funcs {
			if g == fn {
				return true
			}
		}
	}
	return false
}

// get returns the compiled fn, compiling it and its callees if needed.
func (pc *progCode) get(fn *lang.FuncDecl) *fnCode {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	fc := pc.fn(fn)
	if !fc.memChecked {
		fc.memErr, fc.memChecked = checkMemory(fn), true
	}
	return fc
}

// maxWords is the most words of local arrays a call may keep at once (its
// own and those of the deepest chain of calls below it): 2^25 words, 256
// MiB of the VM's 8-byte words, two arrays of the language's largest size.
const maxWords = 1 << 25

// checkMemory refuses, at its largest array, a function a call of which
// would need more than maxWords of local arrays: the VM would run out of
// memory instead of answering.
func checkMemory(fn *lang.FuncDecl) error {
	c := lang.LocalArrayChain(fn, func(t *lang.ArrayType) int64 { return int64(lang.FlatLen(t)) })
	if c.Bytes <= maxWords {
		return nil
	}
	return &lang.Diag{Pos: c.Largest.Sym.Pos, Msg: fmt.Sprintf("vm: a call of %s needs %s words of local arrays (%s); the VM's limit is %s words (256 MiB)",
		fn.Name, lang.Thousands(c.Bytes), c.Describe("words"), lang.Thousands(maxWords))}
}

// fn compiles fn once; pc.mu is held. The fnCode is registered before its
// body is compiled, so a call cycle (which the checker forbids) cannot loop.
func (pc *progCode) fn(fn *lang.FuncDecl) *fnCode {
	if fc := pc.byDecl[fn]; fc != nil {
		return fc
	}
	fc := &fnCode{pc: pc, id: pc.nfuncs, decl: fn}
	pc.nfuncs++
	pc.byDecl[fn] = fc
	for _, sym := range fn.Locals {
		if sym.Slot >= fc.nslots {
			fc.nslots = sym.Slot + 1
		}
		if sym.Kind == lang.SymLocal {
			if at, ok := sym.Type.(*lang.ArrayType); ok {
				fc.arrays = append(fc.arrays, localArray{sym.Slot, flatLen(at)})
			}
		}
	}
	for _, prm := range fn.Params {
		if prm.Sym == nil || prm.Sym.Slot >= fc.nslots {
			panic(fmt.Sprintf("BUG: vm: parameter %s of %s has no slot", prm.Name, fn.QualName()))
		}
	}
	for _, t := range fn.ResultTypes {
		fc.resArray = append(fc.resArray, isArrayish(t))
	}
	c := &fcomp{pc: pc, fc: fc}
	for _, r := range fn.Requires {
		fc.requires = append(fc.requires, c.word(r))
	}
	fc.body = c.block(fn.Body)
	return fc
}

// fcomp is the state of compiling one function.
type fcomp struct {
	pc *progCode
	fc *fnCode
}

// tmp reserves a scratch buffer of size words in the function's frames.
func (c *fcomp) tmp(size int) int {
	c.fc.tmps = append(c.fc.tmps, size)
	return len(c.fc.tmps) - 1
}

// ---------------------------------------------------------------- frames

// machine is the state of one Run.
type machine struct {
	idle  []*frame // per fnCode.id: a frame ready for the next call
	trace io.Writer
	steps uint64
	feats lang.FeatureSet
}

func newMachine(pc *progCode, opt Options) *machine {
	pc.mu.Lock()
	n := pc.nfuncs
	pc.mu.Unlock()
	return &machine{idle: make([]*frame, n), trace: opt.Trace, feats: opt.Features}
}

// frame holds one activation of a function. Functions are not recursive, so
// one frame per function is enough; a second one is made only when a call's
// argument calls the same function again.
type frame struct {
	m    *machine
	w    []uint64   // words and bools, by slot
	a    [][]uint64 // arrays, slices and views, by slot
	tmp  [][]uint64 // scratch buffers, by fcomp.tmp id
	res  []uint64   // word results of the last return
	resA [][]uint64 // array results of the last return (fresh copies)
}

func (fc *fnCode) newFrame(m *machine) *frame {
	fr := &frame{
		m:    m,
		w:    make([]uint64, fc.nslots),
		a:    make([][]uint64, fc.nslots),
		tmp:  make([][]uint64, len(fc.tmps)),
		res:  make([]uint64, len(fc.resArray)),
		resA: make([][]uint64, len(fc.resArray)),
	}
	for _, la := range fc.arrays {
		fr.a[la.slot] = make([]uint64, la.size)
	}
	for i, n := range fc.tmps {
		fr.tmp[i] = make([]uint64, n)
	}
	return fr
}

func (m *machine) acquire(fc *fnCode) *frame {
	if fr := m.idle[fc.id]; fr != nil {
		m.idle[fc.id] = nil
		return fr
	}
	return fc.newFrame(m)
}

func (m *machine) release(fc *fnCode, fr *frame) { m.idle[fc.id] = fr }

// ---------------------------------------------------------------- types

func bitsOf(t lang.Type) int {
	if n := lang.WidthOf(t); n > 0 {
		return n
	}
	panic(fmt.Sprintf("BUG: vm: %v is not a word type", t))
}

func maskOf(t lang.Type) uint64 { return sem.Mask(bitsOf(t)) }

// flatLen is the number of words a value of type t occupies.
func flatLen(t lang.Type) int {
	if at, ok := t.(*lang.ArrayType); ok {
		return at.Len * flatLen(at.Elem)
	}
	if _, ok := t.(*lang.SliceType); ok {
		panic("BUG: vm: a slice has no fixed length")
	}
	return 1
}

// stride is the number of words one element of an array or slice occupies.
func stride(t lang.Type) int {
	e := lang.ElemOf(t)
	if e == nil {
		panic(fmt.Sprintf("BUG: vm: %v is not an array or slice", t))
	}
	return flatLen(e)
}

func isArrayish(t lang.Type) bool {
	switch t.(type) {
	case *lang.ArrayType, *lang.SliceType:
		return true
	}
	return false
}

// flattenConst lays out a constant value row-major.
func flattenConst(cv *lang.ConstVal, t lang.Type, out []uint64) []uint64 {
	at, ok := t.(*lang.ArrayType)
	if !ok {
		return append(out, cv.Word&maskOf(t))
	}
	if len(cv.Elems) != at.Len {
		panic(fmt.Sprintf("BUG: vm: constant of type %v has %d elements", t, len(cv.Elems)))
	}
	for _, e := range cv.Elems {
		out = flattenConst(e, at.Elem, out)
	}
	return out
}

// leafType is the word type at the bottom of nested arrays and slices.
func leafType(t lang.Type) lang.Type { return lang.LeafType(t) }
