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

// levelRunner is a LevelRunner that records the level it is forced to.
type levelRunner struct {
	backend.Runner
	forced *int
	closed *bool
}

func (r levelRunner) ForceLevel(n int) (int, error) {
	*r.forced = n
	if n < 0 {
		return -1, errors.New("no such level")
	}
	return n, nil
}

func (r levelRunner) Close() error { *r.closed = true; return nil }

// TestHWTarget: a fixed mode answers `have` with its features; auto forces
// the level the seed picks and answers with that level's features; a
// level the runner refuses is an internal error and the runner is closed.
func TestHWTarget(t *testing.T) {
	var forced int
	var closed bool
	hw := HW{
		Modes: []string{"none", "aes", "auto"},
		Prepare: func(*lang.Program, string) (LevelRunner, error) {
			return levelRunner{forced: &forced, closed: &closed}, nil
		},
		Fixed:         func(hw string) lang.FeatureSet { return map[string]lang.FeatureSet{"aes": 3}[hw] },
		Levels:        []int{0, 1, 2},
		LevelFeatures: func(l int) lang.FeatureSet { return lang.FeatureSet(10 + l) },
	}
	if n := len(hw.CampaignModes()); n != 3 {
		t.Fatalf("%d modes", n)
	}
	feats := func(hw HW, mode string, seed uint64) lang.FeatureSet {
		tg, err := hw.Target(nil, mode, seed)
		if err != nil {
			t.Fatalf("%s seed %d: %v", mode, seed, err)
		}
		return tg.(*FeatureTarget).Feats
	}
	if f := feats(hw, "aes", 5); f != 3 || forced != 0 {
		t.Errorf("aes: features %v, forced %d", f, forced)
	}
	if f := feats(hw, "auto", 5); f != 12 || forced != 2 {
		t.Errorf("auto, seed 5: features %v, forced to %d; want 12, level 2", f, forced)
	}
	hw.Levels = []int{-1}
	if _, err := hw.Target(nil, "auto", 1); err == nil || !IsInternal(err) || !closed {
		t.Errorf("a refused level: %v (closed %v)", err, closed)
	}
}
