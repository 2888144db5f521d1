package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// Pearson returns Pearson's product-moment correlation r of x and y
// (gonum's stat.Correlation).
//
// Edge cases: NaN for fewer than two pairs, when either side is constant
// (zero variance, as in scipy) or when any value is NaN. It panics if the
// slices differ in length.
func Pearson(x, y []float64) float64 {
	if len(x) != len(y) {
		panic("stats: Pearson: slice length mismatch")
	}
	if len(x) < 2 {
		return math.NaN()
	}
	return stat.Correlation(x, y, nil)
}

// Spearman returns Spearman's rank correlation ρ of x and y: Pearson's r
// of their mid-ranks (MidRanks), which handles ties correctly (the
// 1 − 6Σd²/(n³−n) shortcut does not).
//
// Edge cases: NaN for fewer than two pairs or when either side is
// constant. It panics if the slices differ in length.
func Spearman(x, y []float64) float64 {
	if len(x) != len(y) {
		panic("stats: Spearman: slice length mismatch")
	}
	if len(x) < 2 {
		return math.NaN()
	}
	return stat.Correlation(MidRanks(x), MidRanks(y), nil)
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

// CountPairs counts concordant, discordant and tied pairs of x and y in
// O(n²), which is plenty for human-rating studies (hundreds of items).
// It panics if the slices differ in length.
func CountPairs(x, y []float64) PairCounts {
	if len(x) != len(y) {
		panic("stats: CountPairs: slice length mismatch")
	}
	var c PairCounts
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
	return c
}

// KendallTauB returns Kendall's τ-b, which corrects τ for ties on either
// side: (C − D) / √((C + D + Tx)(C + D + Ty)), where Tx counts pairs tied
// in x only and Ty in y only. Written here because gonum's stat.Kendall is
// τ-a (no tie correction), which judge scores on a 1–5 or 1–10 scale,
// full of ties, make meaningless.
//
// Edge cases: NaN when the denominator is zero (fewer than two items, or
// one side constant). It panics if the slices differ in length.
func KendallTauB(x, y []float64) float64 {
	c := CountPairs(x, y)
	n0 := float64(c.Concordant + c.Discordant)
	den := math.Sqrt((n0 + float64(c.TiedX)) * (n0 + float64(c.TiedY)))
	if den == 0 {
		return math.NaN()
	}
	return float64(c.Concordant-c.Discordant) / den
}

// PairwiseAgreement is the share of item pairs that the reference rater
// (x, the humans) orders strictly on which the judge (y) agrees: a pair
// the judge orders the same way counts 1, a pair the judge ties counts ½,
// an inverted pair 0. Pairs the humans tie are left out. Without ties it
// equals (1 + τ)/2, which is how SpeechRole's "Human–LLM Agreement" row
// relates to its Kendall row.
//
// Edge cases: NaN when x ties every pair (or has fewer than two items).
// It panics if the slices differ in length.
func PairwiseAgreement(x, y []float64) float64 {
	c := CountPairs(x, y)
	n := c.Concordant + c.Discordant + c.TiedY
	if n == 0 {
		return math.NaN()
	}
	return (float64(c.Concordant) + 0.5*float64(c.TiedY)) / float64(n)
}
