package main

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"
	"golang.org/x/crypto/poly1305"

	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/vm"
)

// Captured `openssl speed -elapsed -mr -seconds 1 -aead -evp aes-128-gcm
// -bytes 64` output (3.0.19).
const mrOutput = `You have chosen to measure elapsed time instead of user CPU time.
+DT:AES-128-GCM:1:64
+R:2040199:AES-128-GCM:1.000000
version: 3.0.19
built on: Fri Apr  3 12:29:32 2026 UTC
options: bn(64,64)
+H:64
+F:25:AES-128-GCM:130572736.00
`

// The same without -mr, from `openssl speed -elapsed ghash -bytes 16384`.
const humanOutput = `You have chosen to measure elapsed time instead of user CPU time.
Doing ghash for 1s on 16384 size blocks: 1028916 ghash's in 1.00s
version: 3.0.19
options: bn(64,64)
CPUINFO: OPENSSL_ia32cap=0xfffa32034f8bffff:0x1a415f46f1bf2ffb
The 'numbers' are in 1000s of bytes per second processed.
type          16384 bytes
ghash         16857759.74k
`

func TestParseOpenSSLSpeed(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want float64
	}{
		{mrOutput, 130.572736},
		{humanOutput, 16857.75974},
	} {
		got, err := parseOpenSSLSpeed([]byte(tc.out))
		if err != nil {
			t.Fatal(err)
		}
		if d := got - tc.want; d > 1e-6 || d < -1e-6 {
			t.Errorf("got %v MB/s, want %v", got, tc.want)
		}
	}
	for _, bad := range []string{"", "Doing ghash for 1s\n", "+F:25:AES-128-GCM:oops\n"} {
		if v, err := parseOpenSSLSpeed([]byte(bad)); err == nil {
			t.Errorf("%q: got %v, want an error", bad, v)
		}
	}
}

func TestOpenSSLArgs(t *testing.T) {
	got := strings.Join(opensslArgs("gcm", 1024), " ")
	if got != "speed -elapsed -mr -seconds 1 -bytes 1024 -aead -evp aes-128-gcm" {
		t.Errorf("gcm: %s", got)
	}
	got = strings.Join(opensslArgs("ghash", 64), " ")
	if got != "speed -elapsed -mr -seconds 1 -bytes 64 ghash" {
		t.Errorf("ghash: %s", got)
	}
	for _, a := range algs() {
		args := opensslArgs(a.id, 64)
		if a.id == "poly1305" {
			// openssl speed has no Poly1305 alone: the row has no
			// OpenSSL figure rather than a command that fails.
			if args != nil {
				t.Errorf("poly1305: %v", args)
			}
			continue
		}
		if len(args) == 0 || args[1] != "-elapsed" {
			t.Errorf("%s: %v is not on the wall clock", a.id, args)
		}
	}
}

func TestSummarize(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want summary
	}{
		{nil, summary{}},
		{[]float64{5}, summary{5, 5, 5, 1}},
		{[]float64{9, 1, 5}, summary{5, 1, 9, 3}},
		{[]float64{4, 1, 3, 10}, summary{3.5, 1, 10, 4}},
	} {
		in := append([]float64(nil), tc.in...)
		if got := summarize(tc.in); got != tc.want {
			t.Errorf("summarize(%v) = %+v, want %+v", tc.in, got, tc.want)
		}
		if !reflect.DeepEqual(in, tc.in) {
			t.Errorf("summarize reordered its input: %v", tc.in)
		}
	}
}

func TestFormatTable(t *testing.T) {
	cols := []column{
		{"lowentc auto", "auto", true},
		{"OpenSSL", "auto", false},
		{"Node", "auto", false},
		{"lowentc none", "none", true},
		{"purego", "none", false},
	}
	samples := [][][]float64{
		{{1000, 900, 1100}, {800, 850, 700}, {1200, 1250, 1300}, {100}, {50, 60}},
		{{2000}, {}, {}, {10}, {}},
	}
	got := formatTable([]string{"GCM", "X"}, cols, samples, 3.0)
	want := `| algorithm | lowentc auto | c/B | OpenSSL | Node | best peer (auto) | lowentc auto / best | lowentc none | c/B | purego | best peer (none) | lowentc none / best |
|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---|---:|
| GCM | 1000 (900–1100) | 3.00 | 800 (700–850) | 1250 (1200–1300) | Node | 0.80× | 100 | 30.00 | 55.0 (50.0–60.0) | purego | 1.82× |
| X | 2000 | 1.50 | – | – | – | – | 10.0 | 300.00 | – | – | – |
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// No clock: no cycles per byte.
	if got := formatTable([]string{"X"}, cols[:1], [][][]float64{{{10}}}, 0); !strings.Contains(got, "| X | 10.0 | – |") {
		t.Errorf("without a clock:\n%s", got)
	}
}

func TestParseSizes(t *testing.T) {
	got, err := parseSizes("64,1k,16K,1m")
	if err != nil || !reflect.DeepEqual(got, []int{64, 1024, 16384, 1 << 20}) {
		t.Errorf("got %v, %v", got, err)
	}
	for _, bad := range []string{"", "0", "-5", "1x", "k", "1.5k", "64,,1k"} {
		if v, err := parseSizes(bad); err == nil {
			t.Errorf("%q: got %v, want an error", bad, v)
		}
	}
	for n, want := range map[int]string{64: "64 B", 1024: "1 KiB", 16384: "16 KiB", 1 << 20: "1 MiB", 1500: "1500 B"} {
		if got := sizeName(n); got != want {
			t.Errorf("sizeName(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCPUModel(t *testing.T) {
	info := "processor\t: 0\nmodel name\t: Test CPU @ 2.00GHz\nflags\t\t: fpu sse2 aes avx2 sha_ni vaes\n\nprocessor\t: 1\nmodel name\t: Other\n"
	model, exts := cpuModel(info)
	if model != "Test CPU @ 2.00GHz" || !reflect.DeepEqual(exts, []string{"aes", "avx2", "vaes", "sha_ni"}) {
		t.Errorf("got %q %v", model, exts)
	}
}

func TestParseNode(t *testing.T) {
	v, err := parseNode([]byte(`{"openssl":"3.5.8","mbs":12345.5}` + "\n"))
	if err != nil || v != 12345.5 {
		t.Errorf("got %v, %v", v, err)
	}
	for _, bad := range []string{"", "Error: boom", `{"openssl":"3.5.8","mbs":0}`} {
		if _, err := parseNode([]byte(bad)); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func TestAddChain(t *testing.T) {
	if got := addChain(1000); got != 1000*addChainLen {
		t.Errorf("addChain(1000) = %d, want %d", got, 1000*addChainLen)
	}
}

func TestWindowsCountsBytes(t *testing.T) {
	// A window rule that stops at once: the rate is positive and finite.
	calls := 0
	if v := windows(func() { calls++ }, 1, 1); v <= 0 || calls < 3 {
		t.Errorf("windows = %v after %d calls", v, calls)
	}
}

// TestKeyedRowsMatchOneShot runs each row's key-context export on the VM
// with the arguments the key-context column times, beside the row's
// one-shot export: same outputs, so the column measures the same work.
func TestKeyedRowsMatchOneShot(t *testing.T) {
	for _, id := range []string{"gcm", "ctr", "ghash"} {
		a, ok := findAlg(id)
		k, kok := keyedAlgs[id]
		if !ok || !kok {
			t.Errorf("row %s: no one-shot or no key-context form", id)
			continue
		}
		p := testprog.Stdlib(t, a.module)
		data := testData(160)
		one, ctx := a.args(data), k.args(data)
		if _, _, err := vm.Run(p, p.Export(a.export), one, vm.Options{}); err != nil {
			t.Fatalf("%s: %v", a.export, err)
		}
		if _, _, err := vm.Run(p, p.Export(k.export), ctx, vm.Options{}); err != nil {
			t.Fatalf("%s: %v", k.export, err)
		}
		// The outputs are the last arguments of both (ct and tag; dst; out).
		outs := map[string]int{"gcm": 2, "ctr": 1, "ghash": 1}[id]
		for i := 1; i <= outs; i++ {
			if !slices.Equal(one[len(one)-i].Elems, ctx[len(ctx)-i].Elems) {
				t.Errorf("%s: output %d of %s differs from %s", id, len(ctx)-i, k.export, a.export)
			}
		}
	}
}

// The Poly1305 row measures the same computation on both sides: the
// lowentc export's arguments give Go's tag for the same key and data.
func TestPoly1305RowMatchesGo(t *testing.T) {
	a, ok := findAlg("poly1305")
	if !ok {
		t.Fatal("no poly1305 row")
	}
	p := testprog.Stdlib(t, a.module)
	data := testData(1000)
	args := a.args(data)
	if _, _, err := vm.Run(p, p.Export(a.export), args, vm.Options{}); err != nil {
		t.Fatal(err)
	}
	var key [32]byte
	var want [16]byte
	copy(key[:], key32)
	poly1305.Sum(&want, data, &key)
	got := make([]byte, 16)
	for i, e := range args[len(args)-1].Elems {
		got[i] = byte(e)
	}
	if !slices.Equal(got, want[:]) {
		t.Errorf("tag %x, Go's %x", got, want)
	}
}

// TestNodePeerDrivers: the EVP driver measures every row at every size,
// 64 B and 1 KiB included, and is not call-bound; the update driver has no
// Poly1305 and is call-bound below 1 MiB. Both say in the notes how Node
// is driven.
func TestNodePeerDrivers(t *testing.T) {
	evp := &nodePeer{openssl: "3.5.8", version: "v26", driver: driverEVP}
	upd := &nodePeer{openssl: "3.5.8", version: "v26", driver: driverUpdate}
	for _, a := range algs() {
		if !evp.covers(a.id) {
			t.Errorf("evp driver: no %s row", a.id)
		}
		if evp.note(a) == "" || upd.note(a) == "" {
			t.Errorf("%s: no note for the Node column", a.id)
		}
		if upd.covers(a.id) == (a.id == "poly1305") {
			t.Errorf("update driver covers %s: %v", a.id, upd.covers(a.id))
		}
	}
	for _, n := range []int{64, 1024, 16 << 10, 1 << 20} {
		if evp.callBound(n) {
			t.Errorf("evp driver call-bound at %d", n)
		}
		if upd.callBound(n) != (n < 1<<20) {
			t.Errorf("update driver at %d: call-bound %v", n, upd.callBound(n))
		}
	}
	if !strings.Contains(evp.how(), "C loop") || !strings.Contains(evp.how(), "copies") || !strings.Contains(upd.how(), "update()") {
		t.Errorf("notes: %q / %q", evp.how(), upd.how())
	}
	if evp.columnName() == upd.columnName() {
		t.Errorf("both drivers print the column %q", evp.columnName())
	}
}

// TestEVPBenchMatchesGo builds evpbench against the cached Node package
// and checks that one call of each row computes what the Go column
// computes for the same key, IV and data, and that run gives a rate at
// every size of the default run.
func TestEVPBenchMatchesGo(t *testing.T) {
	bin := filepath.Join(nodeCacheDir(), "package", "bin", "node")
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("no cached Node package (speedtable fetches it): %v", err)
	}
	mod, err := buildEVP(bin, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const n = 100
	data := testData(n)
	zero12, zero16 := make([]byte, 12), make([]byte, 16)
	b, _ := aes.NewCipher(key16)
	g, _ := cipher.NewGCM(b)
	ctr := make([]byte, n)
	cipher.NewCTR(b, zero16).XORKeyStream(ctr, data)
	cc := make([]byte, n)
	c20, _ := chacha20.NewUnauthenticatedCipher(key32, zero12)
	c20.XORKeyStream(cc, data)
	cp, _ := chacha20poly1305.New(key32)
	s256, s512, s3 := sha256.Sum256(data), sha512.Sum512(data), sha3.Sum256(data)
	b2 := blake2b.Sum512(data)
	var ptag [16]byte
	var pkey [32]byte
	poly1305.Sum(&ptag, data, &pkey)
	want := map[string][]byte{
		"gcm":              g.Seal(nil, zero12, data, nil),
		"ctr":              ctr,
		"ghash":            g.Seal(nil, zero12, nil, data),
		"sha256":           s256[:],
		"sha512":           s512[:],
		"sha3_256":         s3[:],
		"blake2b":          b2[:],
		"chacha20":         cc,
		"poly1305":         ptag[:],
		"chacha20poly1305": cp.Seal(nil, zero12, data, nil),
	}
	script := `const m = require(process.argv[1]); for (const a of process.argv.slice(2)) console.log(a, m.once(a, ` +
		strconv.Itoa(n) + `).toString('hex'), m.run(a, 64, 1e5) > 0 && m.run(a, 1024, 1e5) > 0)`
	ids := []string{}
	for _, a := range algs() {
		ids = append(ids, a.id)
	}
	out, err := exec.Command(bin, append([]string{"-e", script, mod}, ids...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(ids) {
		t.Fatalf("got %d lines for %d rows:\n%s", len(lines), len(ids), out)
	}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) != 3 || f[2] != "true" {
			t.Errorf("line %q", l)
			continue
		}
		if w := hex.EncodeToString(want[f[0]]); f[1] != w {
			t.Errorf("%s: evpbench %s, Go %s", f[0], f[1], w)
		}
	}
}
