package backendcheck

import (
	"testing"

	"github.com/lowent/lowentc/backend"
)

// TestOptionsName: the options as the command line spells them.
func TestOptionsName(t *testing.T) {
	for _, c := range []struct {
		o    backend.Options
		want string
	}{
		{backend.Options{}, "default options"},
		{backend.Options{HW: "auto"}, "--hw auto"},
		{backend.Options{Opt: "size"}, "--opt size"},
		{backend.Options{NoInt: true}, "--no-int"},
		{backend.Options{HW: "none", NoInt: true}, "--hw none --no-int"},
	} {
		if got := OptionsName(c.o); got != c.want {
			t.Errorf("OptionsName(%+v) = %q, want %q", c.o, got, c.want)
		}
	}
}
