package testlong

import "testing"

func TestSwitch(t *testing.T) {
	for _, c := range []struct {
		env  string
		on   bool
		want int
	}{{"", false, 10}, {"0", false, 10}, {"1", true, 500}, {"yes", true, 500}} {
		t.Setenv(Env, c.env)
		if On() != c.on || Count(10, 500) != c.want {
			t.Errorf("%s=%q: On %v, Count(10, 500) %d; want %v, %d", Env, c.env, On(), Count(10, 500), c.on, c.want)
		}
	}
}
