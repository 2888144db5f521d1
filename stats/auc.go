package stats

import (
	"math"
	"sort"
)

// AUC returns the area under the ROC curve of scores as a detector of the
// true labels: the probability that a randomly drawn positive scores
// higher than a randomly drawn negative, ties counting one half. It is
// computed exactly with the Mann–Whitney U statistic over mid-ranks (each
// run of tied scores gets the mean of the ranks it spans), so it equals the
// trapezoidal area under the ROC curve whatever the ties.
//
// Edge cases: AUC is NaN when there are no positives or no negatives (the
// area is undefined) or when any score is NaN. Perfectly separated scores
// give 1, reversed ones 0, all-equal scores 0.5. AUC panics if the slices
// differ in length.
func AUC(scores []float64, labels []bool) float64 {
	if len(scores) != len(labels) {
		panic("stats: AUC: slice length mismatch")
	}
	var nPos, nNeg float64
	for i, s := range scores {
		if math.IsNaN(s) {
			return math.NaN()
		}
		if labels[i] {
			nPos++
		} else {
			nNeg++
		}
	}
	if nPos == 0 || nNeg == 0 {
		return math.NaN()
	}
	ranks := MidRanks(scores)
	var rankSum float64
	for i, r := range ranks {
		if labels[i] {
			rankSum += r
		}
	}
	u := rankSum - nPos*(nPos+1)/2
	return u / (nPos * nNeg)
}

// MidRanks returns the 1-based ranks of x in ascending order, tied values
// sharing the mean of the ranks they span (the "fractional" ranking of
// Mann–Whitney and Spearman). x is not modified; NaNs sort first.
func MidRanks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		xa, xb := x[idx[a]], x[idx[b]]
		return xa < xb || (math.IsNaN(xa) && !math.IsNaN(xb))
	})
	ranks := make([]float64, len(x))
	for lo := 0; lo < len(idx); {
		hi := lo + 1
		for hi < len(idx) && x[idx[hi]] == x[idx[lo]] {
			hi++
		}
		// Positions lo..hi-1 hold ranks lo+1..hi; their mean:
		mid := float64(lo+1+hi) / 2
		for _, k := range idx[lo:hi] {
			ranks[k] = mid
		}
		lo = hi
	}
	return ranks
}
