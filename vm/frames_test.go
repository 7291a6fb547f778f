package vm_test

import (
	"bytes"
	"crypto/sha256"
	"strings"
	"sync"
	"testing"

	"github.com/lowent/lowentc/lang"
)

const framesSrc = `module frames

fn add3(a: u32, b: u32, c: u32) -> u32 {
    return a + b * c
}

fn mix(a: u32) -> u32 {
    var t: [2]u32 = [a, a + 1]
    return t[0] * t[1]
}

fn sum4(x: [4]u32) -> u32 {
    return x[0] + x[1] + x[2] + x[3]
}

// Calls of a function inside the arguments of the same function must not
// share its frame or its local arrays.
export fn nested(x: u32, y: u32) -> (u32, u32, u32) effects none {
    let a = add3(x, add3(y, 1, 2), add3(3, 4, 5))
    let m = mix(mix(x))
    let s = sum4([x, mix(y), sum4([1, 2, 3, 4]), y])
    return a, m, s
}
`

func TestNestedCallsOfOneFunction(t *testing.T) {
	p := load(t, framesSrc)
	x, y := uint64(7), uint64(11)
	add3 := func(a, b, c uint64) uint64 { return (a + b*c) & 0xffffffff }
	mix := func(a uint64) uint64 { return (a * (a + 1)) & 0xffffffff }
	want := []uint64{
		add3(x, add3(y, 1, 2), add3(3, 4, 5)),
		mix(mix(x)),
		(x + mix(y) + 10 + y) & 0xffffffff,
	}
	got := words(call(t, p, "nested", w(x), w(y)))
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("nested result %d = %d, want %d", i, got[i], want[i])
		}
	}
}

// TestProvenIndexStillChecked pretends the checker proved an index that is in
// fact out of range: the VM must still trap, and say it is a checker bug.
func TestProvenIndexStillChecked(t *testing.T) {
	p := load(t, `module proven

export fn at(s: []u32, i: u32) -> u32 effects trap {
    return s[i]
}
`)
	var found bool
	for _, f := range p.Root.Funcs {
		ret := f.Body.Stmts[0].(*lang.ReturnStmt)
		if ix, ok := ret.Values[0].(*lang.IndexExpr); ok {
			ix.Checked = false
			found = true
		}
	}
	if !found {
		t.Fatal("no index expression found")
	}
	_, err := try(t, p, "at", arr(1, 2), w(2))
	if tr := trapOf(t, err); !strings.Contains(tr.Msg, "checker bug") {
		t.Errorf("trap message %q does not mention the checker bug", tr.Msg)
	}
}

// TestProvenDivisorStillChecked pretends the checker proved non-zero a
// divisor that is zero, in x / d, in x /= d on a local and in v[i] %= d
// on an array element: each must trap, and every one of them say it is a
// checker bug (compound assignments used to trap without saying so).
func TestProvenDivisorStillChecked(t *testing.T) {
	p := load(t, `module proven

export fn div(a: u32, d: u32) -> u32 effects trap {
    return a / d
}

export fn divloc(a: u32, d: u32) -> u32 effects trap {
    var x = a
    x /= d
    return x
}

export fn remelem(a: u32, d: u32) -> u32 effects trap {
    var v: [2]u32
    v[1] = a
    v[1] %= d
    return v[1]
}
`)
	marked := 0
	for _, f := range p.Root.Funcs {
		for _, st := range f.Body.Stmts {
			switch s := st.(type) {
			case *lang.ReturnStmt:
				if b, ok := s.Values[0].(*lang.BinaryExpr); ok && b.Checked {
					b.Checked = false
					marked++
				}
			case *lang.AssignStmt:
				if s.Checked {
					s.Checked = false
					marked++
				}
			}
		}
	}
	if marked != 3 {
		t.Fatalf("%d checked divisions found, want 3", marked)
	}
	for _, name := range []string{"div", "divloc", "remelem"} {
		_, err := try(t, p, name, w(7), w(0))
		if tr := trapOf(t, err); !strings.Contains(tr.Msg, "checker bug") {
			t.Errorf("%s: trap message %q does not mention the checker bug", name, tr.Msg)
		}
	}
}

// TestConcurrentRuns shares one program between goroutines (run with -race).
func TestConcurrentRuns(t *testing.T) {
	p := load(t, shaSource())
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			msg := testMessage(1000 + 37*g)
			want := sha256.Sum256(msg)
			if got, _, err := shaRun(p, msg); err != nil || !bytes.Equal(got, want[:]) {
				t.Errorf("goroutine %d: sha256 = %x (%v), want %x", g, got, err, want)
			}
		})
	}
	wg.Wait()
}
