package main

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lowent/lowentc/internal/randprog"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/lower"
)

// wrongTarget is the IR with every word result off by one: a backend bug.
type wrongTarget struct{ irTarget }

func (t wrongTarget) Run(fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
	res, err := t.irTarget.Run(fn, args)
	for i := range res {
		if !res[i].IsArray {
			res[i].Word++
		}
	}
	return res, err
}

// TestSummary: an agreeing mode, a mode that gets results wrong, one that
// refuses for a documented limit and one that refuses for another reason
// are counted apart, and the mismatch is printed with its seed, mode,
// export, arguments and replay command; the exit code is 1.
func TestSummary(t *testing.T) {
	modes := []mode{
		irMode("ir/64", ir.Options{W: 64}),
		{name: "wrong", prepare: func(seed uint64, p *lang.Program) (randprog.Target, error) {
			m, err := lower.Compile(p, ir.Options{W: 64})
			if err != nil {
				return nil, err
			}
			return wrongTarget{irTarget{m: m}}, nil
		}, limit: noLimit},
		{name: "card", prepare: func(uint64, *lang.Program) (randprog.Target, error) {
			return nil, errors.New("jcvm: method e0 needs 300 local cells, more than 255")
		}, limit: cardLimit},
		{name: "gap", prepare: func(uint64, *lang.Program) (randprog.Target, error) {
			return nil, errors.New("jcvm: clmul at W=16 not supported")
		}, limit: cardLimit},
	}
	var results []result
	for s := uint64(1); s <= 4; s++ {
		results = append(results, checkSeed(s, modes, 2, time.Minute)...)
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	code := summarize(f, modes, results, 1, 4, 2, 1, time.Second, "", false)
	f.Close()
	out, _ := os.ReadFile(f.Name())
	s := string(out)
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	for _, want := range []string{
		"ir/64                  4         0         0         0",
		"card                   0         0         4         0",
		"gap                    0         0         0         4",
		"limits (documented): local cells: 4",
		"jcvm: clmul at W=N not supported",
		"seed 1 wrong export e",
		"replay: go run ./internal/randprog/cmd/difftest -seed 1 -n 1 -modes wrong -v",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	if !strings.Contains(s, " args: ") {
		t.Errorf("mismatch lines carry no arguments:\n%s", s)
	}
}

// TestCardLimitTransient: a class whose work arrays take more than the
// documented 4,096 bytes of transient RAM is a documented limit, not an
// unexplained refusal (campaign seeds 104197, 105714 and 106554).
func TestCardLimitTransient(t *testing.T) {
	err := errors.New("jcvm: the class's transient work arrays take 4,118 bytes (the largest: e2_e1_a3, 2,048 bytes); the limit is 4,096")
	if got := cardLimit(err); got != "work arrays over the card's transient RAM" {
		t.Errorf("cardLimit = %q, want the transient-RAM limit", got)
	}
	if got := cardLimit(errors.New("BUG: jcvm: the class's transient work arrays take 1 bytes")); got != "" {
		t.Errorf("a bug counted as a limit: %q", got)
	}
}
