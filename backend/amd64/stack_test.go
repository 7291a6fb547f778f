package amd64

import (
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// TestStackLimit: an export whose local arrays (its own and its callees')
// take 1 MiB runs natively and agrees with the VM; one byte of array more
// on a chain of calls is refused at compile time, naming the largest array,
// instead of a driver killed by a stack overflow ("EOF").
func TestStackLimit(t *testing.T) {
	const fits = `module fits
fn g(x: u8) -> u8 {
    var b: [65536]u8
    for i in 0..65536 { b[i] = (i as u8) ^ x }
    return b[(x as u32) * 251]
}
export fn f(x: u8) -> u8 effects none {
    var a: [15][65536]u8
    for i in 0..15 {
        for j in 0..65536 { a[i][j] = (i as u8) + (j as u8) + x }
    }
    return a[x as u32 % 15][(x as u32) * 257] ^ g(x)
}
`
	p := testprog.Source(t, "fits.lw", fits)
	r, err := Prepare(input(p), backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fn := p.Export("f")
	args := []lang.Value{{Word: 200}}
	want, _, err := vm.Run(p, fn, args, vm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := r.Run(fn.Name, args)
	if err != nil {
		t.Fatalf("1 MiB of arrays: %v", err)
	}
	if got[0].Word != want[0].Word {
		t.Errorf("1 MiB of arrays: f(200) = %d, want %d", got[0].Word, want[0].Word)
	}

	const over = `module over
fn g(x: u8) -> u8 {
    var b: [65536]u8
    var c: [1]u8
    b[x as u32] = x
    return b[3] ^ c[0]
}
export fn f(x: u8) -> u8 effects none {
    var a: [15][65536]u8
    a[0][x as u32] = 1
    return a[0][2] + g(x)
}
`
	p = testprog.Source(t, "over.lw", over)
	_, err = Compile(input(p), backend.Options{Emit: "ll"})
	const msg = "over.lw:9:5: amd64: a call of f keeps 1,048,577 bytes of local arrays on the stack (the largest a of f, 983,040 bytes, on the calls f -> g); the limit is 1,048,576 (1 MiB)"
	if err == nil || err.Error() != msg {
		t.Errorf("1 MiB + 1 of arrays: error %v\nwant %s", err, msg)
	}
}
