package agree

import (
	"math"
	"testing"
)

func TestErrors(t *testing.T) {
	if _, err := Compare([]float64{1, 2}, []float64{1}); err == nil {
		t.Fatal("length mismatch accepted")
	}
	if _, err := Compare([]float64{1}, []float64{1}); err == nil {
		t.Fatal("one item accepted")
	}
	if _, err := Compare([]float64{1, math.NaN()}, []float64{1, 2}); err == nil {
		t.Fatal("NaN accepted")
	}
	r, err := Compare([]float64{1, 2, 3, 4}, []float64{1, 3, 2, 4})
	if err != nil || r.N != 4 || r.Spearman != 0.8 {
		t.Fatalf("compare %+v %v", r, err)
	}
}
