package sv

import (
	"math"

	"github.com/roleprint/roleprint/data"
)

// CellMetrics are one encoder's results on one test set in one round.
// Rates are fractions in [0, 1]; reports print them ×100 as the paper does.
type CellMetrics struct {
	// AUC is the ROC AUC of the test scores.
	AUC Float `json:"auc"`
	// ACC and F1 are accuracy and macro-F1 at Threshold, the threshold
	// chosen on the dev pairs (see Table2Config.Criterion).
	ACC Float `json:"acc"`
	F1  Float `json:"f1"`
	// Threshold is the dev-chosen threshold.
	Threshold Float `json:"threshold"`
	// BestACC and BestF1 are the highest accuracy and macro-F1 any
	// threshold reaches on the test set itself (each maximised on its
	// own): an upper bound, reported separately from ACC and F1.
	BestACC Float `json:"best_acc"`
	BestF1  Float `json:"best_f1"`
	// EER is the equal error rate on the test set.
	EER Float `json:"eer"`
	// Pairs and Positives count the test pairs.
	Pairs     int `json:"pairs"`
	Positives int `json:"positives"`
}

// EvaluateCell computes a cell's metrics from test scores and labels,
// using threshold (chosen on dev pairs by the caller, for instance with
// BestThreshold) for ACC and F1. An empty test set gives NaN metrics.
func EvaluateCell(scores []float64, labels []bool, threshold float64) CellMetrics {
	m := CellMetrics{Pairs: len(scores), Threshold: Float(threshold)}
	for _, l := range labels {
		if l {
			m.Positives++
		}
	}
	if len(scores) == 0 {
		nan := Float(math.NaN())
		m.AUC, m.ACC, m.F1, m.BestACC, m.BestF1, m.EER = nan, nan, nan, nan, nan, nan
		return m
	}
	m.AUC = Float(AUC(scores, labels))
	acc, f1 := AccuracyF1(scores, labels, threshold)
	m.ACC, m.F1 = Float(acc), Float(f1)
	_, best := BestThreshold(scores, labels, MaxAccuracy)
	m.BestACC = Float(best.Accuracy())
	_, best = BestThreshold(scores, labels, MaxMacroF1)
	m.BestF1 = Float(best.MacroF1())
	eer, _ := EER(scores, labels)
	m.EER = Float(eer)
	return m
}

// PairLabels returns the labels of pairs as booleans (true = same speaker).
func PairLabels(pairs []data.Pair) []bool {
	out := make([]bool, len(pairs))
	for i, p := range pairs {
		out[i] = p.Label == 1
	}
	return out
}
