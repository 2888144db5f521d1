//go:build !unix

package table2

// peakRSSMiB is unknown here.
func peakRSSMiB() float64 { return 0 }

// cpuSeconds is unknown here.
func cpuSeconds() float64 { return 0 }
