package wasm32

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

// The JavaScript this package writes (the ES module of --emit js and the
// runner's driver) calls each export's kernel with the export's shape: a
// table generated from the IR signature, read by JavaScript code that is
// the same for every program (runtime.go).

// jsParam is a parameter or result of an export as the table gives it.
type jsParam struct {
	Name string `json:"n,omitempty"`
	Type string `json:"t"`             // u8, u16, u32, u64 or bool
	Kind int    `json:"a"`             // 0 scalar, 1 fixed array, 2 slice
	Len  int    `json:"len,omitempty"` // a fixed array's element count
	Mut  bool   `json:"mut,omitempty"`
}

// jsExport is one export: its name, its kernel's symbol, parameters,
// results, and the message of each status its requires clauses give.
type jsExport struct {
	Name     string            `json:"n"`
	Kernel   string            `json:"k"`
	Params   []jsParam         `json:"p"`
	Results  []jsParam         `json:"r"`
	Requires map[string]string `json:"q,omitempty"`
	// Overlaps are the pairs of array parameters the call must find the
	// same buffer or disjoint, in the order every target checks them: the
	// written one, the other, and the fault's message.
	Overlaps [][3]any `json:"o,omitempty"`
}

func typeName(t ir.Type) string {
	if t == ir.Bool {
		return "bool"
	}
	return fmt.Sprintf("u%d", t.Bits())
}

// table returns the shape of every export of m, in source order; req
// (nil for none) gives the requires messages.
func table(m *ir.Module, req func(f *ir.Function) map[int]error) []jsExport {
	var out []jsExport
	for _, f := range m.Funcs {
		if !f.Export {
			continue
		}
		e := jsExport{Name: f.Name, Kernel: llvm.KernelName(m.Name, f.Name), Params: []jsParam{}, Results: []jsParam{}}
		for _, p := range f.Sig.Params {
			jp := jsParam{Name: p.Name, Type: typeName(p.Type), Mut: p.Mut}
			switch {
			case p.Slice:
				jp.Kind = 2
			case p.Array:
				jp.Kind, jp.Len = 1, p.Len
			}
			e.Params = append(e.Params, jp)
		}
		for _, r := range f.Sig.Results {
			jr := jsParam{Type: typeName(r.Type)}
			if r.Array {
				jr.Kind, jr.Len = 1, r.Len
			}
			e.Results = append(e.Results, jr)
		}
		if f.Source != nil {
			e.Overlaps = overlapPairs(f)
		}
		if req != nil {
			if q := req(f); len(q) > 0 {
				e.Requires = map[string]string{}
				for code, err := range q {
					e.Requires[fmt.Sprint(code)] = err.Error()
				}
			}
		}
		out = append(out, e)
	}
	return out
}

// overlapPairs are the pairs of f's array parameters of which one or both
// are written, by parameter index (the written one first), with the fault
// a partial overlap of the two is.
func overlapPairs(f *ir.Function) [][3]any {
	var out [][3]any
	ps := f.Sig.Params
	for i := range ps {
		for j := i + 1; j < len(ps); j++ {
			if !ps[i].Array || !ps[j].Array || !ps[i].Mut && !ps[j].Mut {
				continue
			}
			x, y := i, j
			if !ps[x].Mut {
				x, y = y, x
			}
			out = append(out, [3]any{x, y, sem.OverlapFault(f.Source, x, y).Error()})
		}
	}
	return out
}

// jsonText is v as compact JSON, which is a JavaScript expression.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("BUG: wasm32: " + err.Error())
	}
	return string(b)
}

// trapsText is the module's trap messages by status, as a JavaScript
// object in status order.
func trapsText(traps map[int]error) string {
	codes := make([]int, 0, len(traps))
	for c := range traps {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	var b strings.Builder
	b.WriteString("{")
	for i, c := range codes {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n  %d: %s", c, jsonText(traps[c].Error()))
	}
	if len(codes) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("}")
	return b.String()
}
