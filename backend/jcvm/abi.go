package jcvm

import (
	"fmt"

	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

// The calling convention of an export's method, shared by the JVM driver
// and the simulator: a word parameter is its limbs (shorts, or ints at
// W=32), least significant first; an array is (a, aOff) and a slice also
// passes its length in elements. Arrays of u8 or bool limbs are byte[],
// of u16 limbs short[], of u32 limbs short[] with two shorts per limb
// (high first). An array result is a hidden trailing array parameter the
// method fills. One result limb is the method's value; more come back
// through the class's carry array (shorts, an int as two, high first).
// Test runners place every array at offset padFront inside a larger array,
// so the offsets are exercised.

const padFront, padBack = 3, 2

// jarg is one argument of a method call.
type jarg struct {
	Kind   Kind    // KShort, KInt or KRef
	Val    int32   // KShort, KInt
	Bytes  []byte  // KRef to a byte[]: the whole array, padding included
	Shorts []int16 // KRef to a short[]: the whole array, padding included
	Param  int     // KRef: the source parameter (-1 for an array result)
	FParam int     // KRef: the index of the array in the IR function's Params
}

// limbsOf is how many limbs of width w a scalar of type t takes.
func limbsOf(w int, t ir.Type) int {
	if t.Bits() <= w {
		return 1
	}
	return t.Bits() / w
}

// marshal converts lang arguments to the method's arguments.
func marshal(w int, f *ir.Function, args []sem.Value) ([]jarg, error) {
	if len(args) != len(f.Sig.Params) {
		return nil, fmt.Errorf("%s takes %d arguments, got %d", f.Name, len(f.Sig.Params), len(args))
	}
	var out []jarg
	pi := 0
	for i, sp := range f.Sig.Params {
		a := args[i]
		if !sp.Array {
			n := limbsOf(w, sp.Type)
			if pi+n > len(f.Params) {
				return nil, fmt.Errorf("BUG: jcvm: parameters of %s do not match its signature", f.Name)
			}
			for j := 0; j < n; j++ {
				limb := a.Word >> uint(j*w)
				if f.Params[pi+j].Val == nil {
					return nil, fmt.Errorf("BUG: jcvm: parameters of %s do not match its signature", f.Name)
				}
				if f.Params[pi+j].Val.Type == ir.U32 {
					out = append(out, jarg{Kind: KInt, Val: int32(uint32(limb))})
				} else {
					out = append(out, jarg{Kind: KShort, Val: int32(int16(uint16(limb)))})
				}
			}
			pi += n
			continue
		}
		if pi >= len(f.Params) || f.Params[pi].Arr == nil {
			return nil, fmt.Errorf("BUG: jcvm: parameters of %s do not match its signature", f.Name)
		}
		if err := fitsCardArray(f.Params[pi].Arr, sp.Name, len(a.Elems)); err != nil {
			return nil, err
		}
		out = append(out, arrayArg(f.Params[pi].Arr, i, pi, a.Elems, w)...)
		pi++
	}
	// The hidden parameters of array results start zeroed.
	for ; pi < len(f.Params); pi++ {
		p := f.Params[pi].Arr
		if p == nil {
			return nil, fmt.Errorf("BUG: jcvm: parameters of %s do not match its signature", f.Name)
		}
		out = append(out, arrayArg(p, -1, pi, make([]uint64, p.Len/max(p.Per, 1)), w)...)
	}
	return out, nil
}

// maxArrayLen is the largest Java Card array: its length is a short.
const maxArrayLen = 32767

// cellsPerElem is how many Java array elements (bytes or shorts) one
// element of IR array p takes.
func cellsPerElem(p *ir.Array) int {
	per := max(p.Per, 1)
	if p.Elem == ir.U32 {
		return 2 * per
	}
	return per
}

// maxArgElems is the most elements an argument passed as IR array p can
// have: the runners place it at offset padFront in a Java array with
// padBack cells after it, and that array holds at most maxArrayLen.
func maxArgElems(p *ir.Array) int {
	return (maxArrayLen - padFront - padBack) / cellsPerElem(p)
}

// fitsCardArray refuses an argument of n elements that no Java Card array
// can hold: passing it would cut its length to 16 bits.
func fitsCardArray(p *ir.Array, name string, n int) error {
	limit := maxArgElems(p)
	if n <= limit {
		return nil
	}
	unit := "elements"
	if p.Elem == ir.U8 || p.Elem == ir.Bool {
		unit = "bytes"
	}
	return fmt.Errorf("jcvm: %s has %s %s; a Java Card array holds at most %s %s, and the runner places an argument at offset %d with %d after it, so this parameter takes at most %s %s",
		name, sem.Thousands(int64(n)), unit, sem.Thousands(maxArrayLen), map[bool]string{true: "bytes", false: "shorts"}[unit == "bytes"], padFront, padBack, sem.Thousands(int64(limit)), unit)
}

// arrayArg is the arguments passing elems as IR array p (source parameter
// si, IR parameter pi): the padded Java array, the offset and, for a
// slice, the length.
func arrayArg(p *ir.Array, si, pi int, elems []uint64, w int) []jarg {
	limbs := toLimbs(elems, p.Per, w)
	ref := jarg{Kind: KRef, Param: si, FParam: pi}
	switch p.Elem {
	case ir.U8, ir.Bool:
		ref.Bytes = make([]byte, padFront+len(limbs)+padBack)
		for k := range ref.Bytes {
			ref.Bytes[k] = byte(0xc3 ^ k)
		}
		for k, e := range limbs {
			ref.Bytes[padFront+k] = byte(e)
		}
	default:
		per := 1 // shorts per limb
		if p.Elem == ir.U32 {
			per = 2
		}
		ref.Shorts = make([]int16, padFront+per*len(limbs)+padBack)
		for k := range ref.Shorts {
			ref.Shorts[k] = int16(0x5ac3 ^ k)
		}
		for k, e := range limbs {
			if per == 2 {
				ref.Shorts[padFront+2*k] = int16(uint16(e >> 16))
				ref.Shorts[padFront+2*k+1] = int16(uint16(e))
			} else {
				ref.Shorts[padFront+k] = int16(uint16(e))
			}
		}
	}
	out := []jarg{ref, {Kind: KShort, Val: padFront}}
	if p.IsSlice() {
		out = append(out, jarg{Kind: KShort, Val: int32(len(elems))})
	}
	return out
}

// arrayLimbs reads back the limbs of a KRef argument of IR array p.
func arrayLimbs(p *ir.Array, ja jarg, n int) []uint64 {
	limbs := make([]uint64, n)
	for k := range limbs {
		switch {
		case ja.Bytes != nil:
			limbs[k] = uint64(ja.Bytes[padFront+k])
		case p.Elem == ir.U32:
			limbs[k] = uint64(uint16(ja.Shorts[padFront+2*k]))<<16 | uint64(uint16(ja.Shorts[padFront+2*k+1]))
		default:
			limbs[k] = uint64(uint16(ja.Shorts[padFront+k]))
		}
	}
	return limbs
}

// toLimbs splits each element into per limbs of width w, least significant
// first.
func toLimbs(elems []uint64, per, w int) []uint64 {
	per = max(per, 1)
	out := make([]uint64, 0, len(elems)*per)
	for _, e := range elems {
		for j := 0; j < per; j++ {
			l := e >> uint(j*w)
			if per > 1 {
				l &= 1<<uint(w) - 1
			}
			out = append(out, l)
		}
	}
	return out
}

// fromLimbs joins limbs, per to an element, into elems.
func fromLimbs(limbs []uint64, per, w int, elems []uint64) {
	per = max(per, 1)
	for i := range elems {
		var x uint64
		for j := 0; j < per; j++ {
			x |= limbs[i*per+j] << uint(j*w)
		}
		elems[i] = x
	}
}

// retVal is what a method call gave back: its value (ret, when hasRet) and
// the carry array's contents after it.
type retVal struct {
	ret    int32
	hasRet bool
	carry  []int16
}

// unmarshal copies mut arrays back into args and converts the results.
func unmarshal(w int, f *ir.Function, args []sem.Value, jargs []jarg, rv retVal) ([]sem.Value, error) {
	hidden := map[int][]uint64{} // index in f.Params of an array result -> its limbs
	for _, ja := range jargs {
		if ja.Kind != KRef {
			continue
		}
		p := f.Params[ja.FParam].Arr
		switch {
		case ja.Param < 0:
			hidden[ja.FParam] = arrayLimbs(p, ja, p.Len)
		case f.Sig.Params[ja.Param].Mut:
			el := args[ja.Param].Elems
			fromLimbs(arrayLimbs(p, ja, len(el)*max(p.Per, 1)), p.Per, w, el)
		}
	}
	// The result limbs, in order.
	var limbs []uint64
	switch {
	case len(f.Results) == 1 && rv.hasRet:
		limbs = []uint64{uint64(uint32(rv.ret)) & f.Results[0].Mask()}
	case len(f.Results) == 1:
		return nil, fmt.Errorf("BUG: jcvm: %s returned no value", f.Name)
	case len(f.Results) > 1:
		k := 0
		for _, t := range f.Results {
			var x uint64
			if t == ir.U32 {
				if k+2 > len(rv.carry) {
					return nil, fmt.Errorf("BUG: jcvm: %s: the carry array is too short", f.Name)
				}
				x = uint64(uint16(rv.carry[k]))<<16 | uint64(uint16(rv.carry[k+1]))
				k += 2
			} else {
				if k+1 > len(rv.carry) {
					return nil, fmt.Errorf("BUG: jcvm: %s: the carry array is too short", f.Name)
				}
				x = uint64(uint16(rv.carry[k]))
				k++
			}
			limbs = append(limbs, x&t.Mask())
		}
	}
	hiddenAt := len(f.Params) - len(hidden)
	var res []sem.Value
	for _, r := range f.Sig.Results {
		if r.Array {
			p := f.Params[hiddenAt].Arr
			elems := make([]uint64, r.Len)
			fromLimbs(hidden[hiddenAt], p.Per, w, elems)
			res = append(res, sem.Value{Elems: elems, IsArray: true})
			hiddenAt++
			continue
		}
		n := limbsOf(w, r.Type)
		if len(limbs) < n {
			return nil, fmt.Errorf("BUG: jcvm: %s returned %d limbs", f.Name, len(limbs))
		}
		var x uint64
		for j := 0; j < n; j++ {
			x |= limbs[j] << uint(j*w)
		}
		limbs = limbs[n:]
		res = append(res, sem.Value{Word: x & r.Type.Mask()})
	}
	return res, nil
}
