package stats

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat"
)

// Interval is a confidence interval [lo, hi]; both ends are NaN (null in
// JSON) when it could not be computed.
type Interval [2]Float

// NoInterval returns the undefined interval (both ends NaN).
func NoInterval() Interval { return Interval{NaN(), NaN()} }

// Defined reports whether both ends are numbers.
func (iv Interval) Defined() bool { return iv[0].Defined() && iv[1].Defined() }

// PercentileInterval returns the central conf interval (0 < conf < 1) of
// the defined values of x — the percentile bootstrap interval of
// replicate statistics x — with gonum's linearly interpolated quantiles.
// NaN replicates (a statistic undefined on that resample) are left out;
// x is not modified.
//
// Edge cases: NoInterval when fewer than two values are defined.
func PercentileInterval(x []float64, conf float64) Interval {
	v := make([]float64, 0, len(x))
	for _, f := range x {
		if !math.IsNaN(f) {
			v = append(v, f)
		}
	}
	if len(v) < 2 {
		return NoInterval()
	}
	sort.Float64s(v)
	a := (1 - conf) / 2
	return Interval{Float(stat.Quantile(a, stat.LinInterp, v, nil)), Float(stat.Quantile(1-a, stat.LinInterp, v, nil))}
}
