package jcvm

import (
	"os"
	"strconv"
	"testing"
	"time"
)

// goldenSeed is LOWENT_GOLDEN_SEED when set (to replay a failure), else the
// time; it is logged so a failing run can be reproduced.
func goldenSeed(t *testing.T) int64 {
	seed := time.Now().UnixNano()
	if s := os.Getenv("LOWENT_GOLDEN_SEED"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("LOWENT_GOLDEN_SEED=%q: %v", s, err)
		}
		seed = v
	}
	t.Logf("random inputs from seed %d (rerun with LOWENT_GOLDEN_SEED=%d)", seed, seed)
	return seed
}
