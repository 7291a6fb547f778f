package jcvm

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/blake2b"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/internal/tools"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// TestJCardSimGolden writes the --emit javacard tree of every stdlib module
// at both widths, compiles each width's trees with javac --release 7
// against jCardSim (the simulator's own Java Card API, not the project's
// stub), installs every module's applet in one jCardSim per width and runs
// the golden suite through APDUs: LOAD the arguments, the export's INS
// (the first case of each export through the timing INS with N = 1), READ
// the arrays, checked against the golden answers. A case the applet cannot
// take is counted by reason and left out: arguments larger than the 4 KB
// argument area, or a word-array parameter (the contexts of the _init and
// _ctx exports, keccak_f1600's state: the applet does not expose them).
// Every module
// must run cases. Then, per module: the timing INS chained in place (N
// calls give the N-fold hash, or the message back after two XORs), a
// negative array offset and slice length (6700), malformed commands (see
// protocol), a partial overlap of an output (6F05, nothing written), and
// an unknown INS and export (6D00).
func TestJCardSimGolden(t *testing.T) {
	jar := tools.JCardSim(t)
	for _, tool := range []string{"javac", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s not found: the jCardSim test needs a JDK", tool)
		}
	}
	seed := golden.Seed(t)
	for _, noInt := range []bool{false, true} {
		noInt := noInt
		t.Run(fmt.Sprintf("noint=%v", noInt), func(t *testing.T) {
			t.Parallel()
			jcardsimWidth(t, jar, seed, noInt)
		})
	}
}

// cardCall is one golden call through the applet and the card's answer.
type cardCall struct {
	exp   *Export
	jargs []jarg
	ret   []byte
	sw    string
}

func jcardsimWidth(t *testing.T, jar string, seed int64, noInt bool) {
	start := time.Now()
	root := t.TempDir()
	opts := backend.Options{NoInt: noInt, NoCardLimits: true}
	files := []string{filepath.Join("testdata", "JCardSimDriver.java")}
	cls := map[string]*Class{}
	for _, mod := range stdlibModules {
		tree, err := JavaCardTree(input(testprog.Stdlib(t, mod)), opts)
		if err != nil {
			t.Fatalf("%s: %v", mod, err)
		}
		cls[mod] = stdlibClass(t, mod, opts)
		for path, data := range tree {
			f := filepath.Join(root, mod, filepath.FromSlash(path))
			if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(path, ".java") {
				files = append(files, f)
			}
		}
	}
	t.Logf("%v: trees written", time.Since(start))
	out := filepath.Join(root, "classes")
	cmd := exec.Command("javac", append([]string{"-J-XX:TieredStopAtLevel=1", "--release", "7", "-nowarn", "-Xlint:-options", "-cp", jar, "-d", out}, files...)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("javac --release 7: %v\n%s", err, msg)
	}

	t.Logf("%v: javac done", time.Since(start))
	cases := golden.Cases(seed)
	w := width(backend.Options{NoInt: noInt})
	terms := map[string]*terminal{}
	for _, mod := range stdlibModules {
		terms[mod] = &terminal{cls: cls[mod]}
	}
	calls := map[string]*cardCall{}
	var run []golden.Case
	ran := map[string]int{}
	left := map[string]map[string]int{} // module -> reason -> cases
	timed := map[*Export]bool{}
	leave := func(mod, why string) {
		if left[mod] == nil {
			left[mod] = map[string]int{}
		}
		left[mod][why]++
	}
	var ps golden.Programs
	took := false // whether the case's call goes to the card
	for _, c := range cases {
		c := c
		tm := terms[c.Module]
		if tm == nil {
			t.Fatalf("case %s: module %s is not in stdlibModules", c.Name, c.Module)
		}
		rec := func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
			exp := exportOf(tm.cls, fn.Name)
			if exp == nil {
				return nil, fmt.Errorf("no export %s", fn.Name)
			}
			jargs, err := marshal(w, exp.Fn.(*ir.Function), args)
			if err != nil {
				return nil, err
			}
			size := 0
			for _, a := range jargs {
				if a.Kind == KRef {
					if a.Shorts != nil {
						leave(c.Module, "a word-array parameter")
						return nil, errLeft
					}
					size += len(a.Bytes) + 7
				}
			}
			if size > argAreaSize {
				leave(c.Module, "arguments larger than the 4 KB argument area")
				return nil, errLeft
			}
			key := argKey("", fn.Name, args)
			took = true
			if calls[key] != nil {
				return nil, errLeft // the same call twice: one answer serves both
			}
			sc := &cardCall{exp: exp, jargs: jargs}
			calls[key] = sc
			tm.next = 0
			data, at, err := tm.place(exp, args)
			if err != nil {
				return nil, err
			}
			_, k := tm.insOf(fn.Name)
			cmd := []byte{0x80, byte(0x10 + k), 0, 0}
			if !timed[exp] {
				timed[exp] = true
				cmd = []byte{0x80, 0x20, 1, byte(k)}
			}
			if len(data) > 0 {
				cmd = append(append(cmd, byte(len(data))), data...)
			}
			tm.send(cmd, func(a answer) error {
				sc.sw, sc.ret = a.sw, a.data
				return nil
			})
			for i := range jargs {
				i := i
				if jargs[i].Kind != KRef {
					continue
				}
				// Where place put it: the padding goes along.
				base := at[jargs[i].Param] - padFront
				if jargs[i].Param < 0 {
					base = -1
				}
				if base < 0 {
					return nil, fmt.Errorf("BUG: no place for array %d", i)
				}
				tm.read(base, len(jargs[i].Bytes), func(got []byte) error {
					sc.jargs[i].Bytes = append([]byte(nil), got...)
					return nil
				})
			}
			return nil, errLeft
		}
		took = false
		_ = golden.RunCase(&ps, rec, c)
		if took {
			run = append(run, c)
			ran[c.Module]++
		}
	}
	r := rand.New(rand.NewSource(seed))
	for _, mod := range stdlibModules {
		tm := terms[mod]
		if ran[mod] == 0 {
			t.Errorf("%s: no golden case runs through the applet", mod)
		}
		jcardsimExtras(t, tm, mod, cases, w, r)
	}

	t.Logf("%v: APDUs built", time.Since(start))
	// One jCardSim for every module of this width.
	var in strings.Builder
	var order []*terminal
	for i, mod := range stdlibModules {
		tm := terms[mod]
		aid := fmt.Sprintf("F04C574E54%02X", i+1)
		fmt.Fprintf(&in, "INSTALL %s lowent.%sApplet\nSELECT %s\n", aid, tm.cls.Name, aid)
		for _, a := range tm.apdus {
			fmt.Fprintf(&in, "APDU %s\n", a)
		}
		order = append(order, tm)
	}
	java := exec.Command("java", "-cp", jar+string(os.PathListSeparator)+out, "JCardSimDriver")
	java.Stdin = strings.NewReader(in.String())
	var stdout, stderr bytes.Buffer
	java.Stdout, java.Stderr = &stdout, &stderr
	if err := java.Run(); err != nil {
		t.Fatalf("java JCardSimDriver: %v\n%s", err, stderr.String())
	}
	var lines []string
	for _, l := range strings.Split(stdout.String(), "\n") {
		if a, ok := strings.CutPrefix(l, "R "); ok {
			lines = append(lines, a)
		}
	}
	t.Logf("%v: jCardSim answered", time.Since(start))
	total := 0
	for _, tm := range order {
		total += len(tm.apdus)
	}
	if len(lines) != total {
		t.Fatalf("jCardSim answered %d APDUs of %d:\n%s", len(lines), total, stderr.String())
	}
	for _, tm := range order {
		for i := range tm.apdus {
			l := lines[0]
			lines = lines[1:]
			f := strings.SplitN(l, " ", 2)
			a := answer{sw: f[0]}
			if len(f) == 2 && f[1] != "" {
				var err error
				if a.data, err = hex.DecodeString(f[1]); err != nil {
					t.Fatalf("answer %q: %v", l, err)
				}
			}
			if err := tm.checks[i](a); err != nil {
				t.Errorf("%s APDU %d (%s): %v", tm.cls.Name, i, tm.apdus[i], err)
			}
		}
	}

	var summary []string
	for _, mod := range stdlibModules {
		s := fmt.Sprintf("%s %d", mod, ran[mod])
		for why, n := range left[mod] {
			s += fmt.Sprintf(", %d left out (%s)", n, why)
		}
		summary = append(summary, s)
	}
	t.Logf("golden cases run through jCardSim's APDUs: %s", strings.Join(summary, "; "))

	var mu sync.Mutex
	replay := func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
		mu.Lock()
		sc := calls[argKey("", fn.Name, args)]
		mu.Unlock()
		if sc == nil {
			return nil, fmt.Errorf("no recorded call")
		}
		if sc.sw != "9000" {
			return nil, fmt.Errorf("status %s", sc.sw)
		}
		rv := retVal{}
		switch m := sc.exp.Method; m.Ret {
		case KShort, KInt:
			n := 2
			if m.Ret == KInt {
				n = 4
			}
			if len(sc.ret) != n {
				return nil, fmt.Errorf("%d bytes of result, want %d", len(sc.ret), n)
			}
			rv.hasRet = true
			if n == 2 {
				rv.ret = int32(int16(binary.BigEndian.Uint16(sc.ret)))
			} else {
				rv.ret = int32(binary.BigEndian.Uint32(sc.ret))
			}
		default:
			if len(sc.ret) != 0 {
				return nil, fmt.Errorf("%d bytes of result, want none", len(sc.ret))
			}
		}
		jargs := append([]jarg(nil), sc.jargs...)
		return unmarshal(w, sc.exp.Fn.(*ir.Function), args, jargs, rv)
	}
	golden.Run(t, replay, run)
}

// errLeft ends a recording run of a golden case (its answer comes later).
var errLeft = fmt.Errorf("recorded")

// jcardsimExtras adds the per-module checks beside the golden suite: the
// timing INS chained in place, bad offsets and lengths, malformed commands,
// a partial overlap, an unknown INS and an unknown export.
func jcardsimExtras(t *testing.T, tm *terminal, mod string, cases []golden.Case, w int, r *rand.Rand) {
	t.Helper()
	tm.next = 0
	hashes := map[string]struct {
		size int
		hash func([]byte) []byte
	}{
		"sha256":   {32, func(b []byte) []byte { s := sha256.Sum256(b); return s[:] }},
		"blake2b":  {64, func(b []byte) []byte { s := blake2b.Sum512(b); return s[:] }},
		"sha512":   {64, func(b []byte) []byte { s := sha512.Sum512(b); return s[:] }},
		"sha3_256": {32, func(b []byte) []byte { s := sha3.Sum256(b); return s[:] }},
	}
	for _, e := range tm.cls.Exports {
		if h, ok := hashes[e.Name]; ok {
			tm.chained(t, e.Name, h.size, 2, h.hash, r)
			tm.chained(t, e.Name, h.size, 3, h.hash, r)
		}
	}
	// A stream cipher XORing in place twice gives the message back.
	for _, e := range tm.cls.Exports {
		if e.Name == "chacha20_xor" || e.Name == "aes128_ctr" {
			tm.xorTwice(t, e, w, r)
		}
	}
	// The first golden case of the module whose arguments the applet takes.
	var args []lang.Value
	var exp *Export
	var ps golden.Programs
	for _, c := range cases {
		if c.Module != mod || args != nil {
			continue
		}
		_ = golden.RunCase(&ps, func(p *lang.Program, fn *lang.FuncDecl, a []lang.Value) ([]lang.Value, error) {
			e := exportOf(tm.cls, fn.Name)
			jargs, err := marshal(w, e.Fn.(*ir.Function), a)
			if err != nil {
				return nil, err
			}
			size := 0
			for _, j := range jargs {
				if j.Kind == KRef {
					if j.Shorts != nil {
						return nil, errLeft
					}
					size += len(j.Bytes) + 7
				}
			}
			if size <= 1024 && written(e, jargs) {
				args, exp = a, e
			}
			return nil, errLeft
		}, c)
	}
	if exp == nil {
		t.Errorf("%s: no golden case for the status-word checks", mod)
		return
	}
	tm.next = 0
	data, _, field, err := tm.placeAt(exp, args)
	if err != nil {
		t.Fatal(err)
	}
	ins, k := tm.insOf(exp.Name)
	send := func(what, sw string, d []byte) {
		tm.send(append([]byte{0x80, ins, 0, 0, byte(len(d))}, d...), status(exp.Name+" with "+what, sw))
	}
	jargs, _ := marshal(w, exp.Fn.(*ir.Function), args)
	for p, at := range field {
		bad := append([]byte(nil), data...)
		binary.BigEndian.PutUint16(bad[at:], 0xfff0)
		send(fmt.Sprintf("parameter %d at a negative offset", p), "6700", bad)
		binary.BigEndian.PutUint16(bad[at:], argAreaSize)
		if n := arrayLen(jargs, p); n > 0 {
			send(fmt.Sprintf("parameter %d at the area's end", p), "6700", bad)
		}
		if slice(exp, jargs, p) {
			bad := append([]byte(nil), data...)
			binary.BigEndian.PutUint16(bad[at+2:], 0x8000)
			send(fmt.Sprintf("slice %d of length 0x8000", p), "6700", bad)
			binary.BigEndian.PutUint16(bad[at+2:], argAreaSize+1)
			send(fmt.Sprintf("slice %d of %d bytes", p, argAreaSize+1), "6700", bad)
		}
	}
	tm.protocol(t, exp.Name, data, r)
	// A written array one byte into another array of at least 2 bytes.
	moved, to := -1, -1
	for _, a := range jargs {
		if a.Kind == KRef && a.Param >= 0 && exp.Fn.(*ir.Function).Sig.Params[a.Param].Mut && arrayLen(jargs, a.Param) > 0 {
			for _, b := range jargs {
				if b.Kind == KRef && b.Param >= 0 && b.Param != a.Param && arrayLen(jargs, b.Param) > 1 {
					moved, to = a.Param, b.Param
				}
			}
		}
	}
	if moved < 0 {
		t.Errorf("%s: no case of %s with an output and another array for the overlap check", mod, exp.Name)
	} else {
		tm.next = 0
		b := argBytes(jargs, to)
		orig := append([]byte(nil), b[padFront:len(b)-padBack]...)
		tm.callMoved(t, exp.Name, args, moved, to, 1, "6f05", map[int][]byte{to: orig})
	}
	tm.send([]byte{0x80, 0x7f, 0, 0, 1, 0}, status("INS 7F", "6d00"))
	n := len(tm.cls.Exports)
	tm.send(append([]byte{0x80, byte(0x10 + n), 0, 0, byte(len(data))}, data...), status(fmt.Sprintf("INS %02X, past the exports", 0x10+n), "6d00"))
	tm.send(append([]byte{0x80, 0x20, 1, byte(n), byte(len(data))}, data...), status("the timing INS of an unknown export", "6d00"))
	_ = k
}

// written says whether the call has an array the export writes.
func written(e *Export, jargs []jarg) bool {
	f := e.Fn.(*ir.Function)
	for _, a := range jargs {
		if a.Kind == KRef && (a.Param < 0 || f.Sig.Params[a.Param].Mut) {
			return true
		}
	}
	return false
}

// arrayLen is the length in bytes of source parameter p's array, without
// its padding.
func arrayLen(jargs []jarg, p int) int {
	return len(argBytes(jargs, p)) - padFront - padBack
}

// argBytes is the array of source parameter p (padding included), as
// placed in the argument area.
func argBytes(jargs []jarg, p int) []byte {
	for _, a := range jargs {
		if a.Kind == KRef && a.Param == p {
			return a.Bytes
		}
	}
	return nil
}

// slice says whether source parameter p of e is a slice (its offset in
// the command data is followed by a length).
func slice(e *Export, jargs []jarg, p int) bool {
	for _, a := range jargs {
		if a.Kind == KRef && a.Param == p {
			return e.Fn.(*ir.Function).Params[a.FParam].Arr.IsSlice()
		}
	}
	return false
}

// xorTwice runs the timing INS with N = 2 on a stream cipher's export
// (key, nonce or iv, [counter], src, dst) with dst on src: the message
// comes back unchanged after two XORs with the same key stream.
func (tm *terminal) xorTwice(t *testing.T, e *Export, w int, r *rand.Rand) {
	t.Helper()
	f := e.Fn.(*ir.Function)
	var args []lang.Value
	for _, sp := range f.Sig.Params {
		if sp.Array {
			args = append(args, golden.Bytes(randBytes(r, 16)))
		} else {
			args = append(args, lang.Value{Word: 1})
		}
	}
	// key, nonce/iv: their fixed sizes; src and dst: 100 bytes.
	n := len(args)
	sizes := map[string]int{"chacha20_xor": 32, "aes128_ctr": 16}
	args[0] = golden.Bytes(randBytes(r, sizes[e.Name]))
	if e.Name == "chacha20_xor" {
		args[1] = golden.Bytes(randBytes(r, 12))
	}
	msg := randBytes(r, 100)
	args[n-2], args[n-1] = golden.Bytes(msg), golden.Bytes(make([]byte, 100))
	tm.next = 0
	data, at, field, err := tm.placeAt(e, args)
	if err != nil {
		t.Fatal(err)
	}
	binary.BigEndian.PutUint16(data[field[n-1]:], uint16(at[n-2]))
	_, k := tm.insOf(e.Name)
	tm.send(append([]byte{0x80, 0x20, 2, byte(k), byte(len(data))}, data...), ok(e.Name+" timing INS, N = 2 in place"))
	tm.read(at[n-2], len(msg), func(got []byte) error {
		if !bytes.Equal(got, msg) {
			return fmt.Errorf("%s twice in place: %x, want the message %x", e.Name, got, msg)
		}
		return nil
	})
	_ = w
}
