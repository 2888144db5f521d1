package llm

import (
	"context"
	"net/http"
	"testing"
	"time"
)

func TestRetryAfterHeaderForms(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	h := http.Header{}
	h.Set("Retry-After", "3")
	if d := retryAfter(h, now); d != 3*time.Second {
		t.Fatalf("seconds: %s", d)
	}
	h.Set("Retry-After", now.Add(90*time.Second).Format(http.TimeFormat))
	if d := retryAfter(h, now); d != 90*time.Second {
		t.Fatalf("date: %s", d)
	}
	h.Set("retry-after-ms", "250")
	if d := retryAfter(h, now); d != 250*time.Millisecond {
		t.Fatalf("ms: %s", d)
	}
	if d := retryAfter(http.Header{"Retry-After": {"soon"}}, now); d != 0 {
		t.Fatalf("garbage: %s", d)
	}
}

// TestBackoffHonoursRetryAfterAndGrows records the waits the client
// chooses instead of sleeping.
func TestBackoffHonoursRetryAfterAndGrows(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Model = "m"
	cfg.MinBackoff = 100 * time.Millisecond
	cfg.MaxBackoff = time.Second
	cfg.MaxRetryAfter = 10 * time.Second
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.jitter = func(d time.Duration) time.Duration { return d } // upper end of the window
	if d := c.backoff(1, &APIError{StatusCode: 429, RetryAfter: 4 * time.Second}); d != 4*time.Second+400*time.Millisecond {
		t.Fatalf("Retry-After 4s gave %s", d)
	}
	if d := c.backoff(1, &APIError{StatusCode: 429, RetryAfter: time.Hour}); d != 11*time.Second {
		t.Fatalf("long Retry-After not capped: %s", d)
	}
	want := []time.Duration{100, 200, 400, 800, 1000, 1000}
	for i, w := range want {
		if d := c.backoff(i+1, &APIError{StatusCode: 500}); d != w*time.Millisecond {
			t.Fatalf("retry %d: window %s, want %s", i+1, d, w*time.Millisecond)
		}
	}
	c.jitter = randomDuration
	for i := 0; i < 100; i++ {
		if d := c.backoff(3, &APIError{StatusCode: 500}); d < 0 || d > 400*time.Millisecond {
			t.Fatalf("jittered wait %s outside [0, 400ms]", d)
		}
	}
}

func TestSleepHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := sleepCtx(ctx, time.Hour); err == nil {
		t.Fatal("sleep ignored cancellation")
	}
}
