package wasm32

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
	"github.com/lowent/lowentc/vm"
)

// The ES module of --emit js, run under Node on testdata/jsapi.lw (every
// shape of parameter and result) and on the stdlib's ChaCha20-Poly1305
// (in place, a partial overlap, a failed requires), against the VM; and
// the declarations of --emit dts.

// emitJS writes the ES module of p into dir as NAME.mjs.
func emitJS(t *testing.T, p *lang.Program, dir string) {
	t.Helper()
	js, err := Compile(input(p), backend.Options{Emit: "js"})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, p.Root.Module+".mjs"), js, 0o644); err != nil {
		t.Fatal(err)
	}
}

// runNode runs script (an ES module, in dir) and decodes the JSON object
// it prints.
func runNode(t *testing.T, dir, script string) map[string]any {
	t.Helper()
	node, err := nodePath()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "test.mjs")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, path).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var res map[string]any
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("node printed %s: %v", out, err)
	}
	return res
}

// vmRun runs export fn of p on the VM.
func vmRun(t *testing.T, p *lang.Program, fn string, args ...lang.Value) ([]lang.Value, error) {
	t.Helper()
	f := p.Export(fn)
	if f == nil {
		t.Fatalf("no export %s", fn)
	}
	res, _, err := vm.Run(p, f, args, vm.Options{})
	return res, err
}

func word(x uint64) lang.Value { return lang.Value{Word: x} }
func words(xs ...uint64) lang.Value {
	return lang.Value{Elems: append([]uint64(nil), xs...), IsArray: true}
}

// jsWords prints the elements of an array result (or argument) the way
// the test script does: decimal strings.
func jsWords(v lang.Value) string {
	var s []string
	for _, e := range v.Elems {
		s = append(s, fmt.Sprint(e))
	}
	return strings.Join(s, ",")
}

func TestJSModule(t *testing.T) {
	dir := t.TempDir()
	p := testprog.Load(t, "testdata/jsapi.lw")
	emitJS(t, p, dir)
	got := runNode(t, dir, `import * as m from "./jsapi.mjs";
const out = {};
const s = (v) => Array.isArray(v) || ArrayBuffer.isView(v) ? Array.from(v, String).join(",") : String(v);
const r = m.mix(0xfedcba9876543210n, 0xffffffff, true);
out.mix = [typeof r[0], typeof r[1], typeof r[2], s(r)];
out.sum = [typeof m.sum(new BigUint64Array([1n]), 0), s(m.sum(new BigUint64Array([1n, 2n, 0xfffffffffffffff0n]), 65535))];
const sp = m.spread(255, new Uint16Array([1, 0x8000, 65535]));
out.spread = [sp.constructor.name, s(sp)];
out.pick = s(m.pick(new Uint8Array([4, 5, 6]), 2));
const fail = (f) => { try { f(); return "no error"; } catch (e) { return [e.constructor.name, e instanceof Error, e.message, e.status ?? null]; } };
out.requires = fail(() => m.pick(new Uint8Array([4]), 0));
out.trap = fail(() => m.pick(new Uint8Array([4, 5]), 7));
out.badScalar = fail(() => m.pick(new Uint8Array([4, 5]), -1))[0];
out.badU64 = fail(() => m.sum(new BigUint64Array(1), 1n))[0];
out.badArray = fail(() => m.spread(1, new Uint8Array(6)))[0];
out.badLength = fail(() => m.spread(1, new Uint16Array(2)))[0];
console.log(JSON.stringify(out));
`)
	check := func(key string, want any) {
		t.Helper()
		g, _ := json.Marshal(got[key])
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s: got %s, want %s", key, g, w)
		}
	}
	res, err := vmRun(t, p, "mix", word(0xfedcba9876543210), word(0xffffffff), word(1))
	if err != nil {
		t.Fatal(err)
	}
	b := "false"
	if res[2].Word != 0 {
		b = "true"
	}
	check("mix", []string{"bigint", "number", "boolean", fmt.Sprintf("%d,%d,%s", res[0].Word, res[1].Word, b)})
	res, err = vmRun(t, p, "sum", words(1, 2, 0xfffffffffffffff0), word(65535))
	if err != nil {
		t.Fatal(err)
	}
	check("sum", []string{"bigint", fmt.Sprint(res[0].Word)})
	res, err = vmRun(t, p, "spread", word(255), words(1, 0x8000, 65535))
	if err != nil {
		t.Fatal(err)
	}
	check("spread", []string{"Uint32Array", jsWords(res[0])})
	res, err = vmRun(t, p, "pick", words(4, 5, 6), word(2))
	if err != nil {
		t.Fatal(err)
	}
	check("pick", fmt.Sprint(res[0].Word))
	// A failed requires: the VM's message, status -1 (clause 0).
	_, err = vmRun(t, p, "pick", words(4), word(0))
	if err == nil {
		t.Fatal("the VM accepts pick with a short table")
	}
	check("requires", []any{"LowentError", true, err.Error(), -1})
	// A trap: the message of the compiled targets (the runner's).
	r, err := Prepare(input(p), backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, _, err = r.Run("pick", []lang.Value{words(4, 5), word(7)})
	if err == nil || !strings.Contains(err.Error(), ": trap: ") {
		t.Fatalf("the runner's pick out of range: %v", err)
	}
	check("trap", []any{"LowentError", true, err.Error(), 2})
	check("badScalar", "TypeError")
	check("badU64", "TypeError")
	check("badArray", "TypeError")
	check("badLength", "RangeError")
}

// TestJSModuleAEAD: the stdlib's ChaCha20-Poly1305 from JavaScript: seal
// agrees with the VM, in place too (pt and ct the same bytes); a partial
// overlap is the fault every target reports, a short ct the requires
// fault; open returns a boolean and leaves pt alone on a bad tag.
func TestJSModuleAEAD(t *testing.T) {
	dir := t.TempDir()
	p := testprog.Stdlib(t, "chacha20poly1305")
	emitJS(t, p, dir)
	got := runNode(t, dir, `import * as m from "./chacha20poly1305.mjs";
const out = {};
const hex = (v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex");
const key = Uint8Array.from({ length: 32 }, (_, i) => i), nonce = Uint8Array.from({ length: 12 }, (_, i) => 100 + i);
const aad = Uint8Array.from([1, 2, 3]), pt = Uint8Array.from({ length: 100 }, (_, i) => (i * 7) & 255);
const ct = new Uint8Array(100), tag = new Uint8Array(16);
out.seal = [typeof m.chacha20_poly1305_seal(key, nonce, aad, pt, ct, tag), hex(ct), hex(tag)];
const buf = new Uint8Array(120); buf.set(pt, 10);
const view = buf.subarray(10, 110), tag2 = new Uint8Array(16);
m.chacha20_poly1305_seal(key, nonce, aad, view, view, tag2);
out.inplace = [hex(view), hex(tag2), hex(buf.subarray(0, 10)) + hex(buf.subarray(110))];
const fail = (f) => { try { f(); return "no error"; } catch (e) { return [e.constructor.name, e.message, e.status]; } };
const before = hex(buf);
out.overlap = fail(() => m.chacha20_poly1305_seal(key, nonce, aad, buf.subarray(0, 100), buf.subarray(1, 101), tag2));
out.overlapUntouched = hex(buf) === before;
out.requires = fail(() => m.chacha20_poly1305_seal(key, nonce, aad, pt, new Uint8Array(99), tag2));
const back = new Uint8Array(100);
out.open = [m.chacha20_poly1305_open(key, nonce, aad, ct, tag, back), hex(back)];
tag[0] ^= 1;
const none = new Uint8Array(100);
out.badTag = [m.chacha20_poly1305_open(key, nonce, aad, ct, tag, none), hex(none)];
console.log(JSON.stringify(out));
`)
	bs := func(n int, f func(i int) byte) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = f(i)
		}
		return b
	}
	key := bs(32, func(i int) byte { return byte(i) })
	nonce := bs(12, func(i int) byte { return byte(100 + i) })
	aad := []byte{1, 2, 3}
	pt := bs(100, func(i int) byte { return byte(i * 7) })
	ct, tag := golden.Bytes(make([]byte, 100)), golden.Bytes(make([]byte, 16))
	if _, err := vmRun(t, p, "chacha20_poly1305_seal", golden.Bytes(key), golden.Bytes(nonce), golden.Bytes(aad), golden.Bytes(pt), ct, tag); err != nil {
		t.Fatal(err)
	}
	ctB, _ := golden.ToBytes(ct)
	tagB, _ := golden.ToBytes(tag)
	hx := func(b []byte) string { return fmt.Sprintf("%x", b) }
	check := func(key string, want any) {
		t.Helper()
		g, _ := json.Marshal(got[key])
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s: got %s, want %s", key, g, w)
		}
	}
	check("seal", []string{"undefined", hx(ctB), hx(tagB)})
	check("inplace", []string{hx(ctB), hx(tagB), strings.Repeat("00", 20)})
	// The fault's message: the position of ct, the written parameter.
	src := p.Export("chacha20_poly1305_seal")
	var ctPos string
	for _, prm := range src.Params {
		if prm.Name == "ct" {
			ctPos = prm.Pos.String()
		}
	}
	check("overlap", []any{"LowentError", ctPos + ": fault: chacha20_poly1305_seal: requires ct and pt the same buffer or disjoint does not hold", 1})
	check("overlapUntouched", true)
	_, err := vmRun(t, p, "chacha20_poly1305_seal", golden.Bytes(key), golden.Bytes(nonce), golden.Bytes(aad), golden.Bytes(pt), golden.Bytes(make([]byte, 99)), tag)
	if err == nil {
		t.Fatal("the VM accepts a short ct")
	}
	check("requires", []any{"LowentError", err.Error(), -1})
	check("open", []any{true, hx(pt)})
	check("badTag", []any{false, strings.Repeat("00", 100)})
}

// TestDeclarations: --emit dts declares every export with the TypeScript
// types of its parameters and results, under its Lowent name, and
// renames parameters JavaScript reserves.
func TestDeclarations(t *testing.T) {
	p := testprog.Load(t, "testdata/jsapi.lw")
	dts, err := Compile(input(p), backend.Options{Emit: "dts"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"export declare class LowentError extends Error {\n  readonly status: number;\n}\n",
		"declare function _mix(x: bigint, y: number, flag: boolean): [bigint, number, boolean];\nexport { _mix as mix };\n",
		"declare function _sum(words: BigUint64Array, new_: number): bigint;\nexport { _sum as sum };\n",
		"declare function _spread(call: number, halves: Uint16Array): Uint32Array /* 4 elements */;\nexport { _spread as spread };\n",
		"declare function _pick(tab: Uint8Array, i: number): number;\nexport { _pick as pick };\n",
	} {
		if !strings.Contains(string(dts), want) {
			t.Errorf("no\n%s\nin\n%s", want, dts)
		}
	}
	if n := strings.Count(string(dts), "declare function"); n != len(p.Exports()) {
		t.Errorf("%d functions declared, the module exports %d", n, len(p.Exports()))
	}
}

// TestMissingTool: a tool not found is an error naming it, where it was
// looked for and its Debian package.
func TestMissingTool(t *testing.T) {
	_, err := findTool("wasm-ld", "lld-14", "lowentc-no-such-tool-14", "/nonexistent/wasm-ld")
	want := "wasm32: wasm-ld not found (looked for lowentc-no-such-tool-14, /nonexistent/wasm-ld; Debian package lld-14, which ./setup.sh installs)"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// TestMeasure: the driver's measure mode (lowentc bench) times calls and
// keeps the protocol: a call after it still gets its answer.
func TestMeasure(t *testing.T) {
	p := testprog.Load(t, "testdata/jsapi.lw")
	r, err := Prepare(input(p), backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	c, err := r.MeasureFor("sum", []lang.Value{words(1, 2, 3), word(4)}, 2e6)
	if err != nil {
		t.Fatal(err)
	}
	if c.Unit != "ns" || !(c.Value > 0) {
		t.Errorf("measured %+v", c)
	}
	res, _, err := r.Run("sum", []lang.Value{words(1, 2, 3), word(4)})
	if err != nil || res[0].Word != 10 {
		t.Errorf("after measuring: %v, %v", res, err)
	}
}

// TestJSGoldenCases runs the official vectors of the golden suite for
// SHA-256, BLAKE2b and ChaCha20-Poly1305 (every argument a byte array)
// through the ES modules under Node: each mut argument and result must
// be the reference's.
func TestJSGoldenCases(t *testing.T) {
	byModule := map[string][]golden.Case{}
	all := append(append(golden.Official(), golden.SHAOfficial()...), golden.ChaChaOfficial()...)
	for _, c := range all {
		switch c.Module {
		case "sha256", "blake2b", "chacha20poly1305":
			byModule[c.Module] = append(byModule[c.Module], c)
		}
	}
	for _, mod := range []string{"sha256", "blake2b", "chacha20poly1305"} {
		cases := byModule[mod]
		if len(cases) == 0 {
			t.Fatalf("no official cases of %s", mod)
		}
		t.Run(mod, func(t *testing.T) {
			p := testprog.Stdlib(t, mod)
			dir := t.TempDir()
			emitJS(t, p, dir)
			var js strings.Builder
			fmt.Fprintf(&js, "import * as m from \"./%s.mjs\";\n", mod)
			js.WriteString("const hex = (v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString(\"hex\");\n")
			js.WriteString("const u8 = (h) => Uint8Array.from(Buffer.from(h, \"hex\"));\nconst out = {};\n")
			args := map[string][]lang.Value{}
			for k, c := range cases {
				as := c.Args()
				args[c.Name] = as
				var names []string
				for i, a := range as {
					b, err := golden.ToBytes(a)
					if err != nil {
						t.Fatalf("%s: argument %d: %v", c.Name, i, err)
					}
					fmt.Fprintf(&js, "const c%d_%d = u8(%q);\n", k, i, fmt.Sprintf("%x", b))
					names = append(names, fmt.Sprintf("c%d_%d", k, i))
				}
				fmt.Fprintf(&js, "{ const r = m.%s(%s); out[%q] = [[%s].map(hex), r === undefined ? [] : [Number(r)]]; }\n",
					c.Export, strings.Join(names, ", "), c.Name, strings.Join(names, ", "))
			}
			js.WriteString("console.log(JSON.stringify(out));\n")
			got := runNode(t, dir, js.String())
			for _, c := range cases {
				res, _ := json.Marshal(got[c.Name])
				var r [2][]any
				if err := json.Unmarshal(res, &r); err != nil {
					t.Fatalf("%s: node printed %s", c.Name, res)
				}
				want := c.Want()
				for i, a := range args[c.Name] {
					w, ok := want.Args[i]
					if !ok {
						b, _ := golden.ToBytes(a)
						w = b // untouched
					}
					if g := fmt.Sprint(r[0][i]); g != fmt.Sprintf("%x", w) {
						t.Errorf("%s: argument %d = %s, want %x", c.Name, i, g, w)
					}
				}
				if len(r[1]) != len(want.Results) {
					t.Errorf("%s: %d results, want %d", c.Name, len(r[1]), len(want.Results))
					continue
				}
				for i, x := range r[1] {
					if uint64(x.(float64)) != want.Results[i] {
						t.Errorf("%s: result %d = %v, want %d", c.Name, i, x, want.Results[i])
					}
				}
			}
			t.Logf("%d cases", len(cases))
		})
	}
}
