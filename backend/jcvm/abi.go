package jcvm

import (
	"fmt"

	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

// The calling convention of an export's method, shared by the JVM driver
// and the simulator: a word parameter is its limbs (shorts, or ints at
// W=32), a byte array is (byte[] a, short aOff) and a slice also passes
// its length. Test runners place every array at offset padFront inside a
// larger array, so the offsets are exercised.

const padFront, padBack = 3, 2

// jarg is one argument of a method call.
type jarg struct {
	Kind  Kind   // KShort, KInt or KRef
	Val   int32  // KShort, KInt
	Bytes []byte // KRef: the whole array, padding included
	Param int    // KRef: the source parameter
}

// marshal converts lang arguments to the method's arguments.
func marshal(w int, f *ir.Function, args []lang.Value) ([]jarg, error) {
	if len(args) != len(f.Sig.Params) {
		return nil, fmt.Errorf("%s takes %d arguments, got %d", f.Name, len(f.Sig.Params), len(args))
	}
	if len(f.Params) != len(f.Sig.Params) && !allScalarSplit(f) {
		return nil, fmt.Errorf("jcvm: %s: array results are not supported", f.Name)
	}
	var out []jarg
	for i, sp := range f.Sig.Params {
		a := args[i]
		if !sp.Array {
			n := 1
			if sp.Type.Bits() > w {
				n = sp.Type.Bits() / w
			}
			for j := 0; j < n; j++ {
				limb := a.Word >> uint(j*w)
				if w == 32 && (sp.Type == ir.U32 || sp.Type == ir.U64) {
					out = append(out, jarg{Kind: KInt, Val: int32(uint32(limb))})
				} else {
					out = append(out, jarg{Kind: KShort, Val: int32(int16(uint16(limb)))})
				}
			}
			continue
		}
		if sp.Type != ir.U8 {
			return nil, fmt.Errorf("jcvm: %s: parameter %s: only byte arrays cross the interface", f.Name, sp.Name)
		}
		b := make([]byte, padFront+len(a.Elems)+padBack)
		for k := range b {
			b[k] = byte(0xc3 ^ k)
		}
		for k, e := range a.Elems {
			b[padFront+k] = byte(e)
		}
		out = append(out, jarg{Kind: KRef, Bytes: b, Param: i}, jarg{Kind: KShort, Val: padFront})
		if sp.Slice {
			out = append(out, jarg{Kind: KShort, Val: int32(len(a.Elems))})
		}
	}
	return out, nil
}

func allScalarSplit(f *ir.Function) bool {
	for _, sp := range f.Sig.Params {
		if sp.Array {
			return false
		}
	}
	return true
}

// unmarshal copies mut arrays back into args and converts the result.
func unmarshal(f *ir.Function, args []lang.Value, jargs []jarg, ret int32, hasRet bool) ([]lang.Value, error) {
	for _, ja := range jargs {
		if ja.Kind != KRef || !f.Sig.Params[ja.Param].Mut {
			continue
		}
		el := args[ja.Param].Elems
		for k := range el {
			el[k] = uint64(ja.Bytes[padFront+k])
		}
	}
	var res []lang.Value
	for _, r := range f.Sig.Results {
		if r.Array || !hasRet || r.Type.Bits() > 32 {
			return nil, fmt.Errorf("jcvm: %s: result of type %s is not supported", f.Name, r.Type)
		}
		res = append(res, lang.Value{Word: uint64(uint32(ret)) & r.Type.Mask()})
	}
	return res, nil
}
