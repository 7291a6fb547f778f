package golden

import (
	"os"
	"strconv"
	"testing"
	"time"
)

// SeedEnv names the variable that replays a run's random inputs.
const SeedEnv = "LOWENT_GOLDEN_SEED"

// Seed is the seed of a test's random inputs: $LOWENT_GOLDEN_SEED when set
// (to replay a failure), else the time, so every run tries fresh inputs. It
// is logged, so a failing run can be reproduced.
func Seed(t testing.TB) int64 {
	t.Helper()
	seed := time.Now().UnixNano()
	if s := os.Getenv(SeedEnv); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: %v", SeedEnv, s, err)
		}
		seed = v
	}
	t.Logf("random inputs from seed %d (rerun with %s=%d)", seed, SeedEnv, seed)
	return seed
}
