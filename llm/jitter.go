package llm

import (
	"math/rand/v2"
	"time"
)

// randomDuration returns a uniformly random duration in [0, d].
func randomDuration(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return time.Duration(rand.Int64N(int64(d) + 1))
}
