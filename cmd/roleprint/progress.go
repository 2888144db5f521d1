package main

import (
	"sync"
	"time"

	"github.com/roleprint/roleprint/kernel"
)

// progressDelay is how long a phase runs before its progress shows, so
// that quick phases print nothing on stderr.
var progressDelay = time.Second

// progress returns a callback for a long phase and a finish function. It
// is kernel.Progress on stderr, the one progress type of the CLI and the
// notebooks (in a terminal a line redrawn in place, in a log a line every
// 10 %), shown once the phase has run progressDelay; finish prints the
// final count and the phase's whole duration when it was shown. It fits
// sv.Progress and the other packages' progress callbacks, and is safe for
// concurrent use.
func (e *env) progress(label string) (report func(done, total int), finish func()) {
	bar := (&kernel.Notebook{Stderr: e.stderr}).Progress(label)
	start := time.Now()
	var mu sync.Mutex
	shown := false
	report = func(done, total int) {
		mu.Lock()
		if !shown && time.Since(start) >= progressDelay {
			shown = true
		}
		show := shown
		mu.Unlock()
		if show {
			bar.Report(done, total)
		}
	}
	finish = func() {
		mu.Lock()
		show := shown
		mu.Unlock()
		if show {
			bar.Done()
		}
	}
	return report, finish
}
