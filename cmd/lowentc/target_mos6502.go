package main

import (
	"fmt"
	"io"

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
}
