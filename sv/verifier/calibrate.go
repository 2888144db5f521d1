package verifier

import (
	"fmt"
	"math"
)

// Calibration maps a cosine s to P(same speaker) = 1 / (1 + exp(−(A·s + B))):
// Platt scaling, a logistic regression of the dev labels on the dev
// cosines.
type Calibration struct {
	Method string  `json:"method"`
	A      float64 `json:"a"`
	B      float64 `json:"b"`
}

// Probability returns the calibrated same-speaker probability of cosine s.
func (c Calibration) Probability(s float64) float64 {
	return 1 / (1 + math.Exp(-(c.A*s + c.B)))
}

// ScoreAt returns the score whose probability is p (0 < p < 1): the
// score threshold of a decision stated on the probability. NaN when the
// calibration is flat (A = 0).
func (c Calibration) ScoreAt(p float64) float64 {
	if c.A == 0 || !(p > 0 && p < 1) {
		return math.NaN()
	}
	return (math.Log(p/(1-p)) - c.B) / c.A
}

// FitPlatt fits a Calibration to scores and labels (both classes needed)
// with Platt's regularised targets ((N₊+1)/(N₊+2) and 1/(N₋+2), which keep
// the fit finite when the classes separate) by Newton's method on the two
// parameters. Written here rather than with gonum/optimize: the problem is
// two-dimensional and convex, Newton's step is three lines, and the result
// is exactly reproducible.
func FitPlatt(scores []float64, labels []bool) (Calibration, error) {
	if len(scores) != len(labels) {
		return Calibration{}, fmt.Errorf("platt: %d scores, %d labels", len(scores), len(labels))
	}
	var pos, neg float64
	for _, l := range labels {
		if l {
			pos++
		} else {
			neg++
		}
	}
	if pos == 0 || neg == 0 {
		return Calibration{}, fmt.Errorf("platt: need pairs of both kinds (%v same, %v different)", pos, neg)
	}
	hi, lo := (pos+1)/(pos+2), 1/(neg+2)
	t := make([]float64, len(labels))
	for i, l := range labels {
		t[i] = lo
		if l {
			t[i] = hi
		}
	}
	a, b := 0.0, math.Log((pos+1)/(neg+1))
	loss := func(a, b float64) float64 {
		var f float64
		for i, s := range scores {
			z := a*s + b
			// −[t log σ(z) + (1−t) log(1−σ(z))], stably.
			f += math.Log1p(math.Exp(-math.Abs(z))) + math.Max(z, 0) - t[i]*z
		}
		return f
	}
	cur := loss(a, b)
	for iter := 0; iter < 100; iter++ {
		var ga, gb, haa, hab, hbb float64
		for i, s := range scores {
			p := 1 / (1 + math.Exp(-(a*s + b)))
			d := p - t[i]
			w := math.Max(p*(1-p), 1e-12)
			ga += d * s
			gb += d
			haa += w * s * s
			hab += w * s
			hbb += w
		}
		haa += 1e-12
		hbb += 1e-12
		det := haa*hbb - hab*hab
		if det <= 0 {
			break
		}
		da := (hbb*ga - hab*gb) / det
		db := (haa*gb - hab*ga) / det
		step := 1.0
		for ; step > 1e-10; step /= 2 {
			if f := loss(a-step*da, b-step*db); f <= cur {
				a, b, cur = a-step*da, b-step*db, f
				break
			}
		}
		if step <= 1e-10 || math.Abs(da)+math.Abs(db) < 1e-10 {
			break
		}
	}
	return Calibration{Method: "platt", A: a, B: b}, nil
}
