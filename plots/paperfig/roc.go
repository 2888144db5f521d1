package paperfig

import (
	"fmt"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/sv/table2"
)

// RunROC draws the ROC curves of test set k in round (1-based) of a
// finished run from the pair scores the run kept (table2.EncoderRound.Scores,
// Config.KeepScores), one curve per encoder in the given order;
// encoders without scores in that round are left out. The legend gives
// each curve's AUC ×100, as the tables print it. It is an error when
// none has scores (the run did not keep them: run it with KeepScores, or
// score again with sv.PairScores).
func RunROC(t *table2.Result, k pairs.TestKey, round int, encoders ...string) (*plots.ROC, error) {
	var curves []plots.Curve
	for _, name := range encoders {
		for i := range t.PerRound {
			er := &t.PerRound[i]
			if er.Round != round || er.Encoder != name {
				continue
			}
			if s, l, ok := er.TestScores(k); ok {
				curves = append(curves, plots.Curve{Name: name, Data: plots.LabelledScores{Scores: s, Positive: l}})
			}
		}
	}
	if len(curves) == 0 {
		return nil, fmt.Errorf("paperfig: no pair scores of %s in round %d for %v (run with Config.KeepScores)", k, round, encoders)
	}
	roc, err := plots.NewROC(curves...)
	if err != nil {
		return nil, err
	}
	roc.AUCScale, roc.AUCDigits = Percent, 2
	roc.Title = fmt.Sprintf("%s, %s level (round %d)", ExposureName(string(k.Exposure)), LevelName(string(k.Level)), round)
	return roc, nil
}
