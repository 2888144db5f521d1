package verifier

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFitPlattWeighted: nil weights are FitPlatt, a constant weight
// changes nothing, a pair of weight 0 is as if absent, a heavier half
// pulls the fit towards itself, and bad weights are errors.
func TestFitPlattWeighted(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	var s []float64
	var l []bool
	for i := range 400 {
		same := i%2 == 0
		x := rng.NormFloat64()
		if same {
			x += 1.5
		}
		if i >= 200 {
			x += 1 // the second half's scores sit higher
		}
		s, l = append(s, x), append(l, same)
	}
	near := func(a, b Calibration) bool { return math.Abs(a.A-b.A) < 1e-9 && math.Abs(a.B-b.B) < 1e-9 }
	plain, err := FitPlatt(s, l)
	if err != nil {
		t.Fatal(err)
	}
	ones, twos, zeroed, heavy := make([]float64, 400), make([]float64, 400), make([]float64, 400), make([]float64, 400)
	for i := range ones {
		ones[i], twos[i], zeroed[i], heavy[i] = 1, 2, 1, 1
		if i >= 200 {
			zeroed[i], heavy[i] = 0, 5
		}
	}
	for name, w := range map[string][]float64{"nil": nil, "ones": ones, "twos": twos} {
		if c, err := FitPlattWeighted(s, l, w); err != nil || !near(c, plain) {
			t.Fatalf("%s weights: %+v (%v), want FitPlatt's %+v", name, c, err, plain)
		}
	}
	first, _ := FitPlatt(s[:200], l[:200])
	if c, err := FitPlattWeighted(s, l, zeroed); err != nil || !near(c, first) {
		t.Fatalf("weight 0 on the second half: %+v (%v), want the first half's fit %+v", c, err, first)
	}
	// Higher scores weigh more: the same probability needs a higher score.
	if c, _ := FitPlattWeighted(s, l, heavy); !(c.ScoreAt(0.5) > plain.ScoreAt(0.5)) {
		t.Fatalf("heavier high-score half: threshold %.3f, unweighted %.3f", c.ScoreAt(0.5), plain.ScoreAt(0.5))
	}
	for _, w := range [][]float64{ones[:3], append(make([]float64, 399), -1), make([]float64, 400), append(make([]float64, 399), math.NaN())} {
		if _, err := FitPlattWeighted(s, l, w); err == nil {
			t.Fatalf("weights %v…: no error", w[len(w)-1])
		}
	}
}
