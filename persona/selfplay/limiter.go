package selfplay

import (
	"context"
	"sync"
	"time"
)

// limiter spaces request starts at least 1/rps apart (rps ≤ 0: no limit).
type limiter struct {
	mu   sync.Mutex
	gap  time.Duration
	next time.Time
}

func newLimiter(rps float64) *limiter {
	l := &limiter{}
	if rps > 0 {
		l.gap = time.Duration(float64(time.Second) / rps)
	}
	return l
}

// wait blocks until the next request may start, or ctx is done.
func (l *limiter) wait(ctx context.Context) error {
	if l.gap == 0 {
		return ctx.Err()
	}
	l.mu.Lock()
	now := time.Now()
	at := l.next
	if at.Before(now) {
		at = now
	}
	l.next = at.Add(l.gap)
	l.mu.Unlock()
	d := time.Until(at)
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
