// Command speedtable measures lowentc's amd64 code against OpenSSL and Go
// at one message size, side by side in one run, and prints a table:
//
//	go run ./backend/amd64/cmd/speedtable [-size 16384] [-rounds 3]
//
// Every figure is MB/s (10^6 bytes per second), the best of -rounds rounds
// in which each implementation is measured in turn. lowentc runs natively
// through the amd64 runner (--hw auto and --hw none); OpenSSL through
// `openssl speed -evp ALG -bytes SIZE -seconds 1`; Go in this process
// (crypto/aes, crypto/cipher, crypto/sha256, x/crypto/blake2b), and Go's
// portable code by rerunning this command with -tags purego -go-only.
package main

import (
	"bufio"
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/blake2b"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/backend/amd64"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// alg is one measured algorithm.
type alg struct {
	name    string
	module  string // stdlib module and export
	export  string
	args    func(data []byte) []lang.Value
	openssl string // openssl speed -evp name ("" for none)
	goFn    func(data []byte) func()
}

func bytesVal(b []byte) lang.Value { return golden.Bytes(b) }

var key16 = make([]byte, 16)

func algs() []alg {
	gcm := func() cipher.AEAD {
		b, _ := aes.NewCipher(key16)
		g, _ := cipher.NewGCM(b)
		return g
	}
	return []alg{
		{"AES-128-GCM seal", "gcm", "aes128_gcm_seal",
			func(d []byte) []lang.Value {
				return []lang.Value{bytesVal(key16), bytesVal(make([]byte, 12)), bytesVal(nil), bytesVal(d),
					bytesVal(make([]byte, len(d))), bytesVal(make([]byte, 16))}
			}, "aes-128-gcm",
			func(d []byte) func() {
				g, nonce, out := gcm(), make([]byte, 12), make([]byte, 0, len(d)+16)
				return func() { g.Seal(out[:0], nonce, d, nil) }
			}},
		{"AES-128-CTR", "aes", "aes128_ctr",
			func(d []byte) []lang.Value {
				return []lang.Value{bytesVal(key16), bytesVal(make([]byte, 16)), bytesVal(d), bytesVal(make([]byte, len(d)))}
			}, "aes-128-ctr",
			func(d []byte) func() {
				b, _ := aes.NewCipher(key16)
				iv, out := make([]byte, 16), make([]byte, len(d))
				return func() { cipher.NewCTR(b, iv).XORKeyStream(out, d) }
			}},
		{"GHASH (GCM over AAD only)", "ghash", "ghash",
			func(d []byte) []lang.Value {
				return []lang.Value{bytesVal(key16), bytesVal(d), bytesVal(make([]byte, 16))}
			}, "",
			func(d []byte) func() {
				g, nonce, out := gcm(), make([]byte, 12), make([]byte, 0, 16)
				return func() { g.Seal(out[:0], nonce, nil, d) }
			}},
		{"SHA-256", "sha256", "sha256",
			func(d []byte) []lang.Value { return []lang.Value{bytesVal(d), bytesVal(make([]byte, 32))} },
			"sha256",
			func(d []byte) func() { return func() { sha256.Sum256(d) } }},
		{"BLAKE2b-512", "blake2b", "blake2b",
			func(d []byte) []lang.Value { return []lang.Value{bytesVal(d), bytesVal(make([]byte, 64))} },
			"blake2b512",
			func(d []byte) func() { return func() { blake2b.Sum512(d) } }},
	}
}

// goSpeed times f for about dur and returns MB/s for n bytes per call.
func goSpeed(f func(), n int, dur time.Duration) float64 {
	best := 0.0
	for round := 0; round < 2; round++ {
		calls := 0
		start := time.Now()
		for time.Since(start) < dur/2 {
			f()
			calls++
		}
		mbs := float64(n) * float64(calls) / time.Since(start).Seconds() / 1e6
		if mbs > best {
			best = mbs
		}
	}
	return best
}

// opensslSpeed runs openssl speed and returns MB/s.
func opensslSpeed(name string, size int) (float64, error) {
	out, err := exec.Command("openssl", "speed", "-evp", name, "-bytes", strconv.Itoa(size), "-seconds", "1").Output()
	if err != nil {
		return 0, fmt.Errorf("openssl speed -evp %s: %v", name, err)
	}
	// The figure is the last field of the last line, in 1000s of bytes
	// per second: "AES-128-GCM    6392345.03k".
	fig := -1.0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && strings.HasSuffix(f[len(f)-1], "k") {
			if k, err := strconv.ParseFloat(strings.TrimSuffix(f[len(f)-1], "k"), 64); err == nil {
				fig = k * 1000 / 1e6
			}
		}
	}
	if fig >= 0 {
		return fig, nil
	}
	return 0, fmt.Errorf("openssl speed -evp %s: no figure in\n%s", name, out)
}

func main() {
	size := flag.Int("size", 16384, "message size in bytes")
	rounds := flag.Int("rounds", 3, "rounds of side-by-side measurement")
	goOnly := flag.Bool("go-only", false, "print only Go's figures (used with -tags purego)")
	flag.Parse()
	data := make([]byte, *size)
	for i := range data {
		data[i] = byte(i * 7)
	}
	as := algs()
	if *goOnly {
		for _, a := range as {
			fmt.Printf("%s\t%.1f\n", a.name, goSpeed(a.goFn(data), *size, 400*time.Millisecond))
		}
		return
	}
	if err := run(as, data, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "speedtable:", err)
		os.Exit(1)
	}
}

type row struct{ auto, none, ossl, gov, pure float64 }

func maxf(a *float64, b float64) {
	if b > *a {
		*a = b
	}
}

func run(as []alg, data []byte, rounds int) error {
	runners := map[string]*amd64.Runner{}
	progs := map[string]*lang.Program{}
	for _, a := range as {
		p, err := golden.Load(a.module)
		if err != nil {
			return err
		}
		progs[a.module] = p
		for _, hw := range []string{"auto", "none"} {
			r, err := amd64.Prepare(p, backend.Options{HW: hw})
			if err != nil {
				return err
			}
			defer r.Close()
			runners[a.module+"/"+hw] = r
		}
	}
	rows := make([]row, len(as))
	n := len(data)
	for round := 0; round < rounds; round++ {
		for i, a := range as {
			fn := progs[a.module].Export(a.export)
			for _, hw := range []string{"auto", "none"} {
				c, err := runners[a.module+"/"+hw].MeasureFor(fn, a.args(data), 100e6)
				if err != nil {
					return err
				}
				mbs := float64(n) / c.Seconds / 1e6
				if hw == "auto" {
					maxf(&rows[i].auto, mbs)
				} else {
					maxf(&rows[i].none, mbs)
				}
			}
			maxf(&rows[i].gov, goSpeed(a.goFn(data), n, 300*time.Millisecond))
			if a.openssl != "" {
				v, err := opensslSpeed(a.openssl, n)
				if err != nil {
					return err
				}
				maxf(&rows[i].ossl, v)
			}
		}
		pure, err := purego(n)
		if err != nil {
			return err
		}
		for i, a := range as {
			maxf(&rows[i].pure, pure[a.name])
		}
	}
	fmt.Printf("%d-byte messages, MB/s (best of %d alternating rounds)\n\n", n, rounds)
	fmt.Println("| algorithm | lowentc --hw auto | OpenSSL | Go | auto/OpenSSL | auto/Go | lowentc --hw none | Go purego | none/purego |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for i, a := range as {
		r := rows[i]
		ossl, ratio := "–", "–"
		if r.ossl > 0 {
			ossl, ratio = fmt.Sprintf("%.0f", r.ossl), fmt.Sprintf("%.2f×", r.auto/r.ossl)
		}
		fmt.Printf("| %s | %.0f | %s | %.0f | %s | %.2f× | %.0f | %.0f | %.2f× |\n", a.name, r.auto, ossl, r.gov, ratio,
			r.auto/r.gov, r.none, r.pure, r.none/r.pure)
	}
	return nil
}

// purego reruns this command's Go measurements built with -tags purego.
func purego(size int) (map[string]float64, error) {
	out, err := exec.Command("go", "run", "-tags", "purego", "./backend/amd64/cmd/speedtable",
		"-go-only", "-size", strconv.Itoa(size)).Output()
	if err != nil {
		return nil, fmt.Errorf("go run -tags purego (run speedtable from the repository root): %v", err)
	}
	m := map[string]float64{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) == 2 {
			v, _ := strconv.ParseFloat(f[1], 64)
			m[f[0]] = v
		}
	}
	return m, nil
}
