package sv

import "github.com/roleprint/roleprint/data/pairs"

// TestScores returns the encoder's score of every pair of one test set in
// this round, in pair order, and whether each pair is positive (same
// speaker), so that ROC curves can be drawn from a finished run without
// scoring again. ok is false when the round holds no scores for the set
// (an EncoderRound decoded from JSON keeps only its metrics). The slices
// are the round's own: do not modify them.
func (er *EncoderRound) TestScores(k pairs.TestKey) (scores []float64, positive []bool, ok bool) {
	if er == nil || er.scores == nil || er.labels == nil {
		return nil, nil, false
	}
	s, l := er.scores.Tests[k.String()], er.labels[k.String()]
	if len(s) == 0 || len(s) != len(l) {
		return nil, nil, false
	}
	return s, l, true
}
