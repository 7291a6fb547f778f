// Command lowentc compiles Lowent, a small effects-typed language for
// cryptographic kernels, to a reference VM, amd64, Java Card and the 6502.
//
// Usage:
//
//	lowentc [--target T] [--hw H] [--emit KIND] [-o OUT] [-d dump=PASS] [--stats] FILE.lw
//	lowentc check [-v] FILE.lw...
//	lowentc run [--target T] [--hw H] [--stats] FILE.lw ENTRY [NAME=VALUE ...]
//	lowentc bench [--target T] [--hw H] [--stats] FILE.lw ENTRY [--size N | --block B] [--data NAME] [NAME=VALUE ...]
//
// See docs/cli.md for the whole contract.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/lang"
)

// Exit statuses: 0 success, 1 a diagnosed failure (compile error, trap,
// missing tool), 2 a usage error.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

func main() {
	// An interrupt still removes the backends' temporary files.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		backend.Cleanup()
		os.Exit(130)
	}()
	status := run(os.Args[1:], os.Stdout, os.Stderr)
	backend.Cleanup()
	os.Exit(status)
}

// run is main without the process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) (status int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "lowentc: internal error (please report): %v\n", r)
			status = exitFail
		}
	}()
	if wantsHelp(args) {
		fmt.Fprint(stdout, usage())
		return exitOK
	}
	if len(args) > 0 {
		switch args[0] {
		case "check":
			return cmdCheck(args[1:], stdout, stderr)
		case "run":
			return cmdRun(args[1:], stdout, stderr)
		case "bench":
			return cmdBench(args[1:], stdout, stderr)
		case "help":
			fmt.Fprint(stdout, usage())
			return exitOK
		}
	}
	return cmdCompile(args, stdout, stderr)
}

// wantsHelp reports whether the command line asks for --help (-h, -help)
// anywhere before a "--": `lowentc bench --help` prints the usage as
// `lowentc --help` does, rather than refusing the flag.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// usageError prints one line and returns the usage exit status.
func usageError(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "lowentc: "+format+" (lowentc --help for usage)\n", args...)
	return exitUsage
}

// failErr reports err and returns the failure exit status. An error about
// the source (a target's limit found at a declaration) reads as the
// checker's do: FILE:LINE:COL: message, then the line and a caret; any
// other error is one line with the program's name.
func failErr(stderr io.Writer, err error) int {
	ds := sourceDiags(err)
	if ds == nil {
		return failf(stderr, "%v", err)
	}
	fmt.Fprint(stderr, ds.Render(sourcesOf(ds)))
	return exitFail
}

// sourceDiags is err as positioned diagnostics, or nil when it has no
// position in the source.
func sourceDiags(err error) lang.Diags {
	var ds lang.Diags
	var d *lang.Diag
	switch {
	case errors.As(err, &ds) && len(ds) > 0 && ds[0].Pos.Line > 0:
		return ds
	case errors.As(err, &d) && d.Pos.Line > 0:
		return lang.Diags{d}
	}
	return nil
}

// failf prints one line and returns the failure exit status.
func failf(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "lowentc: "+format+"\n", args...)
	return exitFail
}

// usageHead comes before the Flags list of --help, which the registered
// flags make (usage).
const usageHead = `lowentc compiles Lowent kernels for the reference VM, amd64, arm64, WebAssembly, Java Card and the 6502.

Usage:
  lowentc [flags] FILE.lw                 compile FILE.lw for a target
  lowentc check [-v] FILE.lw...           parse and check; -v prints each function's effects and features
  lowentc run [flags] FILE.lw ENTRY [NAME=VALUE ...]
                                          call export ENTRY and print its mut parameters and results
  lowentc bench [flags] FILE.lw ENTRY [--size N | --block B] [--data NAME] [NAME=VALUE ...]
                                          measure ENTRY: throughput (--size) or cost per block (--block);
                                          NAME=VALUE fixes an input (e.g. a tag, to time a decrypt's accept path)

Flags:
`

// usageTail follows the Flags list of --help.
const usageTail = `
Arguments of run (NAME=VALUE):
  words          decimal or 0x-hex: n=42, n=0x2a; bools: true, false
  byte arrays    hex: msg=616263 (empty: msg=)
  word arrays    comma-separated: v=1,2,0x3
  any array      zero:N for N zero elements (N <= 16777216); a mut array may be left out
After the call run prints every mut parameter as NAME=HEX and results as ret=VALUE.

Exit status: 0 success; 1 compile error, unreadable file, trap or failure;
2 usage error (any bad flag value or argument). Limits: docs/cli.md.
Documentation: docs/cli.md, docs/language.md.
`
