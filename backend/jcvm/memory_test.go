package jcvm

import (
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/driver"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// TestMemoryLimits: arrays no Java Card array can hold, and work arrays
// beyond the class's transient RAM, are refused at compile time (at the
// declaration when one array is too large), at both widths, where they
// used to compile and then throw ArrayIndexOutOfBoundsException (or, in
// Java, make an array of a negative size); work arrays of exactly the
// limit run and agree with the VM.
func TestMemoryLimits(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"local of 40,000 bytes", `module m
export fn f(x: u8) -> u8 effects none {
    var a: [40000]u8
    a[39999] = x
    return a[0] + a[39999]
}
`, "m.lw:3:5: jcvm: local array a of 40,000 elements takes 40,000 bytes; a Java Card array holds at most 32,767"},
		{"parameter of 40,000 shorts", `module m
export fn f(a: [20000]u32) -> u32 effects none { return a[1] }
`, "m.lw:2:13: jcvm: parameter a of 20,000 elements takes 40,000 shorts; a Java Card array holds at most 32,767"},
		{"result", `module m
export fn f(x: u64) -> [8192]u64 effects none { var r: [8192]u64 return r }
`, "m.lw:2:24: jcvm: result of f of 8,192 elements takes 32,768 shorts; a Java Card array holds at most 32,767"},
		{"local over the transient RAM", `module m
export fn f(x: u16) -> u16 effects none {
    var a: [2100]u16
    a[x as u32 % 2100] = x
    return a[7]
}
`, "m.lw:3:5: jcvm: local array a takes 4,200 bytes of transient RAM; the class's work arrays may take at most 4,096"},
		{"work arrays over the transient RAM", `module m
fn g(x: u8) -> u8 {
    var b: [3000]u8
    b[x as u32] = x
    return b[3]
}
export fn f(x: u8) -> u8 effects none {
    var a: [1095]u8
    a[x as u32] = 1
    return a[2] + g(x)
}
`, "jcvm: the class's transient work arrays take 4,097 bytes (the largest: f_g_b, 3,000 bytes); the limit is 4,096"},
	} {
		p, ds := driver.LoadSource("m.lw", []byte(c.src))
		if len(ds) > 0 {
			t.Fatalf("%s: %v", c.name, ds)
		}
		for _, noInt := range []bool{false, true} {
			_, err := compileArtifact(input(p), backend.Options{NoInt: noInt})
			if err == nil || err.Error() != c.want {
				t.Errorf("%s, noInt=%v: error %v\nwant %s", c.name, noInt, err, c.want)
			}
			if _, err2 := prepare(input(p), backend.Options{NoInt: noInt}); err2 == nil || err == nil || err2.Error() != err.Error() {
				t.Errorf("%s, noInt=%v: the runner says %v", c.name, noInt, err2)
			}
		}
	}

	// Near the limit: 4,094 bytes of a, the 2 of the carry array, and
	// no spill array (the loop is not unrolled).
	const fits = `module m
export fn f(x: u8) -> u8 effects none {
    var a: [4094]u8
    for i in 0..(x as u32) * 16 + 14 { a[i] = (i as u8) ^ x }
    return a[(x as u32) * 16] + a[4093]
}
`
	p := testprog.Source(t, "m.lw", fits)
	fn := p.Export("f")
	args := []lang.Value{{Word: 255}}
	want, _, err := vm.Run(p, fn, args, vm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, noInt := range []bool{false, true} {
		r, err := prepare(input(p), backend.Options{NoInt: noInt})
		if err != nil {
			t.Fatalf("noInt=%v: 4,096 bytes of work arrays: %v", noInt, err)
		}
		got, _, err := r.Run(fn.Name, args)
		if err != nil || got[0].Word != want[0].Word {
			t.Errorf("noInt=%v: f(255) = %v, %v; want %d", noInt, got, err, want[0].Word)
		}
	}
}
