//go:build unix

package table2

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

// cpuSeconds returns this process's user+sys CPU time so far, all threads
// (ONNX Runtime's included), or 0 on error.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}
