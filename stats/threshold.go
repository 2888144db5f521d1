package stats

import (
	"fmt"
	"math"
	"sort"
)

// Criterion is what a threshold search maximises.
type Criterion string

// The criteria BestThreshold knows.
const (
	// MaxAccuracy picks the threshold with the highest accuracy.
	MaxAccuracy Criterion = "accuracy"
	// MaxMacroF1 picks the threshold with the highest macro-F1.
	MaxMacroF1 Criterion = "macro_f1"
)

// ParseCriterion accepts "accuracy"/"acc" and "macro_f1"/"f1".
func ParseCriterion(s string) (Criterion, error) {
	switch s {
	case "accuracy", "acc", "":
		return MaxAccuracy, nil
	case "macro_f1", "f1", "macro-f1":
		return MaxMacroF1, nil
	}
	return "", fmt.Errorf("unknown threshold criterion %q (want accuracy or macro_f1)", s)
}

func (c Criterion) value(m Confusion) float64 {
	if c == MaxMacroF1 {
		return m.MacroF1()
	}
	return m.Accuracy()
}

// BestThreshold searches every distinct decision a threshold can make on
// scores and returns the threshold that maximises the criterion, with the
// confusion matrix it gives. Candidate thresholds are the midpoints
// between consecutive distinct scores, plus one below the lowest score
// (accept all) and one above the highest (reject all), so the threshold
// generalises to new scores rather than sitting on a training score. Ties
// in the criterion go to the highest such threshold (the first found when
// lowering it from "reject all"). The search is
// O(n log n).
//
// Edge cases: empty input returns (+Inf, zero Confusion); NaN scores are
// never accepted. It panics if the slices differ in length.
func BestThreshold(scores []float64, labels []bool, crit Criterion) (threshold float64, best Confusion) {
	if len(scores) != len(labels) {
		panic("stats: BestThreshold: slice length mismatch")
	}
	type sl struct {
		s float64
		l bool
	}
	var items []sl
	var nPos, nNeg, nanPos, nanNeg int
	for i, s := range scores {
		switch {
		case math.IsNaN(s) && labels[i]:
			nanPos++
		case math.IsNaN(s):
			nanNeg++
		default:
			items = append(items, sl{s, labels[i]})
			if labels[i] {
				nPos++
			} else {
				nNeg++
			}
		}
	}
	if len(scores) == 0 {
		return math.Inf(1), Confusion{}
	}
	// Descending: lowering the threshold past items[i] accepts it.
	sort.Slice(items, func(a, b int) bool { return items[a].s > items[b].s })
	// Start by rejecting everything.
	cur := Confusion{TN: nNeg + nanNeg, FN: nPos + nanPos}
	best = cur
	bestVal := crit.value(cur)
	if len(items) > 0 {
		threshold = above(items[0].s)
	} else {
		threshold = math.Inf(1)
	}
	bestT := threshold
	for i := 0; i < len(items); {
		j := i
		for j < len(items) && items[j].s == items[i].s {
			if items[j].l {
				cur.TP++
				cur.FN--
			} else {
				cur.FP++
				cur.TN--
			}
			j++
		}
		var t float64
		if j < len(items) {
			t = midpoint(items[j].s, items[i].s)
		} else {
			t = below(items[i].s)
		}
		// Thresholds descend: ">" keeps the highest of tied thresholds.
		if v := crit.value(cur); v > bestVal {
			bestVal, best, bestT = v, cur, t
		}
		i = j
	}
	return bestT, best
}

// midpoint returns a threshold t with lo < t <= hi: the midpoint of two
// consecutive distinct scores, or hi itself when lo and hi are adjacent
// floats and the midpoint rounds to lo (a threshold equal to lo would
// accept lo too, making a different decision from the one counted).
func midpoint(lo, hi float64) float64 {
	t := lo + (hi-lo)/2
	if !(t > lo) || t > hi {
		return hi
	}
	return t
}

// above returns a value a little above x (by 1e-6 of its size, at least
// 1e-9), for the reject-all threshold.
func above(x float64) float64 { return x + math.Max(math.Abs(x)*1e-6, 1e-9) }

// below returns a value a little below x, for the accept-all threshold.
func below(x float64) float64 { return x - math.Max(math.Abs(x)*1e-6, 1e-9) }
