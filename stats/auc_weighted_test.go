package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Unit weights give AUC; integer weights give the AUC of the scores
// repeated that often (ties included); zero weight on one side is NaN.
func TestAUCOrderWeighted(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 50 {
		n := 2 + rng.IntN(40)
		scores, labels := make([]float64, n), make([]bool, n)
		for i := range scores {
			scores[i] = float64(rng.IntN(6)) // many ties
			labels[i] = rng.IntN(2) == 0
		}
		labels[0], labels[1] = true, false
		o, err := NewAUCOrder(scores, labels)
		if err != nil {
			t.Fatal(err)
		}
		ones := make([]float64, n)
		for i := range ones {
			ones[i] = 1
		}
		if got, want := o.Weighted(ones), AUC(scores, labels); math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d: unit weights %v, AUC %v", trial, got, want)
		}
		w := make([]float64, n)
		var rs []float64
		var rl []bool
		for i := range w {
			w[i] = float64(rng.IntN(3))
			for range int(w[i]) {
				rs = append(rs, scores[i])
				rl = append(rl, labels[i])
			}
		}
		want := AUC(rs, rl)
		if got := o.Weighted(w); !(math.Abs(got-want) < 1e-12 || math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("trial %d: weights %v give %v, repeated scores %v", trial, w, got, want)
		}
	}
	o, err := NewAUCOrder([]float64{1, 2}, []bool{true, false})
	if err != nil {
		t.Fatal(err)
	}
	if got := o.Weighted([]float64{0, 1}); !math.IsNaN(got) {
		t.Fatalf("no positive weight: %v, want NaN", got)
	}
	if _, err := NewAUCOrder([]float64{math.NaN()}, []bool{true}); err == nil {
		t.Fatal("NaN score accepted")
	}
	if _, err := NewAUCOrder([]float64{1}, nil); err == nil {
		t.Fatal("length mismatch accepted")
	}
}
