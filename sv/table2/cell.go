package table2

import (
	"math"

	"github.com/roleprint/roleprint/stats"
)

// CellMetrics are one encoder's results on one test set in one round.
// Rates are fractions in [0, 1]; reports print them ×100 as the paper does.
type CellMetrics struct {
	// AUC is the ROC AUC of the test scores.
	AUC stats.Float `json:"auc"`
	// AveragePrecision is the average precision of the test scores
	// (stats.AveragePrecision: the step area under the precision–recall
	// curve, "same speaker" the positive class); unlike AUC its chance
	// level is the share of positive pairs.
	AveragePrecision stats.Float `json:"average_precision"`
	// ACC and F1 are accuracy and macro-F1 at Threshold, the threshold
	// chosen on the dev pairs of the test set's level (DecisionRule).
	ACC stats.Float `json:"acc"`
	F1  stats.Float `json:"f1"`
	// Threshold is the dev-chosen threshold the cell used.
	Threshold stats.Float `json:"threshold"`
	// BestACC and BestF1 are the highest accuracy and macro-F1 any
	// threshold reaches on the test set itself (each maximised on its
	// own): an upper bound, reported separately from ACC and F1.
	BestACC stats.Float `json:"best_acc"`
	BestF1  stats.Float `json:"best_f1"`
	// EER is the equal error rate on the test set.
	EER stats.Float `json:"eer"`
	// Pairs and Positives count the test pairs.
	Pairs     int `json:"pairs"`
	Positives int `json:"positives"`
}

// evaluateCell computes a cell's metrics from test scores and labels,
// using threshold (chosen on dev pairs by the caller, for instance with
// BestThreshold) for ACC and F1. An empty test set gives NaN metrics.
func evaluateCell(scores []float64, labels []bool, threshold float64) CellMetrics {
	m := CellMetrics{Pairs: len(scores), Threshold: stats.Float(threshold)}
	for _, l := range labels {
		if l {
			m.Positives++
		}
	}
	if len(scores) == 0 {
		nan := stats.Float(math.NaN())
		m.AUC, m.AveragePrecision, m.ACC, m.F1, m.BestACC, m.BestF1, m.EER = nan, nan, nan, nan, nan, nan, nan
		return m
	}
	m.AUC = stats.Float(stats.AUC(scores, labels))
	m.AveragePrecision = stats.Float(stats.AveragePrecision(scores, labels))
	acc, f1 := stats.AccuracyF1(scores, labels, threshold)
	m.ACC, m.F1 = stats.Float(acc), stats.Float(f1)
	_, best := stats.BestThreshold(scores, labels, stats.MaxAccuracy)
	m.BestACC = stats.Float(best.Accuracy())
	_, best = stats.BestThreshold(scores, labels, stats.MaxMacroF1)
	m.BestF1 = stats.Float(best.MacroF1())
	eer, _ := stats.EER(scores, labels)
	m.EER = stats.Float(eer)
	return m
}
