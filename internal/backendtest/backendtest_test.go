package backendtest

import (
	"errors"
	"fmt"
	"runtime"
	"testing"

	"github.com/lowent/lowentc/lang"
)

// TestRunnersOnce: a runner is prepared once per program and mode.
func TestRunnersOnce(t *testing.T) {
	var c Runners[int]
	p, q := &lang.Program{}, &lang.Program{}
	calls := 0
	prep := func(n int) func() (int, error) {
		return func() (int, error) { calls++; return n, nil }
	}
	if got := c.Get(t, p, "a", prep(1)); got != 1 {
		t.Fatalf("first Get: %d", got)
	}
	if got := c.Get(t, p, "a", prep(2)); got != 1 {
		t.Errorf("second Get of the same program and mode: %d, want the first runner", got)
	}
	if got := c.Get(t, p, "b", prep(3)); got != 3 {
		t.Errorf("another mode: %d", got)
	}
	if got := c.Get(t, q, "a", prep(4)); got != 4 {
		t.Errorf("another program: %d", got)
	}
	if calls != 3 {
		t.Errorf("prepared %d times, want 3", calls)
	}
}

// TestRunnersFailure: a runner that cannot be prepared fails the test
// that asked for it.
func TestRunnersFailure(t *testing.T) {
	var c Runners[int]
	p := &lang.Program{Root: &lang.File{Module: "m"}}
	ft := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Get(ft, p, "a", func() (int, error) { return 0, errors.New("no") })
	}()
	<-done
	if ft.msg != "compiling m (a): no" {
		t.Errorf("failure: %q", ft.msg)
	}
	// The failure is not cached.
	if got := c.Get(t, p, "a", func() (int, error) { return 5, nil }); got != 5 {
		t.Errorf("after a failure: %d", got)
	}
}

// fatalTB records Fatalf and ends the goroutine, as testing.T does.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
