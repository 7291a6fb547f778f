package backendcheck

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/randprog"
	"github.com/lowent/lowentc/lang"
)

// TestOptionsName: the options as the command line spells them.
func TestOptionsName(t *testing.T) {
	for want, o := range map[string]backend.Options{
		"default options":    {},
		"--hw auto":          {HW: "auto"},
		"--opt size":         {Opt: "size"},
		"--no-int":           {NoInt: true},
		"--hw none --no-int": {HW: "none", NoInt: true},
	} {
		if got := OptionsName(o); got != want {
			t.Errorf("OptionsName(%+v) = %q, want %q", o, got, want)
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

// TestCampaignCheck: a seed that outlasts the timeout is reported as
// such, and a panic while preparing is an internal error, not a crash.
func TestCampaignCheck(t *testing.T) {
	slow := Mode{Name: "slow", Prepare: func(uint64, *lang.Program) (randprog.Target, error) {
		time.Sleep(2 * time.Second)
		return nil, errors.New("too late")
	}}
	r := Campaign{Timeout: 20 * time.Millisecond}.check(slow, 1, 1)
	if !strings.Contains(r.mismatch, "seed 1: did not finish in 20ms") {
		t.Errorf("timeout: %+v", r)
	}
	panics := Mode{Name: "panics", Prepare: func(uint64, *lang.Program) (randprog.Target, error) { panic("boom") }}
	r = Campaign{}.check(panics, 2, 1)
	if r.refused == nil || !IsInternal(r.refused) || !strings.Contains(r.refused.Error(), "boom") {
		t.Errorf("panic: %+v", r)
	}
}
