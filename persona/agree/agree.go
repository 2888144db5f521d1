// Package agree measures how well a judge's scores agree with human
// scores: Spearman's ρ, Kendall's τ-b, pairwise-order agreement and
// Pearson's r (SpeechRole Table 3, VoxRole's human–judge r), over items
// or over groups' means, with bootstrap intervals. The coefficients
// themselves are the stats package's; agree validates the ratings and
// assembles the report.
//
// Functions take two equal-length score slices, one entry per rated item,
// and return an error for mismatched lengths, fewer than two items or
// NaN input. A coefficient whose denominator is zero (one side constant)
// is NaN, as in scipy.
package agree

import (
	"errors"
	"fmt"
	"math"

	"github.com/roleprint/roleprint/stats"
)

func check(x, y []float64) error {
	if len(x) != len(y) {
		return fmt.Errorf("agree: %d scores against %d", len(x), len(y))
	}
	if len(x) < 2 {
		return errors.New("agree: need at least two rated items")
	}
	for i := range x {
		if math.IsNaN(x[i]) || math.IsNaN(y[i]) {
			return fmt.Errorf("agree: NaN score at item %d", i)
		}
	}
	return nil
}

// Report is every agreement statistic for one set of ratings.
type Report struct {
	// N is the number of rated items.
	N int `json:"n"`
	// Spearman is Spearman's ρ.
	Spearman float64 `json:"spearman"`
	// Kendall is Kendall's τ-b.
	Kendall float64 `json:"kendall_tau_b"`
	// Pairwise is PairwiseAgreement(human, judge).
	Pairwise float64 `json:"pairwise_agreement"`
	// Pearson is Pearson's r.
	Pearson float64 `json:"pearson"`
}

// Compare computes every statistic of judge scores against human scores.
func Compare(human, judge []float64) (Report, error) {
	r := Report{N: len(human)}
	if err := check(human, judge); err != nil {
		return r, err
	}
	r.Spearman = stats.Spearman(human, judge)
	r.Kendall = stats.KendallTauB(human, judge)
	r.Pairwise = stats.PairwiseAgreement(human, judge)
	r.Pearson = stats.Pearson(human, judge)
	return r, nil
}
