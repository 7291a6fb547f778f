package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cliCase is one command line and what lowentc answered.
type cliCase struct {
	Args   []string `json:"args"`
	Status int      `json:"status"`
	Stdout string   `json:"stdout"`
	Stderr string   `json:"stderr"`
}

const cliSrc = "testdata/cli/ok.lw"

// cliContractArgs are command lines that exercise the parsing of flags:
// every spelling, every error of a name or a value, warnings, and
// positional arguments among flags. Their answers are pinned in
// testdata/cli/flags.json.
var cliContractArgs = [][]string{
	{},
	{"--help"}, {"-h"}, {"-help"}, {"help"}, {"--help", "--target", "jcvm"},
	{"run", "--help"}, {cliSrc, "--help"}, {cliSrc, "-h"}, {"check", "-h", cliSrc}, {"bench", "--help"},
	{"--bogus", cliSrc}, {"-bogus", cliSrc}, {"-x", cliSrc}, {"-xyz", cliSrc}, {"---x", cliSrc},
	{"--=x", cliSrc}, {"--bogus=3", cliSrc}, {"--d", "dump=all", cliSrc}, {"--W", "8", cliSrc},
	{"--o", "x", cliSrc}, {"-vo", "x", cliSrc}, {"-ox", cliSrc}, {"-Wx", cliSrc},
	{"run", "--bogus", cliSrc, "f"}, {"bench", "-q", cliSrc, "f"},
	{"check", "--target", "vm", cliSrc}, {"check", "-v", cliSrc}, {"check", "--verbose", cliSrc},
	{"check", "-v=1", cliSrc}, {"check", "--verbose=", cliSrc}, {"check", cliSrc, "-v", "--", "-v"},
	{"--stats=1", cliSrc}, {"--no-int=true", "--target", "jcvm", cliSrc}, {"-stats=", cliSrc},
	{cliSrc, "--target"}, {cliSrc, "-target"}, {cliSrc, "-o"}, {cliSrc, "-W"}, {cliSrc, "-d"},
	{"run", cliSrc, "f", "--timing"}, {"bench", cliSrc, "f", "--size"}, {cliSrc, "--target", "--"},
	{"--width", "x", cliSrc}, {"-W", "x", cliSrc}, {"-width=-1", cliSrc}, {"--width", "12", "--target", "ir", cliSrc},
	{"--opt", "fast", cliSrc}, {"-opt=fast", cliSrc}, {"run", "--timing", "x", cliSrc, "f"},
	{"run", "--max-cycles", "0", cliSrc, "f"}, {"run", "-max-cycles=x", cliSrc, "f"},
	{"--entry", "", cliSrc}, {"--entry=", cliSrc}, {"--aid", "zz", cliSrc}, {"-aid", "F0", cliSrc},
	{"-d", "x", cliSrc}, {"-d", "dump=nosuch", cliSrc}, {"-d", "help"}, {"-d=help"}, {"-d", "dump=all", "-d", "help", cliSrc},
	{"bench", "--size", "0", cliSrc, "h"}, {"bench", "--size", "-1", cliSrc, "h"}, {"bench", "-block", "x", cliSrc, "h"},
	{"bench", "--block", "16", "--size", "16", cliSrc, "h"}, {"bench", "--data", "nosuch", cliSrc, "h"},
	{"--target", "nosuch", cliSrc}, {"--target=", cliSrc}, {"--hw=", cliSrc}, {"--hw", "avx9", cliSrc},
	{"--target", "amd64", "--hw", "bogus", cliSrc}, {"--card", "nosuch", cliSrc}, {"--storage", "x", cliSrc},
	{"run", "--card", "nosuch", "--storage", "x", cliSrc, "f", "x=1"},
	{"--target", "jcvm", "--hw", "bogus", "--emit", "ir", cliSrc},
	{"--target", "mos6502", "--card", "nosuch", cliSrc},
	{"run", "--target", "vm", "--no-int", "--opt", "size", cliSrc, "f", "x=1"},
	{"run", "--timing", "c64", "--max-cycles", "5", "--card", "jcop3", "--storage", "auto", "--width", "8", cliSrc, "f", "x=1"},
	{"--target", "ir", "--hw", "sha", "-W", "16", "--no-int", "--opt", "size", "--entry", "h", "--aid", "F04C574E5401", "--no-card-limits", "--card", "jcop3", "--emit", "ir", cliSrc},
	{"--target", "vm", "--no-card-limits", "--entry", "h", "--aid", "F04C574E5401", cliSrc},
	{"--target", "jcvm", "--opt", "size", "--entry", "h", "--hw", "aes", "--emit", "ir", cliSrc},
	{"--target", "mos6502", "--entry", "h", "--no-int", cliSrc, "--emit", "ir"},
	{"run", cliSrc, "--stats", "f", "x=1"}, {"run", cliSrc, "f", "x=1", "--stats"}, {"run", "--", cliSrc, "f", "x=1"},
	{"run", cliSrc, "f", "--", "--stats"}, {"run", cliSrc, "f", "x=1", "-"}, {"run", "-stats", "-target=ir", "-width", "8", cliSrc, "f", "x=7"},
	{"--target=ir", "--width=32", "--emit=ir", cliSrc}, {"-W", "8", "--target", "ir", "--emit", "ir", "-o", "-", cliSrc},
	{"-o=-", "--target", "ir", "--emit", "ir", cliSrc}, {"--output", "-", "--target", "ir", "--emit", "ir", cliSrc},
	{"--target", "ir", "--target", "vm", cliSrc}, {"run", "--emit", "ir", cliSrc, "f"}, {"run", "--entry", "f", cliSrc, "f"},
	{"--timing", "ideal", cliSrc}, {"--size", "16", cliSrc}, {"check", "--stats", cliSrc},
	{cliSrc, cliSrc}, {"run", cliSrc}, {"check"}, {"bench", cliSrc},
	{"--target", "ir", "--emit", "nosuch", cliSrc}, {"--stats", "--target", "ir", cliSrc},
	{"--target", "wasm32", "--hw", "simd128", cliSrc}, {"run", "--target", "wasm32", "--hw", "aes", cliSrc, "f", "x=1"},
	{"run", "--target", "wasm32", "--hw", "none", cliSrc, "f", "x=1"}, {"--target", "wasm32", "--emit", "dts", cliSrc},
	{"--target", "wasm32", "--emit", "nosuch", cliSrc},
	{"--target", "arm64", "--hw", "bogus", cliSrc}, {"--target", "arm64", "--hw", "aes", cliSrc},
	{"run", "--target", "arm64", "--hw", "auto", cliSrc, "f", "x=1"}, {"run", "--target", "arm64", "--hw", "crypto", cliSrc, "f", "x=1"},
	{"--target", "arm64", "--emit", "h", cliSrc}, {"--target", "arm64", "--emit", "nosuch", cliSrc},
	{"--target", "vm", "--hw", "crypto", cliSrc},
	{"run", "--target", "mos6502", "--opt", "balanced", "--stats", cliSrc, "f", "x=7"},
	{"--target", "mos6502", "--opt=balanced", "--emit", "ir", cliSrc}, {"--target", "mos6502", "--opt", "Balanced", cliSrc},
}

// wallClock matches the host's time of a call, which differs run to run.
var wallClock = regexp.MustCompile(`(?m)^ns=\d+$`)

// TestCommandLineContract pins lowentc's answer (status, standard output
// and standard error) to each command line of cliContractArgs, so that
// the parsing of flags keeps the contract of docs/cli.md exactly. -update
// rewrites testdata/cli/flags.json.
func TestCommandLineContract(t *testing.T) {
	golden := filepath.Join("testdata", "cli", "flags.json")
	var got []cliCase
	for _, args := range cliContractArgs {
		status, out, errs := lowentc(args...)
		errs = wallClock.ReplaceAllString(errs, "ns=N")
		got = append(got, cliCase{Args: append([]string{}, args...), Status: status, Stdout: out, Stderr: errs})
	}
	if *update {
		data, err := json.MarshalIndent(got, "", "  ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(golden, append(data, '\n'), 0o644))
		return
	}
	data, err := os.ReadFile(golden)
	require.NoError(t, err, "run go test ./cmd/lowentc -run TestCommandLineContract -update to write it")
	var want []cliCase
	require.NoError(t, json.Unmarshal(data, &want))
	require.Len(t, got, len(want), "cases added or removed: rewrite with -update")
	for i := range want {
		assert.Equal(t, want[i], got[i], "lowentc %q", want[i].Args)
	}
}

// TestTargetsRegisterTheirFlags: the targets a flag acts on, and its entry
// in --help, come from the registrations of the targets that read it
// (--hw: amd64's, the hosts' and arm64's).
func TestTargetsRegisterTheirFlags(t *testing.T) {
	acts := map[string][]string{}
	for _, d := range flagDefs() {
		if d.targets != nil {
			acts[d.name] = d.targets
		}
	}
	assert.Equal(t, map[string][]string{
		"width": {"ir"}, "hw": {"amd64", "vm", "ir", "arm64", "wasm32"},
		"jc-home": {"jcvm"}, "route": {"jcvm"},
		"no-int": {"jcvm"}, "card": {"jcvm"}, "storage": {"jcvm"}, "no-card-limits": {"jcvm"}, "aid": {"jcvm"},
		"opt": {"mos6502"}, "entry": {"mos6502"}, "timing": {"mos6502"}, "max-cycles": {"mos6502"},
	}, acts)
	_, help, _ := lowentc("--help")
	for _, d := range flagDefs() {
		for _, line := range d.help {
			assert.Contains(t, help, line+"\n", d.name)
		}
	}
}

// TestOneDashLongFlags: every long flag may be written with one dash,
// -o's and -v's (-output, -verbose) too.
func TestOneDashLongFlags(t *testing.T) {
	status, out, errs := lowentc("-output", "-", "-target", "ir", "-emit=ir", cliSrc)
	require.Equal(t, exitOK, status, errs)
	assert.Contains(t, out, "module ok w=64\n")
	status, out, errs = lowentc("check", "-verbose", cliSrc)
	require.Equal(t, exitOK, status, errs)
	assert.Contains(t, out, "export fn ok.f effects=none")
}
