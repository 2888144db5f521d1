package roleplay

import (
	"context"
	"math"
	"testing"

	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// pairOnlyEncoder is bowEncoder scored by a PairScorer of the DotForm
// shape (an s-norm-like score of the first half, a plain dot product of
// the second, through a logistic link), pair by pair.
type pairOnlyEncoder struct{ bowEncoder }

func (pairOnlyEncoder) p(v []float32) float64 { return 1 + math.Abs(float64(v[0]))/10 }
func (pairOnlyEncoder) q(v []float32) float64 { return float64(v[1]) / 100 }

func (e pairOnlyEncoder) Score(a, b []float32) float64 {
	s := stats.Cosine(a[:64], b[:64])*(e.p(a)+e.p(b)) + e.q(a) + e.q(b)
	for i := 64; i < len(a); i++ {
		s += float64(a[i]) * float64(b[i]) / 4
	}
	return 1 / (1 + math.Exp(-s))
}

// formEncoder is pairOnlyEncoder with that score's sv.DotForm.
type formEncoder struct{ pairOnlyEncoder }

func (e formEncoder) DotForm() (sv.DotForm, bool) {
	return sv.DotForm{
		Terms: []sv.DotTerm{
			{X: func(v []float32) []float32 { return sv.Unit(v[:64]) }, P: e.p},
			{X: func(v []float32) []float32 { return append([]float32(nil), v[64:]...) }, P: func([]float32) float64 { return 1.0 / 8 }},
		},
		Q:    e.q,
		Link: func(s float64) float64 { return 1 / (1 + math.Exp(-s)) },
	}, true
}

// TestScoreDotForm checks that a PairScorer with an sv.DotForm (scored by
// matrix products) gives the report its Score gives pair by pair.
func TestScoreDotForm(t *testing.T) {
	ctx := context.Background()
	real, gen := synthetic(6)
	cfg := DefaultConfig()
	cfg.Bootstrap = 0
	cfg.Grouping = GroupChunks
	pair, err := Score(ctx, pairOnlyEncoder{}, real, gen, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	form, err := Score(ctx, formEncoder{}, real, gen, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(pair.Models) == 0 || len(pair.Models) != len(form.Models) || len(pair.Distributions) != len(form.Distributions) {
		t.Fatalf("%d / %d models, %d / %d distributions", len(pair.Models), len(form.Models), len(pair.Distributions), len(form.Distributions))
	}
	for i, m := range pair.Models {
		f := form.Models[i]
		if !near(float64(m.Simulation), float64(f.Simulation)) || !near(float64(m.Distinction), float64(f.Distinction)) {
			t.Errorf("%s: pair by pair %v / %v, by DotForm %v / %v", m.Model, m.Simulation, m.Distinction, f.Simulation, f.Distinction)
		}
	}
	for i, d := range pair.Distributions {
		f := form.Distributions[i]
		same := func(a, b stats.Float) bool {
			return math.IsNaN(float64(a)) && math.IsNaN(float64(b)) || near(float64(a), float64(b))
		}
		if d.Kind == RealGenerated && d.NPositive == 0 {
			t.Errorf("%s: no same-role real-generated pair; the test compares nothing", d.Model)
		}
		if d.NPositive != f.NPositive || d.NNegative != f.NNegative || !same(d.MeanPositive, f.MeanPositive) ||
			!same(d.MeanNegative, f.MeanNegative) || !same(d.AUC, f.AUC) {
			t.Errorf("%s %s: pair by pair %v %v %v, by DotForm %v %v %v", d.Model, d.Kind, d.MeanPositive, d.MeanNegative, d.AUC, f.MeanPositive, f.MeanNegative, f.AUC)
		}
	}
}
