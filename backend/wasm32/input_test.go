package wasm32

import (
	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/backendtest"
	"github.com/lowent/lowentc/lang"
)

// input is the program p as the driver hands it to this backend.
func input(p *lang.Program) *backend.Input { return backendtest.Input("wasm32", p) }
