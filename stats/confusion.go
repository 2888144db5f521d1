package stats

import "math"

// Confusion counts the outcomes of same/different-speaker decisions; the
// positive class is "same speaker".
type Confusion struct {
	// TP counts same-speaker pairs accepted, FP different-speaker pairs
	// accepted, TN different-speaker pairs rejected and FN same-speaker
	// pairs rejected.
	TP, FP, TN, FN int
}

// ConfusionAt decides "same speaker" for every score at or above threshold
// and counts the outcomes against labels. NaN scores are decided
// "different". It panics if the slices differ in length.
func ConfusionAt(scores []float64, labels []bool, threshold float64) Confusion {
	if len(scores) != len(labels) {
		panic("stats: ConfusionAt: slice length mismatch")
	}
	var c Confusion
	for i, s := range scores {
		pred := s >= threshold
		switch {
		case pred && labels[i]:
			c.TP++
		case pred && !labels[i]:
			c.FP++
		case !pred && labels[i]:
			c.FN++
		default:
			c.TN++
		}
	}
	return c
}

// N returns the number of decisions counted.
func (c Confusion) N() int { return c.TP + c.FP + c.TN + c.FN }

// Accuracy returns the fraction of correct decisions, NaN when empty.
func (c Confusion) Accuracy() float64 {
	if c.N() == 0 {
		return math.NaN()
	}
	return float64(c.TP+c.TN) / float64(c.N())
}

// MacroF1 returns the unweighted mean of the F1 scores of the two classes
// (same speaker: 2TP/(2TP+FP+FN); different speaker: 2TN/(2TN+FN+FP)),
// as scikit-learn's f1_score(average="macro"): a class that occurs in
// neither the labels nor the decisions is left out of the mean, and a
// class that occurs in one of them always has a non-zero denominator.
// Deciding everything "same" on a balanced set therefore gives
// (2/3 + 0)/2 = 1/3, the 33.33 of the paper's Harder rows. MacroF1 is NaN
// for an empty confusion matrix.
func (c Confusion) MacroF1() float64 {
	var sum float64
	var n int
	if d := 2*c.TP + c.FP + c.FN; d > 0 {
		sum += 2 * float64(c.TP) / float64(d)
		n++
	}
	if d := 2*c.TN + c.FN + c.FP; d > 0 {
		sum += 2 * float64(c.TN) / float64(d)
		n++
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// AccuracyF1 returns the accuracy and macro-F1 of deciding "same speaker"
// when a score is at or above threshold.
func AccuracyF1(scores []float64, labels []bool, threshold float64) (acc, f1 float64) {
	c := ConfusionAt(scores, labels, threshold)
	return c.Accuracy(), c.MacroF1()
}
