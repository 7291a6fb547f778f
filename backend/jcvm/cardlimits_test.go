package jcvm

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
)

// TestCardStats: the figures of a one-method class worked out by hand
// (sload_0; bspush 7; sxor; sreturn is 5 bytes, its header 2, the
// Method component's handler count 1; the frame is 1 parameter cell and 2
// stack cells; the carry array is one short).
func TestCardStats(t *testing.T) {
	p := testprog.Source(t, "m.lw", "module m\nexport fn f(x: u16) -> u16 effects none { return x ^ 7 }\n")
	for _, noInt := range []bool{false, true} {
		var st backend.Stats
		if _, err := compileArtifact(input(p), backend.Options{NoInt: noInt, Emit: "jca", Stats: &st}); err != nil {
			t.Fatal(err)
		}
		want := "card=jcop4\nmethod_bytes=8\nstack_bytes=6\ntransient_bytes=2\npersistent_bytes=8\nclasses=1\nmethods=2\nint=false\nfits=true\n"
		if st.String() != want {
			t.Errorf("noInt=%v: stats\n%s\nwant\n%s", noInt, st, want)
		}
	}
}

// TestCardStackChain: the stack figure is the deepest chain of frames
// through the call graph, not the largest frame nor the sum of all.
func TestCardStackChain(t *testing.T) {
	mk := func(name string, stack, locals int, calls ...int32) *Method {
		m := &Method{Name: name, Ret: KVoid, Stack: stack, Locals: locals}
		for _, c := range calls {
			m.Code = append(m.Code, Insn{Op: opInvokestatic, A: c})
		}
		m.Code = append(m.Code, Insn{Op: opReturn})
		return m
	}
	// One field (the carry array), so method k is constant-pool entry k+1;
	// entry 6 is ISOException.throwIt.
	a := mk("a", 3, 10, 3, 4, 6) // 26 bytes, calls c, d and throwIt
	b := mk("b", 100, 100)       // 400 bytes, a leaf nobody calls
	c := mk("c", 2, 2, 5)        // 8 bytes, calls e
	d := mk("d", 20, 20)         // 80 bytes
	e := mk("e", 30, 40)         // 140 bytes
	cls := &Class{Name: "C", Fields: []*Arr{{Name: "carry", Elem: EShort, Len: 1}}, Methods: []*Method{a, b, c, d, e}}
	for i, m := range cls.Methods {
		m.Index = i
	}
	st, err := statsOf(cls)
	if err != nil {
		t.Fatal(err)
	}
	// b alone: 400; a > c > e: 26 + 8 + 140 = 174; a > d: 106.
	if st.stackBytes != 400 || len(st.chain) != 1 || st.chain[0] != b {
		t.Errorf("stack %d via %d methods; want 400 via b", st.stackBytes, len(st.chain))
	}
	b.Stack, b.Locals = 1, 1
	st, _ = statsOf(cls)
	var names []string
	for _, m := range st.chain {
		names = append(names, m.Name)
	}
	if st.stackBytes != 174 || strings.Join(names, ">") != "a>c>e" {
		t.Errorf("stack %d via %v; want 174 via a>c>e", st.stackBytes, names)
	}
	e.Code = append([]Insn{{Op: opInvokestatic, A: 1}}, e.Code...) // e calls a: a cycle
	if _, err := statsOf(cls); err == nil || !strings.Contains(err.Error(), "calls itself") {
		t.Errorf("a call cycle: %v", err)
	}
}

// TestCardLimits: compiling an artifact refuses a module over the card's
// limits, naming each limit and the five biggest methods; the stats come
// out all the same; --no-card-limits writes it; the simulator's runner
// does not refuse; a module within the limits compiles.
func TestCardLimits(t *testing.T) {
	sha := testprog.Stdlib(t, "sha256")
	// The standard library fits now: a module of long straight-line code
	// (about 40 KB; 108 KB of bytecode --no-int, in more than five
	// methods) does not.
	var src strings.Builder
	src.WriteString("module big\n\nexport fn big(a: mut [16]u32) effects none {\n")
	for i := 0; i < 1200; i++ {
		fmt.Fprintf(&src, "    a[%d] ^= (a[%d] + %d) >>> %d\n", i%16, (i*7+3)%16, i, i%31+1)
	}
	src.WriteString("}\n")
	big := testprog.Source(t, "big.lw", src.String())
	// One Input serves the three compilations below, as the driver's
	// serves one run: the module's IR is compiled once per plan.
	in := input(big)
	var st backend.Stats
	_, err := compileArtifact(in, backend.Options{NoInt: true, Emit: "jca", Stats: &st})
	var cle *CardLimitError
	if !errors.As(err, &cle) {
		t.Fatalf("big --no-int: %v; want a card limit error", err)
	}
	msg := err.Error()
	for _, s := range []string{"does not fit card jcop4", "Method component", "(limit 65,535)", "--no-card-limits"} {
		if !strings.Contains(msg, s) {
			t.Errorf("the error does not say %q: %s", s, msg)
		}
	}
	if len(cle.Biggest) != 5 {
		t.Errorf("biggest methods %v; want 5", cle.Biggest)
	}
	if !strings.Contains(st.String(), "fits=false\n") || !strings.Contains(st.String(), "method_bytes=") {
		t.Errorf("stats of the refused module: %s", st)
	}
	if _, err := compileArtifact(in, backend.Options{NoInt: true, Emit: "jca", NoCardLimits: true}); err != nil {
		t.Errorf("--no-card-limits: %v", err)
	}
	if _, err := prepare(in, backend.Options{NoInt: true}); err != nil {
		t.Errorf("the simulator refuses: %v", err)
	}
	if _, err := compileArtifact(input(sha), backend.Options{Emit: "java"}); err != nil {
		t.Errorf("sha256 with int fits jcop4: %v", err)
	}

	// Each limit by itself, on sha256 with int (6,126 bytes, a stack of
	// 266, 162 of RAM, 3 methods).
	cls, err := compileClass(input(sha), backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := statsOf(cls)
	if err != nil {
		t.Fatal(err)
	}
	jcop4 := Cards["jcop4"]
	if err := s.fits(cls, jcop4); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		set  func(l *Limits)
		want string
	}{
		{func(l *Limits) { l.MethodBytes = s.methodBytes - 1 }, "Method component"},
		{func(l *Limits) { l.StackBytes = s.stackBytes - 1 }, "Java stack of the deepest call chain"},
		{func(l *Limits) { l.TransientBytes = s.transientBytes - 1 }, "transient work arrays"},
		{func(l *Limits) { l.PersistentBytes = s.persistentBytes - 1 }, "persistent memory"},
		{func(l *Limits) { l.Int = false }, "int, which the card does not have"},
		{func(l *Limits) { l.MethodsPerClass = s.methods - 1 }, "methods in class Sha256"},
	} {
		card := jcop4
		c.set(&card.Limits)
		err := s.fits(cls, card)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Count(err.Error(), "(limit") > 1 {
			t.Errorf("%s: %v", c.want, err)
		}
	}
}
