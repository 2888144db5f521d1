package sv

import (
	"math"
	"testing"
)

// TestRowCostSeconds checks the cost formula term by term, with texts cut
// to the token limit.
func TestRowCostSeconds(t *testing.T) {
	w := Workload{EvalTexts: 2, EvalWords: 0, TrainTexts: 10, TrainPairs: 100, evalWords: []int32{3, 40}}
	if got := w.EvalTokens(0); got != 4+41 {
		t.Errorf("EvalTokens(0) = %d, want 45", got)
	}
	if got := w.EvalTokens(32); got != 4+32 {
		t.Errorf("EvalTokens(32) = %d, want 36", got)
	}
	c := RowCost{Fixed: 1, PerEvalText: 0.5, PerEvalToken: 0.01, TokenLimit: 32, PerTrainText: 0.1, PerTrainPair: 0.001, PerStep: 2}
	want := 1 + 0.5*2 + 0.01*36 + 0.1*10 + 0.001*100 + 2*7
	if got := c.Seconds(w, 7); math.Abs(got-want) > 1e-12 {
		t.Errorf("Seconds = %v, want %v", got, want)
	}
	// A hand-built workload spreads its words evenly.
	h := Workload{EvalTexts: 10, EvalWords: 100}
	if got := h.EvalTokens(5); got != 50 {
		t.Errorf("hand-built EvalTokens(5) = %d, want 50", got)
	}
}
