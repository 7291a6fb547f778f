package jcvm

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// jvmBuilt is one width's compiled classes, shared by the JVM tests.
type jvmBuilt struct {
	dir     string
	classes map[string]*Class
	err     string
}

var (
	jvmMu     sync.Mutex
	jvmBuilds = map[bool]*jvmBuilt{}
	jvmRoot   string // removed by TestMain
)

// TestMain removes the shared class directories (and the converter's
// files) after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if jvmRoot != "" {
		os.RemoveAll(jvmRoot)
	}
	if convDir != "" {
		os.RemoveAll(convDir)
	}
	os.Exit(code)
}

// jvmBuild returns the class directory holding the Java of every stdlib
// module at one width, the stub and the drivers, compiling it on first use.
func jvmBuild(t *testing.T, noInt bool) (string, map[string]*Class) {
	t.Helper()
	jvmMu.Lock()
	defer jvmMu.Unlock()
	b, ok := jvmBuilds[noInt]
	if !ok {
		b = &jvmBuilt{}
		b.dir, b.classes, b.err = jvmCompile(noInt)
		jvmBuilds[noInt] = b
	}
	if b.err != "" {
		t.Fatal(b.err)
	}
	return b.dir, b.classes
}

// jvmCompile compiles the Java of every stdlib module at one width, with
// the stub and the drivers, into a class directory; it returns an error
// message instead of failing so every test sharing the build reports it.
func jvmCompile(noInt bool) (string, map[string]*Class, string) {
	for _, tool := range []string{"javac", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			return "", nil, fmt.Sprintf("%s not found: the jcvm backend's JVM tests need a JDK (javac --release 8 and java)", tool)
		}
	}
	if jvmRoot == "" {
		d, err := os.MkdirTemp("", "jcvm-jvm-")
		if err != nil {
			return "", nil, err.Error()
		}
		jvmRoot = d
	}
	dir := filepath.Join(jvmRoot, fmt.Sprintf("noint=%v", noInt))
	src := filepath.Join(dir, "src", "lowent")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", nil, err.Error()
	}
	files := []string{filepath.Join("testdata", "Driver.java"), filepath.Join("testdata", "AppletDriver.java")}
	stubs, _ := filepath.Glob(filepath.Join("stub", "javacard", "framework", "*.java"))
	files = append(files, stubs...)
	classes := map[string]*Class{}
	for _, mod := range stdlibModules {
		cls, err := stdlibClassErr(mod, backend.Options{NoInt: noInt})
		if err != nil {
			return "", nil, fmt.Sprintf("%s: %v", mod, err)
		}
		java := printJava(cls, "lowent")
		if msg := javaSubsetErrors(mod, java, noInt); msg != "" {
			return "", nil, msg
		}
		f := filepath.Join(src, cls.Name+".java")
		if err := os.WriteFile(f, []byte(java), 0o644); err != nil {
			return "", nil, err.Error()
		}
		files = append(files, f)
		classes[mod] = cls
	}
	out := filepath.Join(dir, "classes")
	cmd := exec.Command("javac", append([]string{"--release", "8", "-nowarn", "-d", out}, files...)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", nil, fmt.Sprintf("javac: %v\n%s", err, msg)
	}
	return out, classes, ""
}

// javaSubsetErrors names what in java the Java Card converter would not
// accept ("" when nothing).
func javaSubsetErrors(mod, java string, noInt bool) string {
	var errs []string
	for _, bad := range []string{"long ", "float ", "double ", "char ", "String", "new int[", "long)", "(long"} {
		if strings.Contains(java, bad) {
			errs = append(errs, fmt.Sprintf("%s: the Java uses %q", mod, strings.TrimSpace(bad)))
		}
	}
	if noInt && (strings.Contains(java, "int ") || strings.Contains(java, "(int)")) {
		errs = append(errs, fmt.Sprintf("%s: the --no-int Java uses int", mod))
	}
	return strings.Join(errs, "\n")
}

// jvmLine renders one call for the driver.
func jvmLine(cls *Class, exp *Export, jargs []jarg) string {
	var b strings.Builder
	fmt.Fprintf(&b, "lowent.%s %s", cls.Name, exp.Method.Name)
	for _, a := range jargs {
		switch a.Kind {
		case KRef:
			if a.Shorts != nil {
				fmt.Fprintf(&b, " H:%s", shortsHex(a.Shorts))
			} else {
				fmt.Fprintf(&b, " B:%s", hex.EncodeToString(a.Bytes))
			}
		case KInt:
			fmt.Fprintf(&b, " I:%d", a.Val)
		default:
			fmt.Fprintf(&b, " S:%d", a.Val)
		}
	}
	return b.String()
}

func exportOf(cls *Class, name string) *Export {
	for _, e := range cls.Exports {
		if e.Name == name {
			return e
		}
	}
	return nil
}

func argKey(mod, fn string, args []lang.Value) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s.%s", mod, fn)
	for _, a := range args {
		fmt.Fprintf(h, "|%v|%d|", a.IsArray, a.Word)
		for _, e := range a.Elems {
			fmt.Fprintf(h, "%x,", e)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestGoldenJVM runs the golden suite on the emitted Java, with ints and
// with --no-int: every case is first recorded, then all run in one JVM, then
// the suite checks the recorded answers.
func TestGoldenJVM(t *testing.T) {
	seed := golden.Seed(t)
	for _, noInt := range []bool{false, true} {
		t.Run(fmt.Sprintf("noint=%v", noInt), func(t *testing.T) {
			classes, cls := jvmBuild(t, noInt)
			cases := golden.Cases(seed)
			type call struct {
				key   string
				jargs []jarg
				exp   *Export
			}
			var calls []call
			modOf := map[*lang.Program]string{}
			var ps golden.Programs
			for _, c := range cases {
				c := c
				rec := func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
					exp := exportOf(cls[c.Module], fn.Name)
					if exp == nil {
						return nil, fmt.Errorf("no export %s", fn.Name)
					}
					modOf[p] = c.Module
					jargs, err := marshal(cls[c.Module].W, exp.Fn.(*ir.Function), args)
					if err != nil {
						return nil, err
					}
					calls = append(calls, call{argKey("", fn.Name, args), jargs, exp})
					return nil, fmt.Errorf("recorded")
				}
				_ = golden.RunCase(&ps, rec, c)
			}
			var in bytes.Buffer
			for _, c := range calls {
				mod := ""
				for m, k := range cls {
					if exportOf(k, c.exp.Name) == c.exp {
						mod = m
					}
				}
				fmt.Fprintln(&in, jvmLine(cls[mod], c.exp, c.jargs))
			}
			cmd := exec.Command("java", "-cp", classes, "Driver")
			cmd.Stdin = &in
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("java: %v", err)
			}
			lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
			if len(lines) != len(calls) {
				t.Fatalf("the driver answered %d calls of %d", len(lines), len(calls))
			}
			type answer struct {
				line  string
				jargs []jarg
				exp   *Export
			}
			answers := map[string]answer{}
			for i, c := range calls {
				answers[c.key] = answer{lines[i], c.jargs, c.exp}
			}
			var mu sync.Mutex
			replay := func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
				mu.Lock()
				a, ok := answers[argKey("", fn.Name, args)]
				mu.Unlock()
				if !ok {
					return nil, fmt.Errorf("no recorded call")
				}
				return parseAnswer(width(backend.Options{NoInt: noInt}), a.line, a.exp, a.jargs, args)
			}
			golden.Run(t, replay, cases)
		})
	}
}

// parseAnswer decodes a driver line into results and updated arguments.
func parseAnswer(w int, line string, exp *Export, jargs []jarg, args []lang.Value) ([]lang.Value, error) {
	sc := bufio.NewScanner(strings.NewReader(line))
	sc.Split(bufio.ScanWords)
	var f []string
	for sc.Scan() {
		f = append(f, sc.Text())
	}
	if len(f) < 2 || f[0] != "OK" {
		return nil, fmt.Errorf("java: %s", line)
	}
	k := 2
	for i := range jargs {
		if jargs[i].Kind != KRef {
			continue
		}
		if k >= len(f) {
			return nil, fmt.Errorf("java: short answer %q", line)
		}
		b, err := hex.DecodeString(f[k])
		if err != nil {
			return nil, err
		}
		if jargs[i].Shorts != nil {
			jargs[i].Shorts = bytesShorts(b)
		} else {
			jargs[i].Bytes = b
		}
		k++
	}
	var carry []int16
	if k < len(f) && strings.HasPrefix(f[k], "C") {
		b, err := hex.DecodeString(f[k][1:])
		if err != nil {
			return nil, err
		}
		carry = bytesShorts(b)
	}
	var ret int64
	has := f[1] != "-"
	if has {
		v, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			return nil, err
		}
		ret = v
	}
	return unmarshal(w, exp.Fn.(*ir.Function), args, jargs, retVal{ret: int32(ret), hasRet: has, carry: carry})
}

// shortsHex is the driver's form of a short array: four hex digits a short.
func shortsHex(h []int16) string {
	var b strings.Builder
	for _, x := range h {
		fmt.Fprintf(&b, "%04x", uint16(x))
	}
	return b.String()
}

// bytesShorts reads big-endian shorts.
func bytesShorts(b []byte) []int16 {
	h := make([]int16, len(b)/2)
	for i := range h {
		h[i] = int16(uint16(b[2*i])<<8 | uint16(b[2*i+1]))
	}
	return h
}

// TestNoIntHasNoIntOps checks that --no-int bytecode uses no int opcode.
func TestNoIntHasNoIntOps(t *testing.T) {
	for _, mod := range stdlibModules {
		p := testprog.Stdlib(t, mod)
		cls, err := compileClass(input(p), backend.Options{NoInt: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range cls.Methods {
			for _, in := range m.Code {
				name := opName(in.Op)
				if in.Op != opLabel && (strings.HasPrefix(name, "i") && !strings.HasPrefix(name, "if") && name != "invokestatic" || name == "s2i") {
					t.Errorf("%s.%s uses %s", mod, m.Name, name)
					break
				}
			}
		}
	}
}
