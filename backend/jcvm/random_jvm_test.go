package jcvm

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/randprog"
	"github.com/lowent/lowentc/internal/randprog/backendcheck"
	"github.com/lowent/lowentc/internal/testlong"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
)

// randJVMDefaultN is how many random programs also run on a real JVM (one
// javac and one JVM for all of them, at both widths); randJVMLongN with
// LOWENT_LONG=1.
const (
	randJVMDefaultN = 8
	randJVMLongN    = 60
)

// errCollected stops CheckTarget after prepare, in the collecting pass.
var errCollected = fmt.Errorf("collected")

// jvmSession is a JVM running testdata/Driver.java, one call per line.
type jvmSession struct {
	in  io.WriteCloser
	out *bufio.Reader
	cmd *exec.Cmd
}

// call sends one driver line and returns the answer line.
func (s *jvmSession) call(line string) (string, error) {
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		return "", err
	}
	ans, err := s.out.ReadString('\n')
	return strings.TrimRight(ans, "\n"), err
}

// jvmTarget runs the exports of one class on the JVM session.
type jvmTarget struct {
	s   *jvmSession
	cls *Class
	w   int
}

func (t jvmTarget) Run(fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
	exp := exportOf(t.cls, fn.Name)
	if exp == nil {
		return nil, fmt.Errorf("jcvm: %s: %w", fn.Name, errNoExport)
	}
	jargs, err := marshal(t.w, exp.Fn.(*ir.Function), args)
	if err != nil {
		return nil, err
	}
	ans, err := t.s.call(jvmLine(t.cls, exp, jargs))
	if err != nil {
		return nil, err
	}
	if sw, ok := strings.CutPrefix(ans, "EX "); ok {
		n, err := strconv.Atoi(sw)
		if err != nil {
			return nil, fmt.Errorf("java: %s", ans)
		}
		return nil, cardCheckError(n)
	}
	return parseAnswer(t.w, ans, exp, jargs, args)
}

func (t jvmTarget) Close() error { return nil }

// TestRandomProgramsJVM runs the first LOWENT_RANDPROG_JVM_N random
// programs of TestRandomPrograms (from LOWENT_RANDPROG_SEED0) as javac
// compiles the emitted Java, on a JVM against the stub, with and without
// int: the simulator is not the only judge of the generated code.
func TestRandomProgramsJVM(t *testing.T) {
	first := backendcheck.EnvUint(t, "LOWENT_RANDPROG_SEED0", 1)
	n := backendcheck.EnvUint(t, "LOWENT_RANDPROG_JVM_N", uint64(testlong.Count(randJVMDefaultN, randJVMLongN)))
	dir, _ := jvmBuild(t, false) // checks the JDK; holds the driver and stub
	type key struct {
		seed  uint64
		noInt bool
	}
	classes := map[key]*Class{}
	src := t.TempDir()
	var files []string
	for s := first; s < first+n; s++ {
		for _, noInt := range []bool{false, true} {
			_, refused := randprog.CheckTarget(s, randArgSets, func(p *lang.Program) (randprog.Target, error) {
				cls, err := compileClass(input(p), backend.Options{NoInt: noInt})
				if err != nil {
					return nil, err
				}
				cls.Name = fmt.Sprintf("Rnd%d%s", s, map[bool]string{false: "I", true: "S"}[noInt])
				f := filepath.Join(src, cls.Name+".java")
				if err := os.WriteFile(f, []byte(printJava(cls, "lowent")), 0o644); err != nil {
					return nil, err
				}
				files = append(files, f)
				classes[key{s, noInt}] = cls
				return nil, errCollected
			})
			if refused != errCollected {
				t.Logf("seed %d (noInt=%v): refused: %v", s, noInt, refused)
			}
		}
	}
	out := t.TempDir()
	cmd := exec.Command("javac", append([]string{"--release", "8", "-nowarn", "-cp", dir, "-d", out}, files...)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, msg)
	}
	jvm := exec.Command("java", "-cp", out+string(os.PathListSeparator)+dir, "Driver")
	in, err := jvm.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := jvm.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := jvm.Start(); err != nil {
		t.Fatal(err)
	}
	sess := &jvmSession{in: in, out: bufio.NewReader(stdout), cmd: jvm}
	defer func() {
		in.Close()
		jvm.Wait()
	}()
	ran := 0
	for s := first; s < first+n; s++ {
		for _, noInt := range []bool{false, true} {
			cls := classes[key{s, noInt}]
			if cls == nil {
				continue
			}
			ran++
			msg, refused := randprog.CheckTarget(s, randArgSets, func(p *lang.Program) (randprog.Target, error) {
				return jvmTarget{s: sess, cls: cls, w: cls.W}, nil
			})
			if refused != nil || msg != "" {
				t.Errorf("on the JVM (noInt=%v): %v%s\n  replay: LOWENT_RANDPROG_SEED0=%d LOWENT_RANDPROG_JVM_N=1 go test ./backend/jcvm -run TestRandomProgramsJVM -v", noInt, refused, msg, s)
			}
		}
	}
	t.Logf("%d random programs x 2 widths: %d ran on the JVM", n, ran)
}
