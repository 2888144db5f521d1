package textmetrics

import "math"

// MeanRougeMeteor returns the mean ROUGE-L F and METEOR score of each
// candidate against its reference (the two slices in step), and the
// METEOR modules used; NaN means when there are no candidates.
func MeanRougeMeteor(candidates, references []string, rouge RougeOptions, meteor MeteorOptions) (rougeL, meteorMean float64, modules []string) {
	n := min(len(candidates), len(references))
	if n == 0 {
		return math.NaN(), math.NaN(), nil
	}
	for i := range n {
		rougeL += RougeL(candidates[i], references[i], rouge).F
		m := Meteor(candidates[i], references[i], meteor)
		meteorMean += m.Score
		modules = m.Modules
	}
	return rougeL / float64(n), meteorMean / float64(n), modules
}

// MeanF returns the mean F of scores (NaN when empty).
func MeanF(scores []PRF) float64 {
	if len(scores) == 0 {
		return math.NaN()
	}
	var s float64
	for _, p := range scores {
		s += p.F
	}
	return s / float64(len(scores))
}
