package mos6502

import (
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// TestMemoryLimit: local arrays that cannot fit the program's 51,200 bytes
// on their own are refused at once, at the largest array and before any
// code is generated (a 16 MB array took 21 s and 600 MB of memory to fail,
// a 128 MB one 200 s and 4.8 GB); a 50,000-byte local still runs and agrees
// with the VM; code + variables just over the memory give the size error.
func TestMemoryLimit(t *testing.T) {
	load := func(src string) *lang.Program {
		t.Helper()
		p := testprog.Source(t, "m.lw", src)
		return p
	}
	for _, c := range []struct{ name, src, want string }{
		{"16 MB", `module m
export fn f(x: u8) -> u8 effects none {
    var a: [256][65536]u8
    a[255][65535] = x
    return a[0][0] + a[255][65535]
}
`, "m.lw:3:5: mos6502: a call of f needs 16,777,216 bytes of local arrays (the largest a of f, 16,777,216 bytes); the whole program (code, tables, variables) has 51,200 bytes, $0800-$CFFF"},
		{"a chain of calls", `module m
fn g(x: u8) -> u8 {
    var b: [30000]u8
    b[x as u32] = x
    return b[3]
}
export fn f(x: u8) -> u8 effects none {
    var a: [21201]u8
    a[x as u32] = 1
    return a[2] + g(x)
}
`, "m.lw:3:5: mos6502: a call of f needs 51,201 bytes of local arrays (the largest b of g, 30,000 bytes, on the calls f -> g); the whole program (code, tables, variables) has 51,200 bytes, $0800-$CFFF"},
		{"code and variables", `module m
export fn f(x: u8) -> u8 effects none {
    var a: [51150]u8
    a[51149] = x
    return a[0] + a[51149]
}
`, "mos6502: program is about"},
	} {
		p := load(c.src)
		for _, opt := range []string{"", "size"} {
			_, err := compileArtifact(input(p), backend.Options{Emit: "asm", Opt: opt})
			if err == nil || len(err.Error()) < len(c.want) || err.Error()[:len(c.want)] != c.want {
				t.Errorf("%s, --opt %q: error %v\nwant %s", c.name, opt, err, c.want)
			}
		}
	}

	p := load(`module m
export fn f(x: u8) -> u8 effects none {
    var a: [50000]u8
    a[49999] = x
    a[(x as u32) * 100] = 7
    return a[0] + a[49999] + a[200]
}
`)
	prog, err := build(input(p), backend.Options{}, layout{org: runOrg, linear: true})
	if err != nil {
		t.Fatalf("50,000 bytes of arrays: %v", err)
	}
	fn := p.Export("f")
	args := []lang.Value{{Word: 2}}
	want, _, err := vm.Run(p, fn, args, vm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := (&Runner{prog: prog}).Run(fn.Name, args)
	if err != nil || got[0].Word != want[0].Word {
		t.Errorf("f(2) = %v, %v; want %d", got, err, want[0].Word)
	}
}
