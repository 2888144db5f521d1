package speech

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat"
)

// spearman returns Spearman's rank correlation of x and y: Pearson's
// correlation (gonum's stat.Correlation) of their ranks, ties sharing
// their average rank. NaN for fewer than two pairs.
func spearman(x, y []float64) float64 {
	if len(x) != len(y) || len(x) < 2 {
		return math.NaN()
	}
	return stat.Correlation(ranks(x), ranks(y), nil)
}

// ranks returns the 1-based ranks of x, ties averaged.
func ranks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	r := make([]float64, len(x))
	for a := 0; a < len(idx); {
		b := a
		for b+1 < len(idx) && x[idx[b+1]] == x[idx[a]] {
			b++
		}
		for k := a; k <= b; k++ {
			r[idx[k]] = 0.5*float64(a+b) + 1
		}
		a = b + 1
	}
	return r
}
