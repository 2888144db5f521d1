//go:build unix

package sv

import (
	"runtime"
	"syscall"
)

// peakRSSMiB returns this process's peak resident set size in MiB from
// getrusage (ru_maxrss: KiB on Linux, bytes on macOS), or 0 on error.
func peakRSSMiB() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return float64(ru.Maxrss) / (1 << 20)
	}
	return float64(ru.Maxrss) / 1024
}
