package table2

import (
	"runtime"
	"testing"
)

// TestPeakRSSCoversTouchedMemory checks that the manifest's peak_rss_mib
// source sees memory the process has actually touched.
func TestPeakRSSCoversTouchedMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ru_maxrss units checked on Linux only")
	}
	const mib = 96
	b := make([]byte, mib<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	got := peakRSSMiB()
	runtime.KeepAlive(b)
	if got < mib {
		t.Errorf("peak RSS %.0f MiB after touching %d MiB", got, mib)
	}
}
