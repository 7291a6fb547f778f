package jcvm

import (
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// TestInPlaceLoops: the export methods called with one array for src and
// dst (the same reference and offset, as the applet passes its argument
// area) give the reference VM's answer with separate buffers, with and
// without int.
func TestInPlaceLoops(t *testing.T) {
	p := testprog.Load(t, "../testdata/inplace.lw")
	for _, noInt := range []bool{false, true} {
		cls, err := compileClass(input(p), backend.Options{NoInt: noInt})
		if err != nil {
			t.Fatal(err)
		}
		s := newSim(cls)
		for _, e := range cls.Exports {
			f := e.Fn.(*ir.Function)
			for _, n := range []int{1, 5, 16, 33, 100} {
				in := lang.Value{IsArray: true}
				for i := 0; i < n; i++ {
					if e.Name == "chain" {
						in.Elems = append(in.Elems, uint64(byte(i*37+11)))
					} else {
						in.Elems = append(in.Elems, uint64(uint32(i*0x01000193+7)))
					}
				}
				want := lang.Value{IsArray: true, Elems: make([]uint64, n)}
				if _, _, err := vm.Run(p, p.Export(e.Name), []lang.Value{in, want}, vm.Options{}); err != nil {
					t.Fatal(err)
				}
				args := []lang.Value{in, {IsArray: true, Elems: make([]uint64, n)}}
				jargs, err := marshal(cls.W, f, args)
				if err != nil {
					t.Fatal(err)
				}
				s.resetArrays()
				var cells []int16
				var src *jarg
				var ref int16
				for i := range jargs {
					a := &jargs[i]
					switch a.Kind {
					case KRef:
						if src == nil {
							src = a
							arr := &simArray{elem: EShort, data: append([]int16(nil), a.Shorts...)}
							if a.Shorts == nil {
								arr = &simArray{elem: EByte, data: make([]int16, len(a.Bytes))}
								for k, b := range a.Bytes {
									arr.data[k] = int16(int8(b))
								}
							}
							ref = s.newArray(arr)
						}
						cells = append(cells, ref) // dst is src's array
					case KInt:
						cells = append(cells, int16(a.Val>>16), int16(a.Val))
					default:
						cells = append(cells, int16(a.Val))
					}
				}
				if _, err := s.call(e.Method, cells); err != nil {
					t.Fatalf("%s noint=%v, %d elements: %v", e.Name, noInt, n, err)
				}
				// The shared array is what both arguments hold now.
				d := s.arrays[ref-1].data
				for i := range jargs {
					a := &jargs[i]
					if a.Kind != KRef {
						continue
					}
					if a.Shorts != nil {
						copy(a.Shorts, d)
					}
					for k := range a.Bytes {
						a.Bytes[k] = byte(d[k])
					}
				}
				if _, err := unmarshal(cls.W, f, args, jargs, retVal{}); err != nil {
					t.Fatal(err)
				}
				elems := args[1].Elems
				for i, w := range want.Elems {
					if i >= len(elems) || elems[i] != w {
						t.Errorf("%s noint=%v, %d elements, in place: %v, want %v", e.Name, noInt, n, elems, want.Elems)
						break
					}
				}
			}
		}
	}
}
