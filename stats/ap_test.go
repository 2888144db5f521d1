package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestAveragePrecisionEdgeCases(t *testing.T) {
	cases := []struct {
		name   string
		scores []float64
		labels []bool
		want   float64
	}{
		{"separated", []float64{0.9, 0.8, 0.2, 0.1}, []bool{true, true, false, false}, 1},
		// Ranking n, p, p: precision 1/2 at recall 1/2, 2/3 at recall 1.
		{"one negative first", []float64{0.9, 0.8, 0.7}, []bool{false, true, true}, 0.5*0.5 + 0.5*2.0/3},
		{"reversed", []float64{0.1, 0.2, 0.8, 0.9}, []bool{true, true, false, false}, 0.5*1.0/3 + 0.5*2.0/4},
		{"all ties", []float64{0.5, 0.5, 0.5, 0.5}, []bool{true, false, false, false}, 0.25},
		{"no negatives", []float64{0.3, 0.1}, []bool{true, true}, 1},
		// A positive tied with a negative at the top: both enter at once.
		{"tie at the top", []float64{0.9, 0.9, 0.1}, []bool{true, false, true}, 0.5*0.5 + 0.5*2.0/3},
	}
	for _, c := range cases {
		if got := AveragePrecision(c.scores, c.labels); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: AveragePrecision = %v, want %v", c.name, got, c.want)
		}
	}
	for name, c := range map[string]struct {
		scores []float64
		labels []bool
	}{
		"no positives": {[]float64{0.1, 0.2}, []bool{false, false}},
		"empty":        {nil, nil},
		"NaN score":    {[]float64{math.NaN(), 0.2}, []bool{true, false}},
	} {
		if got := AveragePrecision(c.scores, c.labels); !math.IsNaN(got) {
			t.Errorf("%s: AveragePrecision = %v, want NaN", name, got)
		}
	}
}

// bruteAP evaluates the step precision–recall curve threshold by threshold:
// for every distinct score t from the highest down, precision and recall
// of "score ≥ t", then Σ (Rₖ − Rₖ₋₁)·Pₖ.
func bruteAP(scores []float64, labels []bool) float64 {
	var nPos float64
	for _, l := range labels {
		if l {
			nPos++
		}
	}
	seen := map[float64]bool{}
	var ts []float64
	for _, s := range scores {
		if !seen[s] {
			seen[s] = true
			ts = append(ts, s)
		}
	}
	for i := 1; i < len(ts); i++ { // descending insertion sort
		for j := i; j > 0 && ts[j] > ts[j-1]; j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
	var ap, prevR float64
	for _, th := range ts {
		var tp, called float64
		for i, s := range scores {
			if s >= th {
				called++
				if labels[i] {
					tp++
				}
			}
		}
		r := tp / nPos
		ap += (r - prevR) * tp / called
		prevR = r
	}
	return ap
}

func TestAveragePrecisionMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.IntN(40)
		scores := make([]float64, n)
		labels := make([]bool, n)
		for i := range scores {
			labels[i] = rng.IntN(3) == 0
			scores[i] = float64(rng.IntN(6)) / 5 // few distinct values: many ties
			if trial%2 == 1 {
				scores[i] = rng.Float64()
			}
		}
		labels[0] = true
		got := AveragePrecision(scores, labels)
		if want := bruteAP(scores, labels); math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d: AveragePrecision = %v, brute force %v (scores %v, labels %v)", trial, got, want, scores, labels)
		}
		// Shuffling items (ties included) leaves it unchanged.
		perm := rng.Perm(n)
		s2, l2 := make([]float64, n), make([]bool, n)
		for i, p := range perm {
			s2[i], l2[i] = scores[p], labels[p]
		}
		if again := AveragePrecision(s2, l2); math.Abs(again-got) > 1e-12 {
			t.Fatalf("trial %d: order-dependent: %v vs %v", trial, again, got)
		}
	}
}

func TestAveragePrecisionPanicsOnLengthMismatch(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic on length mismatch")
		}
	}()
	AveragePrecision([]float64{1}, nil)
}
