package table2

import (
	"math"
	"testing"

	"github.com/roleprint/roleprint/stats"
)

// TestEvaluateCellEdgeCases checks the documented edge cases of a test
// cell: an empty set, a set of one class, and NaN scores.
func TestEvaluateCellEdgeCases(t *testing.T) {
	m := evaluateCell(nil, nil, 0.5)
	for name, x := range map[string]stats.Float{"auc": m.AUC, "acc": m.ACC, "f1": m.F1, "best_acc": m.BestACC, "eer": m.EER, "average_precision": m.AveragePrecision} {
		if !math.IsNaN(float64(x)) {
			t.Errorf("empty: %s = %v, want NaN", name, x)
		}
	}
	if m.Pairs != 0 || m.Threshold != 0.5 {
		t.Errorf("empty: %+v", m)
	}
	// Only positives: AUC and EER are undefined, ACC and F1 are not.
	m = evaluateCell([]float64{0.9, 0.2, 0.7}, []bool{true, true, true}, 0.5)
	if !math.IsNaN(float64(m.AUC)) || !math.IsNaN(float64(m.EER)) {
		t.Errorf("one class: stats.AUC %v stats.EER %v, want NaN", m.AUC, m.EER)
	}
	if math.Abs(float64(m.ACC)-2.0/3) > 1e-12 || m.Positives != 3 || m.BestACC != 1 {
		t.Errorf("one class: ACC %v (want 2/3), positives %d, best ACC %v", m.ACC, m.Positives, m.BestACC)
	}
	// F1 of the "same" class 2·2/(2·2+0+1) = 4/5; "different" occurs in
	// the decisions only (TN 0, FN 1): F1 0, so macro (4/5 + 0)/2.
	if math.Abs(float64(m.F1)-0.4) > 1e-12 {
		t.Errorf("one class: F1 %v, want 0.4", m.F1)
	}
	// Average precision is defined with one class present (every call
	// is right: 1) and equals stats.AveragePrecision of the scores.
	if m.AveragePrecision != 1 {
		t.Errorf("one class: average precision %v, want 1", m.AveragePrecision)
	}
	m = evaluateCell([]float64{0.9, 0.8, 0.7, 0.1}, []bool{false, true, true, false}, 0.5)
	if want := 0.5*0.5 + 0.5*2.0/3; math.Abs(float64(m.AveragePrecision)-want) > 1e-12 {
		t.Errorf("average precision %v, want %v", m.AveragePrecision, want)
	}
	// A NaN score makes AUC and EER undefined and is decided "different".
	m = evaluateCell([]float64{0.9, math.NaN(), 0.1, 0.2}, []bool{true, true, false, false}, 0.5)
	if !math.IsNaN(float64(m.AUC)) || !math.IsNaN(float64(m.EER)) || m.ACC != 0.75 {
		t.Errorf("NaN score: stats.AUC %v stats.EER %v ACC %v", m.AUC, m.EER, m.ACC)
	}
}
