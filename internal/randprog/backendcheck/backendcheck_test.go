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

// TestEnvUint: decimal and hexadecimal counts, the default when unset.
func TestEnvUint(t *testing.T) {
	const name = "LOWENT_BACKENDCHECK_TEST_N"
	t.Setenv(name, "")
	if got := EnvUint(t, name, 7); got != 7 {
		t.Errorf("unset: %d", got)
	}
	for s, want := range map[string]uint64{"0": 0, "12": 12, "0x10": 16} {
		t.Setenv(name, s)
		if got := EnvUint(t, name, 7); got != want {
			t.Errorf("%s=%s: %d, want %d", name, s, got, want)
		}
	}
}
