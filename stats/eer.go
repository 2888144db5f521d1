package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// EER returns the equal error rate of scores as a detector of labels (a
// pair is accepted when its score is at least the threshold) and the
// threshold where it is reached: the point where the false-acceptance
// rate (negatives accepted) equals the false-rejection rate (positives
// rejected). The ROC curve comes from gonum's stat.ROC; between its two
// operating points that bracket the crossing, both rates are interpolated
// linearly, as speaker-verification toolkits do.
//
// Edge cases: EER returns NaN, NaN when there are no positives or no
// negatives or a score is NaN. Perfectly separated scores give 0 with a
// threshold between the classes; all-equal scores give 0.5. It panics if
// the slices differ in length.
func EER(scores []float64, labels []bool) (rate, threshold float64) {
	if len(scores) != len(labels) {
		panic("stats: EER: slice length mismatch")
	}
	var nPos, nNeg int
	for i, s := range scores {
		if math.IsNaN(s) {
			return math.NaN(), math.NaN()
		}
		if labels[i] {
			nPos++
		} else {
			nNeg++
		}
	}
	if nPos == 0 || nNeg == 0 {
		return math.NaN(), math.NaN()
	}
	y := append([]float64(nil), scores...)
	classes := append([]bool(nil), labels...)
	stat.SortWeightedLabeled(y, classes, nil)
	// tpr[i] and fpr[i] are the rates when accepting y >= thresh[i] (the
	// contract of gonum's stat.ROC); thresh descends from +Inf (nothing
	// accepted), so fpr and tpr ascend from 0 to 1.
	tpr, fpr, thresh := stat.ROC(nil, y, classes, nil)
	for i := 1; i < len(tpr); i++ {
		fnr, far := 1-tpr[i], fpr[i]
		if far < fnr {
			continue
		}
		pfnr, pfar := 1-tpr[i-1], fpr[i-1]
		// d goes from positive (pfnr > pfar) to <= 0 between i-1 and i.
		d0, d1 := pfnr-pfar, fnr-far
		t := 0.0
		if d0 != d1 {
			t = d0 / (d0 - d1)
		}
		rate = pfar + t*(far-pfar)
		lo, hi := thresh[i], thresh[i-1]
		switch {
		case math.IsInf(hi, 1):
			threshold = lo
		default:
			threshold = hi + t*(lo-hi)
		}
		return rate, threshold
	}
	return 0.5, math.Inf(-1) // unreachable: the last point has fpr 1, fnr 0
}
