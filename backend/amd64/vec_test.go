package amd64

import (
	"fmt"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// vecOrderSrc stores word pairs the vector selection joins into one
// 16-byte store at the second one's place, with a store between them that
// may hit the first word: it must not be overtaken.
const vecOrderSrc = `module vorder

export fn words(a: mut [4]u64, j: u64) -> u64 effects none {
    a[0] = 1
    a[j & 3] = 2
    a[1] = 3
    return 0
}

export fn blocks(a: mut [8]u64, k: [2]u64, j: u64) -> u64 effects none {
    let (s0, s1) = aes_enc(a[0], a[1], k[0], k[1])
    let (t0, t1) = aes_enc(a[2], a[3], k[0], k[1])
    a[0] = s0
    a[2] = t0
    a[j & 7] = 7
    a[1] = s1
    a[3] = t1
    return 0
}

export fn bytes(a: mut [24]u8, j: u64, x: u64) -> u64 effects none {
    store_le64(a, 0, x)
    store_le64(a, j & 15, x ^ 0xffff)
    store_le64(a, 8, x + 1)
    return load_le64(a, 4)
}
`

// TestVecStoreOrder checks the store pairing against the VM for every
// position of the store in between.
func TestVecStoreOrder(t *testing.T) {
	p := testprog.Source(t, "vorder.lw", vecOrderSrc)
	for _, hw := range []string{"none", "aes", "auto"} {
		r, err := Prepare(input(p), backend.Options{HW: hw})
		if err != nil {
			t.Fatalf("--hw %s: %v", hw, err)
		}
		for _, fn := range p.Exports() {
			for j := uint64(0); j < 16; j++ {
				args := vecOrderArgs(fn, j)
				got, want := againstVM(t, p, r, fn, args)
				if got != want {
					t.Errorf("--hw %s %s j=%d: got %s, the VM %s", hw, fn.Name, j, got, want)
				}
			}
		}
		r.Close()
	}
}

// vecOrderArgs are distinct array contents and j.
func vecOrderArgs(fn *lang.FuncDecl, j uint64) []lang.Value {
	var args []lang.Value
	for _, prm := range fn.Params {
		at, ok := prm.Type.(*lang.ArrayType)
		if !ok {
			args = append(args, lang.Value{Word: j})
			continue
		}
		v := lang.Value{IsArray: true}
		for i := 0; i < at.Len; i++ {
			v.Elems = append(v.Elems, uint64(i+1)*0x11&0xff)
		}
		args = append(args, v)
	}
	return args
}

// vecOrderRun runs one call on a copy of args and returns its results and
// array arguments afterwards.
func vecOrderRun(t *testing.T, fn *lang.FuncDecl, args []lang.Value, run func([]lang.Value) ([]lang.Value, error)) []lang.Value {
	t.Helper()
	cp := lang.CopyValues(args)
	res, err := run(cp)
	if err != nil {
		t.Fatalf("%s: %v", fn.Name, err)
	}
	return append(res, cp...)
}

// againstVM calls fn with args in r and in the VM and returns what each
// gave as text (the results, then the arrays as the call left them): r's
// first, then the VM's.
func againstVM(t *testing.T, p *lang.Program, r *Runner, fn *lang.FuncDecl, args []lang.Value) (got, want string) {
	t.Helper()
	want = fmt.Sprint(vecOrderRun(t, fn, args, func(a []lang.Value) ([]lang.Value, error) {
		res, _, err := vm.Run(p, fn, a, vm.Options{})
		return res, err
	}))
	got = fmt.Sprint(vecOrderRun(t, fn, args, func(a []lang.Value) ([]lang.Value, error) {
		res, _, err := r.Run(fn.Name, a)
		return res, err
	}))
	return got, want
}
