package table2

import "github.com/roleprint/roleprint/data/pairs"

// TestScores returns the encoder's score of every pair of one test set in
// this round, in pair order, and whether each pair is positive (same
// speaker), so that ROC curves can be drawn from a finished run without
// scoring again. ok is false when the round holds no scores for the set
// (an EncoderRound decoded from JSON keeps only its metrics, unless the run
// had Config.KeepScores). The slices are the round's own: do not
// modify them.
func (er *EncoderRound) TestScores(k pairs.TestKey) (scores []float64, positive []bool, ok bool) {
	if er != nil && er.scores == nil {
		if ts, has := er.Scores[k.String()]; has && len(ts.Scores) > 0 && len(ts.Scores) == len(ts.Positive) {
			return ts.Scores, ts.Positive, true
		}
	}
	if er == nil || er.scores == nil || er.labels == nil {
		return nil, nil, false
	}
	s, l := er.scores.Tests[k.String()], er.labels[k.String()]
	if len(s) == 0 || len(s) != len(l) {
		return nil, nil, false
	}
	return s, l, true
}

// keepScores copies the round's test-set scores into Scores.
func (er *EncoderRound) keepScores() {
	if er.scores == nil || er.labels == nil {
		return
	}
	er.Scores = map[string]TestScoreSet{}
	for k, l := range er.labels {
		if s := er.scores.Tests[k]; len(s) > 0 && len(s) == len(l) {
			er.Scores[k] = TestScoreSet{Scores: s, Positive: l}
		}
	}
}
