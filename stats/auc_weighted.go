package stats

import (
	"fmt"
	"math"
	"sort"
)

// AUCOrder is scores sorted once, with their tie groups, so that the AUC
// under many weightings of the same scores (the replicates of a
// bootstrap that resamples clusters of pairs) costs one pass each instead
// of a sort each. NewAUCOrder makes one; Weighted evaluates it.
type AUCOrder struct {
	idx    []int  // positions of scores in ascending order
	starts []int  // start of each tie group in idx, then len(idx)
	labels []bool // the labels, by position
}

// NewAUCOrder sorts scores for Weighted. It is an error for the slices to
// differ in length or for a score to be NaN.
func NewAUCOrder(scores []float64, labels []bool) (*AUCOrder, error) {
	if len(scores) != len(labels) {
		return nil, fmt.Errorf("stats: AUC order: %d scores, %d labels", len(scores), len(labels))
	}
	idx := make([]int, len(scores))
	for i, s := range scores {
		if math.IsNaN(s) {
			return nil, fmt.Errorf("stats: AUC order: score %d is NaN", i)
		}
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] < scores[idx[b]] })
	starts := make([]int, 0, len(idx)+1)
	for k := range idx {
		if k == 0 || scores[idx[k]] != scores[idx[k-1]] {
			starts = append(starts, k)
		}
	}
	starts = append(starts, len(idx))
	return &AUCOrder{idx: idx, starts: starts, labels: append([]bool(nil), labels...)}, nil
}

// Weighted returns the AUC with pair i counted w[i] times: the weighted
// probability that a positive scores higher than a negative, ties one
// half. All weights 1 give AUC(scores, labels); integer weights give the
// AUC of the scores repeated that often. NaN when the positives' or the
// negatives' weights sum to zero. Weighted panics if len(w) differs from
// the number of scores.
func (o *AUCOrder) Weighted(w []float64) float64 {
	if len(w) != len(o.idx) {
		panic("stats: AUCOrder.Weighted: weight length mismatch")
	}
	var below, wPos, wNeg, u float64
	for g := 0; g+1 < len(o.starts); g++ {
		var pos, neg float64
		for _, i := range o.idx[o.starts[g]:o.starts[g+1]] {
			if o.labels[i] {
				pos += w[i]
			} else {
				neg += w[i]
			}
		}
		u += pos * (below + neg/2)
		below += neg
		wPos += pos
		wNeg += neg
	}
	if wPos == 0 || wNeg == 0 {
		return math.NaN()
	}
	return u / (wPos * wNeg)
}
