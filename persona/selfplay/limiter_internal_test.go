package selfplay

import (
	"context"
	"testing"
	"time"
)

// The limiter spaces request starts at least 1/rps apart (a lower bound,
// which sleeping guarantees whatever the machine's load), and a
// cancelled context ends a wait.
func TestLimiterSpacesStarts(t *testing.T) {
	l := newLimiter(200) // 5 ms apart
	start := time.Now()
	for range 5 {
		if err := l.wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if el := time.Since(start); el < 20*time.Millisecond {
		t.Fatalf("5 starts at 200/s took %s, want ≥ 20 ms", el)
	}
	slow := newLimiter(0.01) // 100 s apart
	_ = slow.wait(context.Background())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := slow.wait(ctx); err == nil {
		t.Fatal("a cancelled wait returned no error")
	}
	if err := newLimiter(0).wait(context.Background()); err != nil {
		t.Fatal(err)
	}
}
