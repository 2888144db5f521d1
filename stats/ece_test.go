package stats

import (
	"math"
	"testing"
)

func TestECE(t *testing.T) {
	// Calibrated: in the 0.25 bin one of four is positive, in the 0.75 bin three of four.
	p := []float64{0.25, 0.25, 0.25, 0.25, 0.75, 0.75, 0.75, 0.75}
	l := []bool{true, false, false, false, true, true, true, false}
	if e := ECE(p, l, 10); math.Abs(e) > 1e-12 {
		t.Fatalf("calibrated ECE %v, want 0", e)
	}
	// Over-confident: says 0.9 where half are positive, 0.1 where half are.
	p = []float64{0.9, 0.9, 0.1, 0.1}
	l = []bool{true, false, true, false}
	if e := ECE(p, l, 10); math.Abs(e-0.4) > 1e-12 {
		t.Fatalf("over-confident ECE %v, want 0.4", e)
	}
	if !math.IsNaN(ECE(nil, nil, 10)) || !math.IsNaN(ECE([]float64{1.5}, []bool{true}, 10)) {
		t.Fatal("empty or out-of-range input: want NaN")
	}
}
