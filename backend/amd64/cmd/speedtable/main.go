// Command speedtable measures lowentc's amd64 code against OpenSSL (the
// system's openssl command and the OpenSSL bundled in a Node.js binary), Go
// and Go's portable code, side by side in one run, and prints one Markdown
// table per message size:
//
//	go run ./backend/amd64/cmd/speedtable [-sizes 64,1k,16k,1m] [-rounds 5]
//	    [-window 100ms] [-node auto|none|PATH] [-node-driver evp|update]
//
// Everything is timed on the wall clock. A round measures every
// implementation of a row in turn (lowentc --hw auto one-shot and, for
// GCM, CTR and GHASH, with a key context, OpenSSL, Node, Go,
// lowentc --hw none, Go purego; reversed on odd rounds), row after row.
// Each implementation's figure for a round is the best of three windows
// (the lowentc driver's rule: calls double until a window lasts -window;
// openssl speed: three one-second runs). Each cell is the median of the
// rounds and their range.
package main

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"
	"golang.org/x/crypto/poly1305"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/backend/amd64"
	"github.com/lowent/lowentc/driver/middle"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// alg is one measured algorithm (one row).
type alg struct {
	id     string // short name: openssl and node arguments, -go-only -alg
	name   string
	module string // stdlib module and export
	export string
	args   func(data []byte) []lang.Value
	goFn   func(data []byte) func()
	note   string // what one call of each implementation does (Node's apart)
	// nodeUpdate is what one call does when Node is driven through its
	// JavaScript crypto module (-node-driver update); the EVP driver's is
	// in evpNotes.
	nodeUpdate string
}

func bytesVal(b []byte) lang.Value { return golden.Bytes(b) }

var key16, key32 = make([]byte, 16), make([]byte, 32)

func algs() []alg {
	gcm := func() cipher.AEAD {
		b, _ := aes.NewCipher(key16)
		g, _ := cipher.NewGCM(b)
		return g
	}
	return []alg{
		{"gcm", "AES-128-GCM seal", "gcm", "aes128_gcm_seal",
			func(d []byte) []lang.Value {
				return []lang.Value{bytesVal(key16), bytesVal(make([]byte, 12)), bytesVal(nil), bytesVal(d),
					bytesVal(make([]byte, len(d))), bytesVal(make([]byte, 16))}
			},
			func(d []byte) func() {
				g, nonce, out := gcm(), make([]byte, 12), make([]byte, 0, len(d)+16)
				return func() { g.Seal(out[:0], nonce, d, nil) }
			},
			"lowentc: key schedule + H + seal + tag per call; OpenSSL CLI (-aead): IV + 13 B AAD + encrypt + tag per call, key set once; " +
				"Go: Seal, key set once",
			"streaming update() on one cipher object (no IV, tag or final per call; each update() allocates its output)"},
		{"ctr", "AES-128-CTR", "aes", "aes128_ctr",
			func(d []byte) []lang.Value {
				return []lang.Value{bytesVal(key16), bytesVal(make([]byte, 16)), bytesVal(d), bytesVal(make([]byte, len(d)))}
			},
			func(d []byte) func() {
				b, _ := aes.NewCipher(key16)
				iv, out := make([]byte, 16), make([]byte, len(d))
				return func() { cipher.NewCTR(b, iv).XORKeyStream(out, d) }
			},
			"lowentc: key schedule + CTR per call; OpenSSL CLI: streaming update(), key set once; " +
				"Go: NewCTR + XORKeyStream, key set once",
			"streaming update(), key set once (each update() allocates its output)"},
		{"ghash", "GHASH", "ghash", "ghash",
			func(d []byte) []lang.Value {
				return []lang.Value{bytesVal(key16), bytesVal(d), bytesVal(make([]byte, 16))}
			},
			func(d []byte) func() {
				g, nonce, out := gcm(), make([]byte, 12), make([]byte, 0, 16)
				return func() { g.Seal(out[:0], nonce, nil, d) }
			},
			"lowentc: GHASH_H(data) from H per call; OpenSSL CLI: `openssl speed ghash` (gcm_ghash over the buffer, H table set once); " +
				"Go: GCM seal of an empty message with the data as AAD, key set once",
			"one-shot GCM with the data as AAD only (key schedule + H + GHASH + tag per call)"},
		{"sha256", "SHA-256", "sha256", "sha256",
			func(d []byte) []lang.Value { return []lang.Value{bytesVal(d), bytesVal(make([]byte, 32))} },
			func(d []byte) func() { return func() { sha256.Sum256(d) } },
			"lowentc, OpenSSL CLI, Go: one digest per call",
			"streaming update() on one hash object"},
		{"blake2b", "BLAKE2b-512", "blake2b", "blake2b",
			func(d []byte) []lang.Value { return []lang.Value{bytesVal(d), bytesVal(make([]byte, 64))} },
			func(d []byte) func() { return func() { blake2b.Sum512(d) } },
			"lowentc, OpenSSL CLI (blake2b512), Go: one digest per call",
			"streaming update() on one blake2b512 object"},
		{"sha512", "SHA-512", "sha512", "sha512",
			func(d []byte) []lang.Value { return []lang.Value{bytesVal(d), bytesVal(make([]byte, 64))} },
			func(d []byte) func() { return func() { sha512.Sum512(d) } },
			"lowentc, OpenSSL CLI, Go: one digest per call",
			"streaming update() on one hash object"},
		{"sha3_256", "SHA3-256", "sha3", "sha3_256",
			func(d []byte) []lang.Value { return []lang.Value{bytesVal(d), bytesVal(make([]byte, 32))} },
			func(d []byte) func() { return func() { sha3.Sum256(d) } },
			"lowentc, OpenSSL CLI (sha3-256), Go: one digest per call",
			"streaming update() on one sha3-256 object"},
		{"chacha20", "ChaCha20", "chacha20", "chacha20_xor",
			func(d []byte) []lang.Value {
				return []lang.Value{bytesVal(key32), bytesVal(make([]byte, 12)), {Word: 1}, bytesVal(d), bytesVal(make([]byte, len(d)))}
			},
			func(d []byte) func() {
				nonce, out := make([]byte, 12), make([]byte, len(d))
				return func() {
					c, _ := chacha20.NewUnauthenticatedCipher(key32, nonce)
					c.SetCounter(1)
					c.XORKeyStream(out, d)
				}
			},
			"lowentc: key setup + keystream from counter 1 per call; OpenSSL CLI: streaming update(), key set once; " +
				"Go: NewUnauthenticatedCipher + XORKeyStream per call",
			"streaming update(), key set once (each update() allocates its output)"},
		{"poly1305", "Poly1305", "poly1305", "poly1305",
			func(d []byte) []lang.Value {
				return []lang.Value{bytesVal(key32), bytesVal(d), bytesVal(make([]byte, 16))}
			},
			func(d []byte) func() {
				var key [32]byte
				var tag [16]byte
				return func() { poly1305.Sum(&tag, d, &key) }
			},
			"lowentc, Go (x/crypto/poly1305 Sum): one tag per call, key included; OpenSSL 3.0's `openssl speed` has no Poly1305 alone",
			""},
		{"chacha20poly1305", "ChaCha20-Poly1305 seal", "chacha20poly1305", "chacha20_poly1305_seal",
			func(d []byte) []lang.Value {
				return []lang.Value{bytesVal(key32), bytesVal(make([]byte, 12)), bytesVal(nil), bytesVal(d),
					bytesVal(make([]byte, len(d))), bytesVal(make([]byte, 16))}
			},
			func(d []byte) func() {
				a, _ := chacha20poly1305.New(key32)
				nonce, out := make([]byte, 12), make([]byte, 0, len(d)+16)
				return func() { a.Seal(out[:0], nonce, d, nil) }
			},
			"lowentc: one-time key + seal + tag per call; OpenSSL CLI (-aead): IV + 13 B AAD + encrypt + tag per call, key set once; " +
				"Go: Seal, key set once",
			"streaming update() on one cipher object (no IV, tag or final per call; each update() allocates its output)"},
	}
}

// keyed is the key-context form of a row: the export that takes a key
// context, and its arguments for the row's key (the context computed in Go
// in the stdlib's documented layout, as the _init export fills it).
type keyed struct {
	export string
	args   func(data []byte) []lang.Value
}

// keyedAlgs are the rows that have a key-context export (column "lowentc
// auto, key context": the key set up once, as the peers do).
var keyedAlgs = map[string]keyed{
	"gcm": {"aes128_gcm_seal_ctx", func(d []byte) []lang.Value {
		return []lang.Value{golden.Words(golden.GCMCtxRef(key16)), bytesVal(make([]byte, 12)), bytesVal(nil), bytesVal(d),
			bytesVal(make([]byte, len(d))), bytesVal(make([]byte, 16))}
	}},
	"ctr": {"aes128_ctr_ctx", func(d []byte) []lang.Value {
		return []lang.Value{golden.Words(golden.ExpandKeyRef(key16)), bytesVal(make([]byte, 16)), bytesVal(d), bytesVal(make([]byte, len(d)))}
	}},
	"ghash": {"ghash_ctx", func(d []byte) []lang.Value {
		return []lang.Value{golden.Words(golden.GHASHCtxRef(key16)), bytesVal(d), bytesVal(make([]byte, 16))}
	}},
}

// windows is the lowentc driver's timing rule in Go: three times, calls
// double until a window lasts at least w; the best window's rate in MB/s
// for n bytes per call.
func windows(f func(), n int, w time.Duration) float64 {
	best := 0.0
	for round := 0; round < 3; round++ {
		for calls := 1; ; calls *= 2 {
			t0 := time.Now()
			for i := 0; i < calls; i++ {
				f()
			}
			dt := time.Since(t0)
			if dt >= w {
				best = max(best, float64(n)*float64(calls)/dt.Seconds()/1e6)
				break
			}
		}
	}
	return best
}

func testData(n int) []byte {
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i * 7)
	}
	return data
}

func findAlg(id string) (alg, bool) {
	for _, a := range algs() {
		if a.id == id {
			return a, true
		}
	}
	return alg{}, false
}

func main() {
	sizesFlag := flag.String("sizes", "64,1k,16k,1m", "message sizes, comma-separated (bytes, or k/m suffix for KiB/MiB)")
	size := flag.Int("size", 0, "one message size in bytes (overrides -sizes)")
	rounds := flag.Int("rounds", 5, "alternating rounds; cells are the median and range of the rounds")
	window := flag.Duration("window", 100*time.Millisecond, "minimum length of a timing window (lowentc, Go, Node)")
	nodeFlag := flag.String("node", "auto", "Node.js binary for the OpenSSL 3.5 peer: a path, auto (fetch "+nodePackage+" into the user cache) or none")
	nodeDriver := flag.String("node-driver", driverEVP, "how the Node peer is driven: evp (a C loop over the EVP functions of Node's OpenSSL; falls back to update with a notice when it cannot be built) or update (Node's JavaScript crypto calls)")
	only := flag.String("algs", "", "only these rows, comma-separated ids (gcm,ctr,ghash,sha256,blake2b,sha512,sha3_256,chacha20,poly1305,chacha20poly1305)")
	goOnly := flag.Bool("go-only", false, "print one Go figure for -alg at -size (used by the purego build)")
	goAlg := flag.String("alg", "", "the row id for -go-only")
	flag.Parse()
	if *goOnly {
		a, ok := findAlg(*goAlg)
		if !ok || *size <= 0 {
			fmt.Fprintln(os.Stderr, "speedtable: -go-only needs -alg ID and -size N")
			os.Exit(2)
		}
		fmt.Printf("%.3f\n", windows(a.goFn(testData(*size)), *size, *window))
		return
	}
	sizes, err := parseSizes(*sizesFlag)
	if *size > 0 {
		sizes, err = []int{*size}, nil
	}
	if err == nil && *nodeDriver != driverEVP && *nodeDriver != driverUpdate {
		err = fmt.Errorf("-node-driver must be %s or %s", driverEVP, driverUpdate)
	}
	if err != nil || *rounds < 1 || *window <= 0 {
		if err == nil {
			err = fmt.Errorf("-rounds must be ≥ 1 and -window > 0")
		}
		fmt.Fprintln(os.Stderr, "speedtable:", err)
		os.Exit(2)
	}
	as := algs()
	if *only != "" {
		as = nil
		for _, id := range strings.Split(*only, ",") {
			a, ok := findAlg(strings.TrimSpace(id))
			if !ok {
				fmt.Fprintf(os.Stderr, "speedtable: no row %q\n", id)
				os.Exit(2)
			}
			as = append(as, a)
		}
	}
	if err := run(as, sizes, *rounds, *window, *nodeFlag, *nodeDriver); err != nil {
		fmt.Fprintln(os.Stderr, "speedtable:", err)
		os.Exit(1)
	}
}

// impl is one column: how it measures a row at a size. ok is false when
// the implementation has no figure for that row or size.
type impl struct {
	column
	measure func(a alg, size int) (v float64, ok bool, err error)
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func run(as []alg, sizes []int, rounds int, window time.Duration, nodeFlag, nodeDriver string) error {
	// Set-up: the peers, their versions, the lowentc runners.
	model, exts := readCPU()
	ghz := measureClock()
	osslVer, err := opensslVersion()
	if err != nil {
		return fmt.Errorf("openssl version: %v", err)
	}
	tmp, err := os.MkdirTemp("", "speedtable")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var node *nodePeer
	var nodeNotices []string
	if bin, err := findNode(nodeFlag); err != nil {
		nodeNotices = append(nodeNotices, fmt.Sprintf("NOTICE: no Node.js/OpenSSL 3.5 column: %v", err))
	} else if ver, ssl, err := nodeVersions(bin); err != nil {
		nodeNotices = append(nodeNotices, fmt.Sprintf("NOTICE: no Node.js/OpenSSL 3.5 column: %v", err))
	} else {
		node = &nodePeer{bin: bin, version: ver, openssl: ssl, driver: nodeDriver}
		if nodeDriver == driverEVP {
			if node.module, err = buildEVP(bin, tmp); err != nil {
				node.driver = driverUpdate
				nodeNotices = append(nodeNotices, fmt.Sprintf("NOTICE: Node's OpenSSL is driven through JavaScript update() calls (call- and copy-bound): the EVP driver failed: %v", err))
			}
		}
	}
	for _, n := range nodeNotices {
		fmt.Fprintln(os.Stderr, "speedtable:", n)
	}
	pureBin := filepath.Join(tmp, "speedtable-purego")
	if out, err := exec.Command("go", "build", "-tags", "purego", "-o", pureBin,
		"github.com/lowent/lowentc/backend/amd64/cmd/speedtable").CombinedOutput(); err != nil {
		return fmt.Errorf("go build -tags purego (run speedtable inside the repository): %v\n%s", err, out)
	}
	runners := map[string]*amd64.Runner{}
	progs := map[string]*lang.Program{}
	for _, a := range as {
		p, err := golden.Load(a.module)
		if err != nil {
			return err
		}
		progs[a.module] = p
		for _, hw := range []string{"auto", "none"} {
			t, _ := backend.Lookup("amd64")
			opts := backend.Options{HW: hw}
			r, err := amd64.Prepare(middle.New(p, t, opts).Input(), opts)
			if err != nil {
				return err
			}
			defer r.Close()
			runners[a.module+"/"+hw] = r
		}
	}
	data := map[int][]byte{}
	for _, n := range sizes {
		data[n] = testData(n)
	}
	lowentc := func(hw string) func(a alg, n int) (float64, bool, error) {
		return func(a alg, n int) (float64, bool, error) {
			c, err := runners[a.module+"/"+hw].MeasureFor(a.export, a.args(data[n]), uint64(window.Nanoseconds()))
			if err != nil {
				return 0, false, err
			}
			return float64(n) / c.Seconds / 1e6, true, nil
		}
	}
	keyedAuto := func(a alg, n int) (float64, bool, error) {
		k, ok := keyedAlgs[a.id]
		if !ok {
			return 0, false, nil
		}
		c, err := runners[a.module+"/auto"].MeasureFor(k.export, k.args(data[n]), uint64(window.Nanoseconds()))
		if err != nil {
			return 0, false, err
		}
		return float64(n) / c.Seconds / 1e6, true, nil
	}
	sslShort := strings.Join(strings.Fields(osslVer)[:min(2, len(strings.Fields(osslVer)))], " ")
	impls := []impl{
		{column{"lowentc auto, one-shot", "auto", true}, lowentc("auto")},
		{column{"lowentc auto, key context", "auto", true}, keyedAuto},
		{column{sslShort + " CLI", "auto", false}, func(a alg, n int) (float64, bool, error) {
			if opensslArgs(a.id, n) == nil {
				return 0, false, nil
			}
			v, err := opensslSpeed(a.id, n)
			return v, err == nil, err
		}},
	}
	if node != nil {
		impls = append(impls, impl{column{node.columnName(), "auto", false}, func(a alg, n int) (float64, bool, error) {
			if !node.covers(a.id) {
				return 0, false, nil
			}
			v, err := node.speed(a.id, n, window)
			return v, err == nil, err
		}})
	}
	impls = append(impls,
		impl{column{"Go", "auto", false}, func(a alg, n int) (float64, bool, error) {
			return windows(a.goFn(data[n]), n, window), true, nil
		}},
		impl{column{"lowentc none, one-shot", "none", true}, lowentc("none")},
		impl{column{"Go purego", "none", false}, func(a alg, n int) (float64, bool, error) {
			out, err := exec.Command(pureBin, "-go-only", "-alg", a.id, "-size", strconv.Itoa(n), "-window", window.String()).Output()
			if err != nil {
				return 0, false, fmt.Errorf("purego %s: %v", a.id, err)
			}
			v, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
			return v, err == nil, err
		}},
	)

	fmt.Printf("CPU: %s (%s), %d logical CPUs; core clock measured %.2f GHz (dependent adds, wall clock)\n",
		model, strings.Join(exts, " "), runtime.NumCPU(), ghz)
	fmt.Printf("Peers: %s; Go %s (and -tags purego)", osslVer, runtime.Version())
	if node != nil {
		fmt.Printf("; Node %s with OpenSSL %s (%s, driven by %s)", node.version, node.openssl, node.bin, node.driver)
	}
	fmt.Println()
	for _, n := range nodeNotices {
		fmt.Println(n)
	}
	fmt.Printf("Load average at start: %s\n", loadavg())
	start := time.Now()

	// samples[size][row][column]
	samples := map[int][][][]float64{}
	for _, n := range sizes {
		s := make([][][]float64, len(as))
		for r := range s {
			s[r] = make([][]float64, len(impls))
		}
		samples[n] = s
	}
	for round := 0; round < rounds; round++ {
		fmt.Fprintf(os.Stderr, "speedtable: round %d/%d (load %s)\n", round+1, rounds, loadavg())
		for _, n := range sizes {
			for r, a := range as {
				for k := range impls {
					// Odd rounds run the row's implementations in reverse
					// order, so none is always first after a switch.
					c := k
					if round%2 == 1 {
						c = len(impls) - 1 - k
					}
					im := impls[c]
					v, ok, err := im.measure(a, n)
					if err != nil {
						return fmt.Errorf("%s, %s, %d bytes: %v", im.name, a.name, n, err)
					}
					if ok {
						samples[n][r][c] = append(samples[n][r][c], v)
					}
				}
			}
		}
	}
	fmt.Printf("Load average at end: %s (%s for %d rounds)\n", loadavg(), time.Since(start).Round(time.Second), rounds)
	cols := make([]column, len(impls))
	for i, im := range impls {
		cols[i] = im.column
	}
	names := make([]string, len(as))
	for i, a := range as {
		names[i] = a.name
	}
	var out bytes.Buffer
	for _, n := range sizes {
		fmt.Fprintf(&out, "\n### %s messages: MB/s, median (min–max) of %d rounds\n\n", sizeName(n), rounds)
		out.WriteString(formatTable(names, cols, samples[n], ghz))
		if node != nil && node.callBound(n) {
			fmt.Fprintf(&out, "\nNode at %s: one JavaScript call per %s, so its ~1–2 µs call overhead weighs; read that column as call-bound.\n", sizeName(n), sizeName(n))
		}
	}
	out.WriteString("\nOne-shot: each lowentc call does its own key schedule (no key context is kept between calls). " +
		"Key context: the _ctx export with a context filled once (key schedule, H's powers), as the peers keep their key; – where the row has none.\n")
	out.WriteString("c/B: cycles per byte at the measured core clock, from the median.\n")
	out.WriteString("Per round, each figure is the best of three windows: lowentc, Go and Node: calls double until a window lasts ≥ " +
		window.String() + "; OpenSSL CLI: three `openssl speed -elapsed -seconds 1` runs.\n")
	if node != nil {
		out.WriteString(node.how() + "\n")
	}
	for _, a := range as {
		fmt.Fprintf(&out, "%s: %s", a.name, a.note)
		if node != nil {
			fmt.Fprintf(&out, "; Node: %s", node.note(a))
		}
		out.WriteString(".\n")
	}
	fmt.Print(out.String())
	return nil
}
