package selfplay

import (
	"context"

	"golang.org/x/time/rate"
)

// limiter spaces request starts at least 1/rps apart (rps ≤ 0: no limit):
// a token bucket of one token (golang.org/x/time/rate), so no burst.
type limiter struct{ l *rate.Limiter }

func newLimiter(rps float64) *limiter {
	if rps <= 0 {
		return &limiter{rate.NewLimiter(rate.Inf, 1)}
	}
	return &limiter{rate.NewLimiter(rate.Limit(rps), 1)}
}

// wait blocks until the next request may start, or ctx is done.
func (l *limiter) wait(ctx context.Context) error { return l.l.Wait(ctx) }
