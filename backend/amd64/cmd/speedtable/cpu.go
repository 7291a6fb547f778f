package main

import (
	"os"
	"runtime"
	"strings"
	"time"
)

// cpuModel returns the first "model name" of /proc/cpuinfo and which of
// the instruction-set extensions that matter here its flags list.
func cpuModel(cpuinfo string) (model string, exts []string) {
	var flags map[string]bool
	for _, line := range strings.Split(cpuinfo, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if k == "model name" && model == "" {
			model = v
		}
		if k == "flags" && flags == nil {
			flags = map[string]bool{}
			for _, f := range strings.Fields(v) {
				flags[f] = true
			}
		}
	}
	for _, f := range []string{"aes", "pclmulqdq", "avx2", "avx512f", "vaes", "vpclmulqdq", "sha_ni"} {
		if flags[f] {
			exts = append(exts, f)
		}
	}
	return model, exts
}

func readCPU() (string, []string) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown (no /proc/cpuinfo)", nil
	}
	return cpuModel(string(b))
}

// addChainLen is the number of dependent adds per addChain iteration.
const addChainLen = 16

// measureClock estimates the core clock in GHz: addChain runs a chain of
// dependent one-cycle adds, so cycles = adds. The fastest of many ~1 ms
// runs on the wall clock counts: a run that lost the CPU is slower, never
// faster, and short runs are likely to find a quiet moment on a busy
// machine.
func measureClock() float64 {
	if runtime.GOARCH != "amd64" {
		return 0
	}
	const iters = 250_000
	best := 0.0
	for i := 0; i < 300; i++ {
		t0 := time.Now()
		addChain(iters)
		dt := time.Since(t0).Seconds()
		best = max(best, float64(iters*addChainLen)/dt/1e9)
	}
	return best
}
