// Package agree measures how well a judge's scores agree with human
// scores: Spearman's ρ, Kendall's τ-b, pairwise-order agreement and
// Pearson's r (SpeechRole Table 3, VoxRole's human–judge r).
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
	"sort"

	"gonum.org/v1/gonum/stat"
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

// Pearson returns Pearson's product-moment correlation r (gonum's
// stat.Correlation).
func Pearson(x, y []float64) (float64, error) {
	if err := check(x, y); err != nil {
		return 0, err
	}
	return stat.Correlation(x, y, nil), nil
}

// Ranks returns the 1-based ranks of x, ties sharing the average of the
// ranks they span ("fractional ranking", as Spearman's ρ needs).
func Ranks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	r := make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && x[idx[j]] == x[idx[i]] {
			j++
		}
		avg := float64(i+j+1) / 2 // mean of ranks i+1 … j
		for k := i; k < j; k++ {
			r[idx[k]] = avg
		}
		i = j
	}
	return r
}

// Spearman returns Spearman's rank correlation ρ: Pearson's r of the
// fractional ranks, which handles ties correctly (the 1 − 6Σd²/(n³−n)
// shortcut does not).
func Spearman(x, y []float64) (float64, error) {
	if err := check(x, y); err != nil {
		return 0, err
	}
	return stat.Correlation(Ranks(x), Ranks(y), nil), nil
}

// PairCounts are the counts over all item pairs i < j that Kendall's τ
// and pairwise agreement are built from.
type PairCounts struct {
	// Concordant and Discordant count pairs ordered alike / oppositely
	// by both raters (neither tied).
	Concordant, Discordant int
	// TiedX counts pairs tied in x only, TiedY in y only, TiedBoth in
	// both.
	TiedX, TiedY, TiedBoth int
}

// Pairs counts concordant, discordant and tied pairs in O(n²), which is
// plenty for human-rating studies (hundreds of items).
func Pairs(x, y []float64) (PairCounts, error) {
	var c PairCounts
	if err := check(x, y); err != nil {
		return c, err
	}
	for i := 0; i < len(x); i++ {
		for j := i + 1; j < len(x); j++ {
			dx, dy := x[i]-x[j], y[i]-y[j]
			switch {
			case dx == 0 && dy == 0:
				c.TiedBoth++
			case dx == 0:
				c.TiedX++
			case dy == 0:
				c.TiedY++
			case (dx > 0) == (dy > 0):
				c.Concordant++
			default:
				c.Discordant++
			}
		}
	}
	return c, nil
}

// KendallTauB returns Kendall's τ-b, which corrects τ for ties on either
// side: (C − D) / √((C + D + Tx)(C + D + Ty)), where Tx counts pairs tied
// in x only and Ty in y only. Written here because gonum's stat.Kendall is
// τ-a (no tie correction), which judge scores on a 1–5 or 1–10 scale,
// full of ties, make meaningless.
func KendallTauB(x, y []float64) (float64, error) {
	c, err := Pairs(x, y)
	if err != nil {
		return 0, err
	}
	n0 := float64(c.Concordant + c.Discordant)
	den := math.Sqrt((n0 + float64(c.TiedX)) * (n0 + float64(c.TiedY)))
	if den == 0 {
		return math.NaN(), nil
	}
	return float64(c.Concordant-c.Discordant) / den, nil
}

// PairwiseAgreement is the share of item pairs that the reference rater
// (x, the humans) orders strictly on which the judge (y) agrees: a pair
// the judge orders the same way counts 1, a pair the judge ties counts ½,
// an inverted pair 0. Pairs the humans tie are left out. Without ties it
// equals (1 + τ)/2, which is how SpeechRole's "Human–LLM Agreement" row
// relates to its Kendall row. NaN when x ties every pair.
func PairwiseAgreement(x, y []float64) (float64, error) {
	c, err := Pairs(x, y)
	if err != nil {
		return 0, err
	}
	n := c.Concordant + c.Discordant + c.TiedY
	if n == 0 {
		return math.NaN(), nil
	}
	return (float64(c.Concordant) + 0.5*float64(c.TiedY)) / float64(n), nil
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
	var err error
	if r.Spearman, err = Spearman(human, judge); err != nil {
		return r, err
	}
	r.Kendall, _ = KendallTauB(human, judge)
	r.Pairwise, _ = PairwiseAgreement(human, judge)
	r.Pearson, _ = Pearson(human, judge)
	return r, nil
}
