package jcvm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// jcaLoad compiles p, prints its .jca (changed by edit, when not nil) and
// loads the class back from the text alone; the exports are matched by
// name (and descriptor) with the compiled class's, whose IR functions give
// the argument codec.
func jcaLoad(p *lang.Program, opts backend.Options, edit func(string) string) (*Class, string, error) {
	cls, err := classOf(p, opts)
	if err != nil {
		return nil, "", err
	}
	text, err := jcaArtifact(cls, opts)
	if err != nil {
		return nil, "", err
	}
	if edit != nil {
		text = []byte(edit(string(text)))
	}
	f, err := parseJCA(string(text))
	if err != nil {
		return nil, "", err
	}
	loaded, err := loadJCA(f, cls.W)
	if err != nil {
		return nil, "", err
	}
	if loaded.Carry == nil {
		return nil, "", fmt.Errorf("the .jca has no carry field")
	}
	for _, e := range cls.Exports {
		var m *Method
		for _, lm := range loaded.Methods {
			if lm.Name == e.Method.Name {
				m = lm
			}
		}
		if m == nil || !m.Export || descriptor(m) != descriptor(e.Method) {
			return nil, "", fmt.Errorf("the .jca has no public method %s%s", e.Method.Name, descriptor(e.Method))
		}
		loaded.Exports = append(loaded.Exports, &Export{Name: e.Name, Method: m, Fn: e.Fn})
	}
	return loaded, string(text), nil
}

// TestGoldenJCA runs the whole golden suite (the official vectors and
// random inputs, every export) on the simulator loaded from the parsed
// text of --emit jca, with ints and with --no-int; and BLAKE2b's cases
// under the storage layouts that put a constant table (SIGMA) in the
// class and, with --storage arrays at W=32, int arrays init() allocates.
func TestGoldenJCA(t *testing.T) {
	cases := golden.Cases(golden.Seed(t))
	var blake []golden.Case
	for _, c := range cases {
		if c.Module == "blake2b" {
			blake = append(blake, c)
		}
	}
	for _, v := range []struct {
		opts  backend.Options
		cases []golden.Case
	}{
		{backend.Options{}, cases},
		{backend.Options{NoInt: true}, cases},
		{backend.Options{Storage: "locals"}, blake},
		{backend.Options{Storage: "arrays"}, blake},
		{backend.Options{Storage: "pairs", NoInt: true}, blake},
	} {
		t.Run(fmt.Sprintf("noint=%v/storage=%s", v.opts.NoInt, v.opts.Storage), func(t *testing.T) {
			golden.Run(t, jcaRunner(v.opts, nil), v.cases)
		})
	}
}

// jcaRunner is a golden runner on the simulator loaded from each module's
// .jca; edit, when not nil, changes the text before it is parsed.
func jcaRunner(opts backend.Options, edit func(string) string) golden.Runner {
	type loaded struct {
		cls *Class
		sim *Sim
		err error
	}
	var mu sync.Mutex
	byProg := map[*lang.Program]*loaded{}
	return func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
		mu.Lock()
		defer mu.Unlock()
		l, ok := byProg[p]
		if !ok {
			l = &loaded{}
			l.cls, _, l.err = jcaLoad(p, opts, edit)
			if l.err == nil {
				l.sim = newSim(l.cls)
			}
			byProg[p] = l
		}
		if l.err != nil {
			return nil, l.err
		}
		exp := exportOf(l.cls, fn.Name)
		if exp == nil {
			return nil, fmt.Errorf("no export %s in the .jca", fn.Name)
		}
		return simCall(l.sim, l.cls, exp, args)
	}
}

// TestJCATextIsWhatRuns: an edit of the printed text (an opcode, a
// value of a constant table) changes what the simulator computes, so the
// golden suite above checks the text, not the compiler's memory.
func TestJCATextIsWhatRuns(t *testing.T) {
	var ps golden.Programs
	sha := golden.SHA256Case("sha256/abc", []byte("abc"))
	for _, tc := range []struct {
		c        golden.Case
		opts     backend.Options
		from, to string
	}{
		{sha, backend.Options{}, "\tixor;\n", "\tior;\n"},
		// The round constants: without int SHA-256's rounds stay a loop
		// that reads them, low limbs first (with int they unroll: growUnroll).
		{sha, backend.Options{NoInt: true}, "K = {12184, 17034,", "K = {12185, 17034,"},
	} {
		if err := golden.RunCase(&ps, jcaRunner(tc.opts, nil), tc.c); err != nil {
			t.Fatalf("%s unedited: %v", tc.c.Name, err)
		}
		edit := func(s string) string {
			if !strings.Contains(s, tc.from) {
				t.Fatalf("%s: no %q in the .jca", tc.c.Name, tc.from)
			}
			return strings.ReplaceAll(s, tc.from, tc.to)
		}
		if err := golden.RunCase(&ps, jcaRunner(tc.opts, edit), tc.c); err == nil {
			t.Errorf("%s: the result did not change when the .jca's %q became %q", tc.c.Name, tc.from, tc.to)
		}
	}
}

// TestJCAReadsStdlib parses and loads the .jca of every stdlib module at
// both widths, and checks that the loaded class is the compiled one:
// the same fields (sizes and constant data) and methods (parameters,
// .stack, .locals and bytecode, labels and constant-pool indexes aside).
func TestJCAReadsStdlib(t *testing.T) {
	for _, noInt := range []bool{false, true} {
		for _, mod := range stdlibModules {
			p := testprog.Stdlib(t, mod)
			opts := backend.Options{NoInt: noInt}
			loaded, _, err := jcaLoad(p, opts, nil)
			if err != nil {
				t.Errorf("%s noInt=%v: %v", mod, noInt, err)
				continue
			}
			cls := stdlibClass(t, mod, opts)
			if msg := sameClass(cls, loaded); msg != "" {
				t.Errorf("%s noInt=%v: the class loaded from the .jca differs: %s", mod, noInt, msg)
			}
		}
	}
}

// sameClass compares a compiled class with one loaded from its .jca.
func sameClass(c, l *Class) string {
	if len(c.Fields) != len(l.Fields) || len(c.Methods) != len(l.Methods) {
		return fmt.Sprintf("%d fields and %d methods, want %d and %d", len(l.Fields), len(l.Methods), len(c.Fields), len(c.Methods))
	}
	for i, a := range c.Fields {
		b := l.Fields[i]
		n := a.Len
		if a.Wide {
			n *= 2
		}
		if a.Data != nil {
			n = b.Len
		}
		if a.Name != b.Name || a.Elem != b.Elem || n != b.Len || fmt.Sprint(a.Data) != fmt.Sprint(b.Data) {
			return fmt.Sprintf("field %d: %s %v len %d, want %s %v len %d", i, b.Name, b.Elem, b.Len, a.Name, a.Elem, n)
		}
	}
	for i, m := range c.Methods {
		lm := l.Methods[i]
		if m.Name != lm.Name || descriptor(m) != descriptor(lm) || m.Stack != lm.Stack || m.Locals != lm.Locals || m.Size != lm.Size {
			return fmt.Sprintf("method %s%s (stack %d, locals %d, %d bytes), want %s%s (%d, %d, %d)",
				lm.Name, descriptor(lm), lm.Stack, lm.Locals, lm.Size, m.Name, descriptor(m), m.Stack, m.Locals, m.Size)
		}
		a, b := flatCode(m.Code), flatCode(lm.Code)
		if len(a) != len(b) {
			return fmt.Sprintf("method %s: %d instructions, want %d", m.Name, len(b), len(a))
		}
		for j := range a {
			if a[j] != b[j] {
				return fmt.Sprintf("method %s, instruction %d: %s, want %s", m.Name, j, b[j], a[j])
			}
		}
	}
	return ""
}

// flatCode lists a method's instructions as text, a branch's operand
// being the index of the instruction it goes to.
func flatCode(code []Insn) []string {
	at := map[int32]int{}
	n := 0
	for _, in := range code {
		if in.Op == opLabel {
			at[in.A] = n
		} else {
			n++
		}
	}
	var s []string
	for _, in := range code {
		switch {
		case in.Op == opLabel:
		case isBranch(in.Op):
			s = append(s, fmt.Sprintf("%s ->%d", opName(in.Op), at[in.A]))
		default:
			s = append(s, fmt.Sprintf("%s %d %d", opName(in.Op), in.A, in.B))
		}
	}
	return s
}

// TestJCAReadsSnapshots parses and loads every .jca snapshot of
// testdata/codegen (NAME.int.jca.golden, NAME.noint.jca.golden: at the
// width its name gives).
func TestJCAReadsSnapshots(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "codegen", "*.jca.golden"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no .jca snapshots: %v", err)
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		w := 32
		if strings.HasSuffix(name, ".noint.jca.golden") {
			w = 16
		}
		f, err := parseJCA(string(src))
		if err == nil {
			_, err = loadJCA(f, w)
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// jcaSample is a hand-written library package in the assembly's syntax:
// block comments, an applet block, hex numbers, a field token, a label
// before the first instruction.
const jcaSample = `/* a sample */
.package lowent {
	.aid 0xF0:0x4C:0x57:0x4E:0x54:0x01;
	.version 1.0;
	.imports {
		0xA0:0x00:0x00:0x00:0x62:0x01:0x01 1.3; // javacard/framework
		0xA0:0x00:0x00:0x00:0x62:0x00:0x01 1.0; /* java/lang */
	}
	.applet {
		0xF0:0x4C:0x57:0x4E:0x54:0x01:0x01 X;
	}
	.constantPool {
		staticFieldRef short[] S/carry;
		staticFieldRef byte[] S/T;
		staticMethodRef S/f(S)S;
		staticMethodRef 0.7.1(S)V;
		staticMethodRef 0.8.15(SB)[S;
	}
	.class public final S 0 extends 1.0 {
		.fields {
			static short[] carry 0;
			static final byte[] T = {0x10, -2, 3};
		}
		.method public static init()V 0 {
			.stack 2;
			.locals 0;
			sconst_1;
			sconst_2;
			invokestatic 4;
			putstatic_a 0;
			return;
		}
		.method public static f(S)S 1 {
			.stack 2;
			.locals 0;
		L0:	sload_0;
			ifeq_w L1;
			getstatic_a 1;
			sload_0;
			baload;
			sreturn;
		L1:	sspush 0x6F00;
			invokestatic 3;
			sconst_0;
			sreturn;
		}
	}
}
`

// TestParseJCASample reads the sample and runs its method: f(x) is T[x]
// for x ≠ 0 and throws 0x6F00 for 0.
func TestParseJCASample(t *testing.T) {
	f, err := parseJCA(jcaSample)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.applets) != 1 || f.applets[0].class != "X" || len(f.imports) != 2 || len(f.cp) != 5 || f.classes[0].fields[0].token != 0 {
		t.Fatalf("parsed %+v", f)
	}
	cls, err := loadJCA(f, 16)
	if err != nil {
		t.Fatal(err)
	}
	s := newSim(cls)
	for x, want := range map[int16]int16{1: -2, 2: 3} {
		got, err := s.call(cls.Methods[0], []int16{x})
		if err != nil || len(got) != 1 || got[0] != want {
			t.Errorf("f(%d) = %v, %v; want %d", x, got, err, want)
		}
	}
	var tr *Trap
	if _, err := s.call(cls.Methods[0], []int16{0}); !errors.As(err, &tr) || tr.SW != 0x6F00 {
		t.Errorf("f(0): %v, want ISOException 0x6F00", err)
	}
}

// TestLoadJCARefuses: what the loader does not take is an error, never a
// panic: each edit of the sample is refused with the message given.
func TestLoadJCARefuses(t *testing.T) {
	for _, tc := range []struct{ from, to, msg string }{
		{"0x62:0x01:0x01 1.3", "0x62:0x01:0x02 1.3", "none of the javacard.framework methods"},
		{"0.7.1(S)V", "0.7.2(S)V", "none of the javacard.framework methods"},
		{"extends 1.0", "extends 0.0", "not java.lang.Object"},
		{"ifeq_w L1", "ifeq_w L9", "no label L9"},
		{"sconst_2;\n\t\t\tinvokestatic 4", "sconst_1;\n\t\t\tinvokestatic 4", "not CLEAR_ON_DESELECT"},
		{"putstatic_a 0;", "pop;", "init(): pop"},
		{"baload;", "bogus;", "bogus: not an opcode"},
		{"getstatic_a 1", "getstatic_a 2", "not a static field"},
		{"invokestatic 3", "invokestatic 9", "no constant 9"},
		{"{0x10, -2, 3}", "{0x10, -200, 3}", "does not fit"},
		{".locals 0;\n\t\tL0", "\n\t\tL0", "lacks .stack or .locals"},
		{"staticMethodRef S/f(S)S", "staticMethodRef S/g(S)S", "no method g(S)S"},
		{".package lowent {", ".package lowent", `want "{"`},
		{"/* java/lang */", "/* java/lang", "unterminated comment"},
	} {
		src := strings.Replace(jcaSample, tc.from, tc.to, 1)
		if src == jcaSample {
			t.Fatalf("no %q in the sample", tc.from)
		}
		f, err := parseJCA(src)
		if err == nil {
			_, err = loadJCA(f, 16)
		}
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q -> %q: %v, want an error with %q", tc.from, tc.to, err, tc.msg)
		}
	}
}

// TestLoadJCATruncated: every prefix of the sample is refused (or, whole,
// taken) without a panic.
func TestLoadJCATruncated(t *testing.T) {
	for i := 0; i < len(jcaSample); i++ {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("prefix of %d bytes: panic %v", i, r)
				}
			}()
			f, err := parseJCA(jcaSample[:i])
			if err == nil {
				_, err = loadJCA(f, 16)
			}
			if err == nil && strings.TrimSpace(jcaSample[:i]) != strings.TrimSpace(jcaSample) {
				t.Errorf("prefix of %d bytes taken", i)
			}
		}()
	}
}

// jcaAppletClass is an applet class as the converter writes one after the
// library class: method tables, an instance method with a .descriptor
// and an exception table, constant-pool entries the library never uses.
const jcaAppletClass = `
	.class public final X 1 extends 0.3 {
		.fields {
			private final byte[] args 0;
		}
		.publicMethodTable 7 {
			equals(Ljava/lang/Object;)Z;
			getShareableInterfaceObject(Ljavacard/framework/AID;B)Ljavacard/framework/Shareable;;
		}
		.packageMethodTable 0 {
		}
		.method public process(Ljavacard/framework/APDU;)V 7 {
			.stack 2;
			.locals 1;
			.descriptor	Ljavacard/framework/APDU;	0.10;
		L0:	aload_1;
			invokevirtual 5;
			return;
			.exceptionTable {
				L0 L0 L0 6;
			}
		}
	}
}
`

// TestLoadJCALibraryAmongClasses: the library class is found beside an
// applet class, whose members and constants are not loaded; two classes
// extending java.lang.Object are refused.
func TestLoadJCALibraryAmongClasses(t *testing.T) {
	end := strings.LastIndex(jcaSample, "}")
	src := strings.Replace(jcaSample[:end], "staticMethodRef 0.8.15(SB)[S;", "staticMethodRef 0.8.15(SB)[S;\n\t\tvirtualMethodRef 0.10.1()[B;\n\t\t.classRef 0.13;\n\t\tinstanceFieldRef byte[] X/args;", 1) + jcaAppletClass
	f, err := parseJCA(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.classes) != 2 || len(f.classes[1].methods) != 1 || f.classes[1].methods[0].desc != "(Ljavacard/framework/APDU;)V" {
		t.Fatalf("parsed %+v", f.classes)
	}
	cls, err := loadJCA(f, 16)
	if err != nil {
		t.Fatal(err)
	}
	if cls.Name != "S" || len(cls.Methods) != 1 {
		t.Fatalf("loaded class %s with %d methods, want S with 1", cls.Name, len(cls.Methods))
	}
	if got, err := newSim(cls).call(cls.Methods[0], []int16{1}); err != nil || len(got) != 1 || got[0] != -2 {
		t.Errorf("f(1) = %v, %v; want -2", got, err)
	}
	two := strings.Replace(src, "X 1 extends 0.3", "X 1 extends 1.0", 1)
	if f, err = parseJCA(two); err == nil {
		_, err = loadJCA(f, 16)
	}
	if err == nil || !strings.Contains(err.Error(), "both extend java.lang.Object") {
		t.Errorf("two library classes: %v", err)
	}
	// The library's code may not use the applet's constants.
	bad := strings.Replace(src, "getstatic_a 1;", "getstatic_a 7;", 1)
	if f, err = parseJCA(bad); err == nil {
		_, err = loadJCA(f, 16)
	}
	if err == nil || !strings.Contains(err.Error(), "not a static reference") {
		t.Errorf("the library using an instance field: %v", err)
	}
}
