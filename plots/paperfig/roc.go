package paperfig

import (
	"context"
	"fmt"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/sv"
)

// PairScores embeds the utterance sets of pairs with enc (mean pooling,
// sv.EmbedSets) and scores each pair as the runner does (sv.ScorePair), so
// that a ROC curve can be drawn for one test set. A Fitter encoder is
// fitted first on at most fitMax training texts of c (0: all), as in
// RunTable2. progress may be nil.
func PairScores(ctx context.Context, enc sv.Encoder, c *data.PairCorpus, pairs []data.Pair, fitMax int, progress sv.Progress) (plots.LabelledScores, error) {
	if len(pairs) == 0 {
		return plots.LabelledScores{}, fmt.Errorf("paperfig: no pairs to score")
	}
	if f, ok := enc.(sv.Fitter); ok {
		if err := f.Fit(ctx, sv.TrainTexts(c, fitMax)); err != nil {
			return plots.LabelledScores{}, fmt.Errorf("paperfig: fitting %s: %w", enc.Name(), err)
		}
	}
	seen := map[string]bool{}
	var sets []*data.UtteranceSet
	for _, p := range pairs {
		for _, id := range []string{p.A, p.B} {
			if seen[id] {
				continue
			}
			s := c.Sets[id]
			if s == nil {
				return plots.LabelledScores{}, fmt.Errorf("paperfig: pair %s refers to unknown set %q", p.ID, id)
			}
			seen[id] = true
			sets = append(sets, s)
		}
	}
	emb, err := sv.EmbedSets(ctx, enc, sets, progress)
	if err != nil {
		return plots.LabelledScores{}, fmt.Errorf("paperfig: embedding with %s: %w", enc.Name(), err)
	}
	out := plots.LabelledScores{Scores: make([]float64, len(pairs)), Positive: make([]bool, len(pairs))}
	for i, p := range pairs {
		out.Scores[i] = sv.ScorePair(enc, emb[p.A], emb[p.B])
		out.Positive[i] = p.Label == 1
	}
	return out, nil
}

// RunROC draws the ROC curves of test set k in round (1-based) of a
// finished run from the pair scores the run kept (sv.EncoderRound.Scores,
// Table2Config.KeepScores), one curve per encoder in the given order;
// encoders without scores in that round are left out. It is an error when
// none has scores (the run did not keep them: run it with KeepScores, or
// score again with PairScores).
func RunROC(t *sv.Table2, k data.TestKey, round int, encoders ...string) (*plots.ROC, error) {
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
		return nil, fmt.Errorf("paperfig: no pair scores of %s in round %d for %v (run with Table2Config.KeepScores)", k, round, encoders)
	}
	roc, err := plots.NewROC(curves...)
	if err != nil {
		return nil, err
	}
	roc.Title = fmt.Sprintf("%s, %s level (round %d)", ExposureName(string(k.Exposure)), LevelName(string(k.Level)), round)
	return roc, nil
}
