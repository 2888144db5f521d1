//go:build !unix

package sv

// peakRSSMiB is unknown here.
func peakRSSMiB() float64 { return 0 }
