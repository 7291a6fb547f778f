package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// opensslArgs is the `openssl speed` command line for one algorithm: on
// the wall clock (-elapsed), machine-readable (-mr), one size, one second
// per run; nil for a row OpenSSL's `openssl speed` cannot measure
// (Poly1305 alone). The GCM row uses -aead: each call sets the IV, adds 13 bytes of
// AAD, encrypts and finishes with the tag, a whole seal; without -aead it
// would be streaming updates only.
func opensslArgs(alg string, size int) []string {
	args := []string{"speed", "-elapsed", "-mr", "-seconds", "1", "-bytes", strconv.Itoa(size)}
	switch alg {
	case "gcm":
		return append(args, "-aead", "-evp", "aes-128-gcm")
	case "ctr":
		return append(args, "-evp", "aes-128-ctr")
	case "ghash":
		return append(args, "ghash")
	case "sha256":
		return append(args, "-evp", "sha256")
	case "blake2b":
		return append(args, "-evp", "blake2b512")
	case "sha512":
		return append(args, "-evp", "sha512")
	case "sha3_256":
		return append(args, "-evp", "sha3-256")
	case "chacha20":
		return append(args, "-evp", "chacha20")
	case "chacha20poly1305":
		return append(args, "-aead", "-evp", "chacha20-poly1305")
	}
	return nil
}

// opensslRuns is how many one-second runs make one round's figure (the
// best of them), like the three windows of the other implementations.
const opensslRuns = 3

// opensslSpeed returns the best of opensslRuns runs, in MB/s.
func opensslSpeed(alg string, size int) (float64, error) {
	best := 0.0
	for i := 0; i < opensslRuns; i++ {
		args := opensslArgs(alg, size)
		out, err := exec.Command("openssl", args...).Output()
		if err != nil {
			return 0, fmt.Errorf("openssl %s: %v", strings.Join(args, " "), err)
		}
		v, err := parseOpenSSLSpeed(out)
		if err != nil {
			return 0, fmt.Errorf("openssl %s: %v", strings.Join(args, " "), err)
		}
		best = max(best, v)
	}
	return best, nil
}

// parseOpenSSLSpeed reads the rate, in MB/s (10^6 bytes per second), from
// `openssl speed` output: the -mr line "+F:25:AES-128-GCM:4758192130.00"
// (bytes per second) or, without -mr, the last "k" field of the table
// ("AES-128-GCM    4758192.13k", in 1000s of bytes per second).
func parseOpenSSLSpeed(out []byte) (float64, error) {
	fig, found := 0.0, false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "+F") {
			f := strings.Split(line, ":")
			if len(f) < 4 {
				continue
			}
			v, err := strconv.ParseFloat(f[len(f)-1], 64)
			if err != nil {
				return 0, fmt.Errorf("bad rate in %q", line)
			}
			return v / 1e6, nil
		}
		f := strings.Fields(line)
		if len(f) >= 2 && strings.HasSuffix(f[len(f)-1], "k") {
			if k, err := strconv.ParseFloat(strings.TrimSuffix(f[len(f)-1], "k"), 64); err == nil {
				fig, found = k*1000/1e6, true
			}
		}
	}
	if !found {
		return 0, fmt.Errorf("no rate in output:\n%s", out)
	}
	return fig, nil
}

// opensslVersion is the first line of `openssl version`.
func opensslVersion() (string, error) {
	out, err := exec.Command("openssl", "version").Output()
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0]), nil
}
