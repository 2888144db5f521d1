package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// Mean returns the arithmetic mean of x; NaN for empty input.
func Mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return stat.Mean(x, nil)
}

// MeanStd returns the mean and the sample standard deviation (n − 1 in
// the denominator) of x, with gonum's stat.MeanStdDev.
//
// Edge cases: NaN, NaN for empty input; the value and NaN for a single
// value (a deviation needs two, as in Praat and pandas).
func MeanStd(x []float64) (mean, std float64) {
	switch len(x) {
	case 0:
		return math.NaN(), math.NaN()
	case 1:
		return x[0], math.NaN()
	}
	return stat.MeanStdDev(x, nil)
}
