package sv

import (
	"math"
	"testing"

	"github.com/roleprint/roleprint/stats"
)

// TestDotForm checks the DotForm definitions: CosineForm is the cosine,
// and a SliceTerm reads its slice with its weight share (nil P: w/2 a side).
func TestDotForm(t *testing.T) {
	a := []float32{1, 2, 0, -1, 3, 1}
	b := []float32{0, 1, 1, 2, -1, 4}
	if got, want := CosineForm().Eval(a, b), stats.Cosine(a, b); math.Abs(got-want) > 1e-7 {
		t.Errorf("CosineForm %v, cosine %v", got, want)
	}
	if got := CosineForm().Eval(a, make([]float32, len(a))); got != 0 {
		t.Errorf("CosineForm with a zero vector %v, want 0", got)
	}
	f := DotForm{Terms: []DotTerm{SliceTerm(CosineForm().Terms[0], 2, 5, 0.25)},
		Q: func(v []float32) float64 { return float64(v[0]) }, Link: func(s float64) float64 { return 2 * s }}
	want := 2 * (0.25*stats.Cosine(a[2:5], b[2:5]) + 1 + 0)
	if got := f.Eval(a, b); math.Abs(got-want) > 1e-7 {
		t.Errorf("sliced form %v, want %v", got, want)
	}
}
