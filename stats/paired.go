package stats

import "math"

// PairedDifference summarises bootstrap replicates of a paired difference
// (statistic of A minus statistic of B, each replicate drawn the same for
// both): the percentile interval (PercentileInterval, conf), the share
// of defined replicates in which A is not above B (difference ≤ 0, a
// one-sided bootstrap p-value for "A is above B") and how many replicates
// are defined. NaN replicates are left out; with none defined the
// interval and the share are undefined.
func PairedDifference(diffs []float64, conf float64) (ci Interval, shareNotAbove Float, n int) {
	notAbove := 0
	for _, d := range diffs {
		if math.IsNaN(d) {
			continue
		}
		n++
		if d <= 0 {
			notAbove++
		}
	}
	if n == 0 {
		return NoInterval(), NaN(), 0
	}
	return PercentileInterval(diffs, conf), Float(float64(notAbove) / float64(n)), n
}
