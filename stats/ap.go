package stats

import (
	"math"
	"sort"
)

// AveragePrecision returns the average precision of scores as a detector
// of the true labels: the area under the precision–recall curve as a step
// function, Σₖ (Rₖ − Rₖ₋₁)·Pₖ over the distinct scores taken as
// thresholds from the highest down, where Pₖ and Rₖ are the precision and
// recall of calling every item scoring at least the k-th distinct score
// positive. It is the definition of scikit-learn's
// average_precision_score and sentence-transformers'
// BinaryClassificationEvaluator (no interpolation). Tied scores form one
// threshold: a run of ties enters the curve at once, so the result does
// not depend on the order of tied items.
//
// Edge cases: AveragePrecision is NaN when there are no positives (recall
// is undefined) or when any score is NaN. Without negatives it is 1;
// perfectly separated scores give 1; all-equal scores give the share of
// positives (one threshold at which precision is the prevalence and recall
// 1). Unlike AUC it depends on the prevalence: a random detector scores
// about the share of positives, not 0.5. AveragePrecision panics if the
// slices differ in length.
func AveragePrecision(scores []float64, labels []bool) float64 {
	if len(scores) != len(labels) {
		panic("stats: AveragePrecision: slice length mismatch")
	}
	var nPos int
	for i, s := range scores {
		if math.IsNaN(s) {
			return math.NaN()
		}
		if labels[i] {
			nPos++
		}
	}
	if nPos == 0 {
		return math.NaN()
	}
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	var ap float64
	var tp int
	for lo := 0; lo < len(idx); {
		hi, before := lo, tp
		for hi < len(idx) && scores[idx[hi]] == scores[idx[lo]] {
			if labels[idx[hi]] {
				tp++
			}
			hi++
		}
		// Recall rises by the positives of this run of ties; precision is
		// that of the hi items called so far.
		ap += float64(tp-before) / float64(nPos) * float64(tp) / float64(hi)
		lo = hi
	}
	return ap
}
