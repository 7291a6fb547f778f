package main

import (
	"fmt"
	"io"

	"github.com/lowent/lowentc/driver"
	"github.com/lowent/lowentc/lang"
)

// cmdCheck parses and checks each file; -v prints every function's effects
// and hardware features.
func cmdCheck(args []string, stdout, stderr io.Writer) int {
	o, code := parseCommand(args, onCheck, "check: ", stderr)
	if o == nil {
		return code
	}
	if len(o.args) == 0 {
		return usageError(stderr, "check needs at least one FILE.lw")
	}
	status := exitOK
	for _, path := range o.args {
		p, ok := load(path, stderr)
		if !ok {
			status = exitFail
			continue
		}
		if o.verbose {
			for _, f := range p.Files {
				for _, fn := range f.Funcs {
					fmt.Fprintf(stdout, "%s: %s effects=%s features=%s\n", fn.Pos, describe(fn), fn.Inferred, fn.Features)
				}
			}
		}
	}
	return status
}

func describe(fn *lang.FuncDecl) string {
	if fn.Export {
		return "export fn " + fn.QualName()
	}
	return "fn " + fn.QualName()
}

// load parses and checks path, printing every diagnostic with its source
// line and a caret. A problem with the file as a whole (missing, a
// directory, too large) has no line: it reads `lowentc: FILE: message`.
func load(path string, stderr io.Writer) (*lang.Program, bool) {
	p, ds := driver.Load(path)
	if len(ds) > 0 {
		var located lang.Diags
		for _, d := range ds {
			if d.Pos.Line == 0 {
				fmt.Fprintf(stderr, "lowentc: %s: %s\n", d.Pos.File, d.Msg)
			} else {
				located = append(located, d)
			}
		}
		fmt.Fprint(stderr, located.Render(sourcesOf(located)))
		return nil, false
	}
	return p, true
}

// sourcesOf reads the files the diagnostics point into, for their carets.
func sourcesOf(ds lang.Diags) lang.Sources {
	src := lang.Sources{}
	for _, d := range ds {
		if _, ok := src[d.Pos.File]; !ok {
			if text, err := driver.ReadSourceText(d.Pos.File); err == nil {
				src[d.Pos.File] = text
			}
		}
	}
	return src
}
