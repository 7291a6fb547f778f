// Package testlong is the one switch between the default test suite and
// the long campaigns. `go test ./...` runs every test at a count that
// finishes in a few minutes on two cores; with LOWENT_LONG=1 the same tests
// run their long counts (thousands of random programs per backend, larger
// programs, more random inputs), as .ci/run does with an explicit -timeout.
package testlong

import "os"

// Env is the environment variable that turns the long campaigns on.
const Env = "LOWENT_LONG"

// On reports whether the long campaigns are on: LOWENT_LONG set to
// anything but "" or "0".
func On() bool {
	v := os.Getenv(Env)
	return v != "" && v != "0"
}

// Count is def by default and long when the long campaigns are on.
func Count(def, long int) int {
	if On() {
		return long
	}
	return def
}
