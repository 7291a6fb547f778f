package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/backend/mos6502"
)

func init() {
	entryChecks["mos6502"] = func(exports []backend.Export, bo backend.Options, stderr io.Writer) error {
		if bo.Emit != "prg" {
			if bo.Entry != "" {
				fmt.Fprintf(stderr, "lowentc: warning: --entry has no effect without --emit prg\n")
			}
			return nil
		}
		_, _, err := mos6502.PRGEntry(exports, bo.Entry)
		return err
	}
	m := []string{"mos6502"}
	registerFlags(
		flagDef{name: "opt", arg: "O", rank: 100, cmds: onTarget, targets: m, strict: true,
			help: []string{"mos6502: speed (default), balanced (default for --emit prg: the fastest",
				"program of at most 16 KB and 4,000 source lines) or size"},
			set: func(o *options, v string) error {
				if v != "speed" && v != "size" && v != "balanced" {
					return fmt.Errorf("--opt takes speed, balanced or size, not %q", v)
				}
				o.be.Opt = v
				return nil
			}},
		flagDef{name: "entry", arg: "NAME", rank: 110, cmds: onCompile, targets: m,
			help: []string{
				"mos6502 --emit prg: the export NAME(msg: []u8, out: mut [N]u8) the C64 program",
				"calls (default: sha256, else the only export of that shape)"},
			set: func(o *options, v string) error {
				if v == "" {
					return fmt.Errorf("needs the name of an export")
				}
				o.be.Entry = v
				return nil
			}},
		flagDef{name: "timing", arg: "T", rank: 120, cmds: onCalls, targets: m, strict: true,
			help: []string{
				"run, bench on mos6502: ideal (default), c64 (VIC-II badlines, screen on)",
				"or c64-blank (screen off, as the --emit prg driver times its hash)"},
			set: func(o *options, v string) error {
				if v != "ideal" && v != "c64" && v != "c64-blank" {
					return fmt.Errorf("--timing takes ideal, c64 or c64-blank, not %q", v)
				}
				o.be.Timing = v
				return nil
			}},
		flagDef{name: "max-cycles", arg: "N", rank: 130, cmds: onCalls, targets: m,
			help: []string{"run, bench on mos6502: stop a call after N cycles (default 400000000)"},
			set: func(o *options, v string) error {
				n, err := strconv.ParseUint(v, 10, 64)
				if err != nil || n == 0 {
					return fmt.Errorf("%q is not a positive whole number", v)
				}
				o.be.MaxCycles = n
				return nil
			}},
	)
}
