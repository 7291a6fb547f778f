package mos6502

import (
	"fmt"

	"github.com/lowent/lowentc/ir"
)

// Static frames. There is no recursion (the IR verifier checks it), so
// every function has one fixed frame: its parameters, results and values.
// Functions come callees first (ir.Module.Funcs' order), and a function's
// frame starts where the frames of everything it calls end, in zero page
// and in the absolute area alike: the values of a caller, live across a
// call or not, never share a byte with its callees. Leaf routines (the hot
// ones: BLAKE2b's G, SHA-256's compress) get the zero page first.

// frame is the storage of one function that its callers need to know.
type frame struct {
	label   string      // what a JSR calls (an export's body, after its entry code)
	scalars []string    // storage operand of each scalar parameter limb
	arrays  []arrayParm // one per array parameter
	results []string    // storage operand of each result limb
	zpEnd   int         // first zero-page address not used by f or its callees
	absEnd  int         // first absolute slot (vb+N) not used by f or its callees
}

// arrayParm is an array parameter: a zero-page pointer, and for a slice a
// 2-byte length (0: none).
type arrayParm struct {
	ptr, len int
}

// frameAlloc hands out storage bytes of one frame. zpTop, when set, is
// the first zero-page byte that scalars may not take: the bytes from it up
// are kept for the array pointers of the frame's callers (zpReserve).
type frameAlloc struct {
	zp, abs int
	zpTop   int
}

// zpBytes takes n consecutive zero-page bytes, if there are.
func (fa *frameAlloc) zpBytes(n int) (int, bool) {
	if fa.zp+n-1 > zpLast {
		return 0, false
	}
	a := fa.zp
	fa.zp += n
	return a, true
}

// any takes one byte, zero page first while it is below zpTop.
func (fa *frameAlloc) any() string {
	if fa.zpTop == 0 || fa.zp < fa.zpTop {
		if a, ok := fa.zpBytes(1); ok {
			return fmt.Sprintf("$%02x", a)
		}
	}
	fa.abs++
	return fmt.Sprintf("vb+%d", fa.abs-1)
}

// frameBase returns where f's frame may start: after every callee's.
func (mg *modgen) frameBase(f *ir.Function) frameAlloc {
	fa := frameAlloc{zp: zpFirst}
	ir.WalkInstrs(f.Body, func(in *ir.Instr) {
		if in.Op == ir.OpCall {
			cf := mg.frames[in.Callee]
			if cf == nil {
				mg.bugf("%s calls %s before it is generated", f.Name, in.Callee.Name)
			}
			fa.zp = max(fa.zp, cf.zpEnd)
			fa.abs = max(fa.abs, cf.absEnd)
		}
	})
	return fa
}

func (mg *modgen) bugf(format string, args ...any) {
	panic(fmt.Sprintf("BUG: mos6502: %s", fmt.Sprintf(format, args...)))
}

// layoutParams places f's parameters and results: array pointers (and
// slice lengths) in zero page, which (zp),y addressing needs, then the
// scalar limbs and results, zero page while it lasts; under lay.zpKeep
// only below the bytes kept for the callers' pointers (else the absolute
// area: a scalar can live anywhere, a pointer cannot).
func (g *fgen) layoutParams(fa *frameAlloc, fr *frame) error {
	if g.g.lay.zpKeep {
		fa.zpTop = zpLast + 1 - g.g.zpRes[g.f]
	}
	for _, p := range g.f.Params {
		if p.Arr == nil {
			continue
		}
		ptr, ok := fa.zpBytes(2)
		if !ok {
			return &fitError{msg: fmt.Sprintf("mos6502: %s: zero page exhausted (array parameter %s)", g.f.Name, p.Arr.Name), zp: true}
		}
		ap := arrayParm{ptr: ptr}
		if p.Arr.IsSlice() {
			if ap.len, ok = fa.zpBytes(2); !ok {
				return &fitError{msg: fmt.Sprintf("mos6502: %s: zero page exhausted (slice length of %s)", g.f.Name, p.Arr.Name), zp: true}
			}
		}
		g.arrs[p.Arr] = arrInfo{ptr: ptr}
		g.slen[p.Arr] = ap.len
		fr.arrays = append(fr.arrays, ap)
	}
	for _, p := range g.f.Params {
		if p.Val != nil {
			s := fa.any()
			g.loc[p.Val] = s
			fr.scalars = append(fr.scalars, s)
		}
	}
	for range g.f.Results {
		fr.results = append(fr.results, fa.any())
	}
	return nil
}

// call emits a call: the scalar arguments copied into the callee's
// parameter bytes, each array region's address (and a slice's length) into
// its pointer, JSR, then the results copied out of the callee's frame.
func (g *fgen) call(in *ir.Instr) {
	fr := g.g.frames[in.Callee]
	k := g.g.m.Limbs(ir.IndexType)
	ns := len(in.Args) - 2*k*len(in.Arrs)
	if ns != len(fr.scalars) || len(in.Arrs) != len(fr.arrays) || len(in.Results) != len(fr.results) {
		g.bug("call of %s does not match its frame", in.Callee.Name)
	}
	for i := 0; i < ns; i++ {
		g.loadA(in.Args[i])
		g.a.op("sta %s", fr.scalars[i])
	}
	for i, arr := range in.Arrs {
		at := ns + 2*k*i
		g.regionPtr(arr, in.Args[at:at+k], fr.arrays[i].ptr)
		if l := fr.arrays[i].len; l != 0 {
			for j := 0; j < 2; j++ {
				g.loadA(in.Args[at+k+j])
				g.a.op("sta $%02x", l+j)
			}
		}
	}
	g.a.op("jsr %s", fr.label)
	g.forget()
	for i, r := range in.Results {
		if _, ok := g.loc[r]; ok && g.lv.uses[r] > 0 {
			g.a.op("lda %s", fr.results[i])
			g.setA(r)
		}
	}
}

// regionPtr stores the address of element off of arr (off a limb group,
// counted in source elements of arr.Per limbs) in the zero-page pointer dst.
func (g *fgen) regionPtr(arr *ir.Array, off []*ir.Value, dst int) {
	info := g.arrs[arr]
	lo, hi := fmt.Sprintf("$%02x", info.ptr), fmt.Sprintf("$%02x", info.ptr+1)
	if info.label != "" {
		lo, hi = "#<"+info.label, "#>"+info.label
	}
	g.cHolds = nil
	c, isConst := 0, true
	for i, v := range off {
		b, ok := g.constOf(v)
		if !ok {
			isConst = false
			break
		}
		if i < 2 {
			c |= int(b) << (8 * i)
		}
	}
	if isConst {
		c *= arr.Per
		g.a.op("lda %s", lo)
		if c&0xffff != 0 {
			g.a.op("clc")
			g.a.op("adc #$%02x", c&0xff)
		}
		g.a.op("sta $%02x", dst)
		g.a.op("lda %s", hi)
		if c&0xffff != 0 {
			g.a.op("adc #$%02x", (c>>8)&0xff)
		}
		g.a.op("sta $%02x", dst+1)
		g.clobberA()
		return
	}
	// A run-time offset: the element index times Per (a power of two)
	// by shifts, then the base added.
	g.loadA(off[0])
	g.a.op("sta $%02x", dst)
	if len(off) > 1 {
		g.a.op("lda %s", g.opnd(off[1]))
	} else {
		g.a.op("lda #$00")
	}
	g.a.op("sta $%02x", dst+1)
	for p := arr.Per; p > 1; p >>= 1 {
		if p&1 != 0 {
			g.bug("array %s has %d limbs per element, not a power of two", arr.Name, arr.Per)
		}
		g.a.op("asl $%02x", dst)
		g.a.op("rol $%02x", dst+1)
	}
	g.a.op("clc")
	g.a.op("lda $%02x", dst)
	g.a.op("adc %s", lo)
	g.a.op("sta $%02x", dst)
	g.a.op("lda $%02x", dst+1)
	g.a.op("adc %s", hi)
	g.a.op("sta $%02x", dst+1)
	g.clobberA()
}

// zpReserve computes, for every function of fs (callees first), the zero
// page its frame must leave free above itself: the array pointers of the
// functions that call it, directly or not, whose frames come later.
func zpReserve(fs []*ir.Function) map[*ir.Function]int {
	res := map[*ir.Function]int{}
	for i := len(fs) - 1; i >= 0; i-- {
		f := fs[i]
		need := res[f]
		for _, p := range f.Params {
			if p.Arr != nil {
				need += 2
				if p.Arr.IsSlice() {
					need += 2
				}
			}
		}
		ir.WalkInstrs(f.Body, func(in *ir.Instr) {
			if in.Op == ir.OpCall {
				res[in.Callee] = max(res[in.Callee], need)
			}
		})
	}
	return res
}
