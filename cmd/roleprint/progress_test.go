package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestProgressQuietThenKernelBar checks that a quick phase prints nothing
// and a shown one prints kernel.Progress's log lines (stderr is not a
// terminal here) and its final count.
func TestProgressQuietThenKernelBar(t *testing.T) {
	var quiet bytes.Buffer
	report, finish := (&env{stderr: &quiet}).progress("quick")
	report(1, 2)
	report(2, 2)
	finish()
	if quiet.Len() != 0 {
		t.Errorf("a phase under %s printed %q", progressDelay, quiet.String())
	}

	defer func(d time.Duration) { progressDelay = d }(progressDelay)
	progressDelay = 0
	var out bytes.Buffer
	report, finish = (&env{stderr: &out}).progress("slow")
	for i := range 11 {
		report(i, 10)
	}
	finish()
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 12 || !strings.HasPrefix(lines[0], "slow") || !strings.Contains(lines[11], "slow: 10/10 done in") {
		t.Errorf("stderr %q: want 11 lines (every 10 %%) and the final count", out.String())
	}
}
