package main

import (
	"fmt"
	"io"
	"sort"

	"github.com/lowent/lowentc/lang"
)

// warnDroppedTraces writes one warning per trace call that the code
// compiled for target drops: every target but the VM ignores trace. Only
// the functions reachable from the exports are compiled, so only their
// traces are reported, each once, in source order.
func warnDroppedTraces(p *lang.Program, target string, stderr io.Writer) {
	if target == "vm" {
		return
	}
	seen := map[*lang.FuncDecl]bool{}
	var work []*lang.FuncDecl
	for _, f := range p.Exports() {
		if !seen[f] {
			seen[f] = true
			work = append(work, f)
		}
	}
	var traces []*lang.CallExpr
	for len(work) > 0 {
		f := work[0]
		work = work[1:]
		traces = append(traces, lang.Traces(f)...)
		for _, g := range lang.Callees(f) {
			if !seen[g] {
				seen[g] = true
				work = append(work, g)
			}
		}
	}
	sort.SliceStable(traces, func(i, j int) bool {
		a, b := traces[i].Pos, traces[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	for _, t := range traces {
		fmt.Fprintf(stderr, "%s: warning: trace is dropped on target %s\n", t.Pos, target)
	}
}
