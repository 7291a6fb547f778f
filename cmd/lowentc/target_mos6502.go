package main

import (
	"fmt"
	"io"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/backend/mos6502"
	"github.com/lowent/lowentc/lang"
)

func init() {
	entryChecks["mos6502"] = func(p *lang.Program, bo backend.Options, stderr io.Writer) error {
		if bo.Emit != "prg" {
			if bo.Entry != "" {
				fmt.Fprintf(stderr, "lowentc: warning: --entry has no effect without --emit prg\n")
			}
			return nil
		}
		_, _, err := mos6502.PRGEntry(p, bo.Entry)
		return err
	}
}
