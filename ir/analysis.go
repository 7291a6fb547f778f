package ir

import "slices"

// Analyses: functions that read a block or a function and return facts
// about it without changing it. The pipeline (pipeline.go) runs passes;
// nothing runs an analysis but the pass or backend that calls it, and its
// result is good until the code changes. They are the one place where the
// facts are worked out: a backend that needs the instructions in order,
// the live range of a value or whether two accesses may touch the same
// element asks here rather than writing its own walk.
//
//   - Walk, WalkInstrs (walk.go): program order.
//   - Uses: how often each value is read; Reads: whether an instruction
//     (with its blocks) reads one of some values.
//   - Number: positions in program order, with the extent of each
//     structured instruction and its loop depth.
//   - Liveness: each value's live interval over those positions.
//   - AccessOf, Access.Distance, Aliasing.MayOverlap: memory accesses as
//     array + base value + constant offset, and the one aliasing rule.
//   - FindPairs128, WordAccessOf (pairs.go): the 128-bit values in pair
//     form (two u64 accesses at consecutive words) that can be moved as
//     one.

// Walk visits b and its nested blocks in program order: block(blk) when a
// block is entered (before its instructions), instr(in) for each
// instruction, before the blocks it owns. Either function may be nil.
func Walk(b *Block, block func(*Block), instr func(*Instr)) {
	if block != nil {
		block(b)
	}
	for _, in := range b.Instrs {
		if instr != nil {
			instr(in)
		}
		for _, blk := range in.Blocks {
			Walk(blk, block, instr)
		}
	}
}

// Reads reports whether in, or an instruction of a block nested in it,
// reads one of vs.
func Reads(in *Instr, vs ...*Value) bool {
	for _, a := range in.Args {
		if slices.Contains(vs, a) {
			return true
		}
	}
	for _, blk := range in.Blocks {
		for _, x := range blk.Instrs {
			if Reads(x, vs...) {
				return true
			}
		}
	}
	return false
}

// Uses counts how many times each value of f is read as an argument.
func Uses(f *Function) map[*Value]int { return useCounts(f) }

// Numbering gives every instruction of a function body two positions in
// program order: Pos, and End after everything nested in it (a for's or
// an if's blocks; an instruction without blocks has End = Pos + 1).
// Depth is the number of for loops around an instruction.
type Numbering struct {
	Pos, End, Depth map[*Instr]int
	N               int // positions used: every Pos and End is below N
}

// Number numbers the instructions of b and its nested blocks.
func Number(b *Block) *Numbering {
	nb := &Numbering{Pos: map[*Instr]int{}, End: map[*Instr]int{}, Depth: map[*Instr]int{}}
	var number func(b *Block, d int)
	number = func(b *Block, d int) {
		for _, in := range b.Instrs {
			nb.Pos[in] = nb.N
			nb.Depth[in] = d
			nb.N++
			nd := d
			if in.Op == OpFor {
				nd++
			}
			for _, blk := range in.Blocks {
				number(blk, nd)
			}
			nb.End[in] = nb.N
			nb.N++
		}
	}
	number(b, 0)
	return nb
}

// Interval is a value's live range over a Numbering: from the position of
// the instruction that defines it to the last position it must still be
// held at, both included.
type Interval struct{ Start, End int }

// Live is the result of Liveness.
type Live struct {
	*Numbering
	Intervals map[*Value]Interval // every value defined in the body (not the function's parameters)
}

// Liveness computes the live interval of every value defined in f's body.
// The rule, the one the storage allocators of the backends share:
//   - a value lives from its definition to its last read;
//   - a value read inside a loop that it is defined outside of lives to the
//     end of the outermost such loop (every iteration reads it again);
//   - a loop's block parameters live over the whole loop, and its upper
//     bounds too (read at every test); a loop's or an if's results are
//     defined at its start and live at least to its end (the construct's
//     blocks write them);
//   - what yield and return read is read at the end of the construct they
//     leave, one position after them.
func Liveness(f *Function) *Live {
	lv := &Live{Numbering: Number(f.Body), Intervals: map[*Value]Interval{}}
	def := func(v *Value, p, end int) {
		if _, ok := lv.Intervals[v]; !ok {
			lv.Intervals[v] = Interval{p, max(p, end)}
		}
	}
	extend := func(v *Value, p int) {
		if iv, ok := lv.Intervals[v]; ok {
			iv.End = max(iv.End, p)
			lv.Intervals[v] = iv
		}
	}
	var loops []*Instr // the loops around the instruction being read
	use := func(v *Value, p int) {
		iv, ok := lv.Intervals[v]
		if !ok {
			return // a parameter of the function
		}
		for _, l := range loops {
			if lv.Pos[l] > iv.Start {
				p = max(p, lv.End[l])
				break
			}
		}
		extend(v, p)
	}
	var walk func(b *Block)
	walk = func(b *Block) {
		for _, in := range b.Instrs {
			p := lv.Pos[in]
			for _, a := range in.Args {
				use(a, p)
			}
			switch in.Op {
			case OpFor:
				body := in.Blocks[0]
				nidx := len(body.Params) - len(in.Results)
				for _, h := range in.Args[nidx : 2*nidx] {
					extend(h, lv.End[in])
				}
				for _, v := range body.Params {
					def(v, p, lv.End[in])
				}
				for _, r := range in.Results {
					def(r, p, lv.End[in])
				}
				loops = append(loops, in)
				walk(body)
				loops = loops[:len(loops)-1]
			case OpIf:
				for _, r := range in.Results {
					def(r, p, lv.End[in])
				}
				for _, blk := range in.Blocks {
					walk(blk)
				}
			default:
				for _, r := range in.Results {
					def(r, p, p)
				}
			}
			if in.Op == OpYield || in.Op == OpReturn {
				for _, a := range in.Args {
					extend(a, p+1)
				}
			}
		}
	}
	walk(f.Body)
	return lv
}

// Access is a load or store seen as the elements it touches: Width
// elements of Arr from the index Base + Off, the sum taken modulo 2^Bits
// (the index operand's width). Base is nil when the index is a constant.
// Where legalization split the index into limbs (Limbs > 1), Base and Off
// describe the least significant limb.
type Access struct {
	Instr *Instr
	Arr   *Array
	Base  *Value
	Off   uint64
	Bits  int
	Limbs int   // index operands
	Width int64 // elements: 1, or Aux/8 bytes for the byte-order loads and stores
	Store bool
}

// AccessOf describes a load or store (OpLoad, OpStore and their
// little- and big-endian forms); ok is false for any other instruction.
// The index is followed back through copies and additions of a constant
// (add, or the low limb's addc without carry in).
func AccessOf(in *Instr) (a Access, ok bool) {
	nidx := len(in.Args)
	switch in.Op {
	case OpLoad, OpLoadLE, OpLoadBE:
	case OpStore, OpStoreLE, OpStoreBE:
		nidx--
		a.Store = true
	default:
		return a, false
	}
	a.Instr, a.Arr, a.Limbs, a.Width = in, in.Arr, nidx, 1
	if in.Op >= OpLoadLE && in.Op <= OpStoreBE {
		a.Width = int64(in.Aux / 8)
	}
	idx := in.Args[0]
	a.Bits = idx.Type.Bits()
	a.Base, a.Off = baseOffset(idx)
	if a.Bits < 64 {
		a.Off &= 1<<a.Bits - 1
	}
	return a, true
}

// baseOffset writes v as base + off (base nil for a constant).
func baseOffset(v *Value) (*Value, uint64) {
	var off uint64
	for {
		d := v.Def
		if d == nil {
			return v, off
		}
		switch {
		case d.Op == OpConst:
			return nil, off + d.Aux
		case d.Op == OpCopy:
			v = d.Args[0]
			continue
		case d.Op == OpAdd || d.Op == OpAddC && v == d.Results[0] && isConst(d.Args[2], 0):
			if c := d.Args[1].Def; c != nil && c.Op == OpConst {
				off += c.Aux
				v = d.Args[0]
				continue
			}
			if c := d.Args[0].Def; c != nil && c.Op == OpConst {
				off += c.Aux
				v = d.Args[1]
				continue
			}
		}
		return v, off
	}
}

// Distance is b's index minus a's, when both index the same array from
// the same base value (or both from constants) and each index is one
// operand, so that the difference is known exactly.
func (a Access) Distance(b Access) (int64, bool) {
	if a.Arr != b.Arr || a.Base != b.Base || a.Limbs != 1 || b.Limbs != 1 || a.Bits != b.Bits {
		return 0, false
	}
	return signedDiff(b.Off, a.Off, a.Bits), true
}

// signedDiff is x - y modulo 2^bits, as a signed number.
func signedDiff(x, y uint64, bits int) int64 {
	return int64((x-y)<<(64-bits)) >> (64 - bits)
}

// Aliasing is the one rule of which memory accesses may touch the same
// element; its value says what callers may pass as array parameters.
//
// Two accesses may overlap only if they are to the same array, or to two
// parameters under SharedParams. Local arrays and constant tables are
// their own memory. In the same array (or two parameters taken as one),
// accesses whose indexes are the same base value plus constants overlap
// exactly when their element ranges do; any other pair may overlap.
type Aliasing uint8

const (
	// DistinctParams is the language's rule: an export's array
	// parameters are distinct arrays (the C ABI refuses overlapping
	// buffers at the entry).
	DistinctParams Aliasing = iota
	// SharedParams takes all array parameters to be one array: the caller
	// may pass the same buffer as several of them (a Java Card applet
	// places an export's output on its input, for an in-place
	// encryption).
	SharedParams
)

// MayOverlap reports whether accesses a and b may touch the same element.
func (r Aliasing) MayOverlap(a, b Access) bool {
	if a.Arr != b.Arr && (r != SharedParams || a.Arr.Kind != ArrParam || b.Arr.Kind != ArrParam) {
		return false
	}
	if a.Base != b.Base || a.Bits != b.Bits {
		return true
	}
	// b's first element minus a's, as a signed difference at the width of
	// the index (of its low limb: an overlap is a distance below the
	// widths, which the low limb gives exactly).
	d := signedDiff(b.Off, a.Off, a.Bits)
	return d < a.Width && -d < b.Width
}
