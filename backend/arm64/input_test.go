package arm64

import (
	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/driver/middle"
	"github.com/lowent/lowentc/lang"
)

// input is the program p as the driver hands it to this backend.
func input(p *lang.Program) *backend.Input {
	t, _ := backend.Lookup("arm64")
	return middle.New(p, t, backend.Options{}).Input()
}
