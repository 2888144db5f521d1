package main

import (
	"fmt"
	"time"
)

// progress returns a callback that prints "label: done/total (pct)" to
// stderr at most every 500 ms, overwriting the line in a terminal, and a
// finish function that prints the final count and elapsed time. It fits
// sv.Progress and the other packages' progress callbacks.
func (e *env) progress(label string) (report func(done, total int), finish func()) {
	start := time.Now()
	var last time.Time
	var lastDone, lastTotal int
	report = func(done, total int) {
		lastDone, lastTotal = done, total
		if time.Since(last) < 500*time.Millisecond && done != total {
			return
		}
		last = time.Now()
		if total > 0 {
			fmt.Fprintf(e.stderr, "\r%s: %d/%d (%.0f%%)", label, done, total, 100*float64(done)/float64(total))
		} else {
			fmt.Fprintf(e.stderr, "\r%s: %d", label, done)
		}
	}
	finish = func() {
		if last.IsZero() && time.Since(start) < time.Second {
			return
		}
		fmt.Fprintf(e.stderr, "\r%s: %d/%d done in %s\n", label, lastDone, lastTotal, time.Since(start).Round(10*time.Millisecond))
	}
	return report, finish
}
