package stats

import "math"

// ECE returns the expected calibration error of probabilities p of the
// positive class against labels: the probabilities are put in bins
// equal-width bins over [0, 1], and ECE is Σ (nᵦ/N)·|mean pᵦ − share of
// positives in b|, the weighted gap between what the probabilities say and
// what happens. 0 is perfect calibration. NaN when empty, when a
// probability is NaN or outside [0, 1], or when bins < 1. It panics if
// the slices differ in length.
func ECE(p []float64, labels []bool, bins int) float64 {
	if len(p) != len(labels) {
		panic("stats: ECE: slice length mismatch")
	}
	if len(p) == 0 || bins < 1 {
		return math.NaN()
	}
	sumP := make([]float64, bins)
	pos := make([]float64, bins)
	n := make([]float64, bins)
	for i, x := range p {
		if !(x >= 0 && x <= 1) {
			return math.NaN()
		}
		b := min(int(x*float64(bins)), bins-1)
		sumP[b] += x
		n[b]++
		if labels[i] {
			pos[b]++
		}
	}
	var e float64
	for b := range n {
		if n[b] > 0 {
			e += math.Abs(sumP[b]-pos[b]) / float64(len(p))
		}
	}
	return e
}
