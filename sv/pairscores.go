package sv

import (
	"context"
	"fmt"

	"github.com/roleprint/roleprint/data/pairs"
)

// PairScores embeds the utterance sets of pairs with enc (mean pooling,
// EmbedSets) and scores each pair as the runner does (ScorePair), so
// that a ROC curve can be drawn for one test set
// (plots.LabelledScores{Scores: scores, Positive: positive}); positive[i]
// is pairs[i].Label == 1. A Fitter encoder is fitted first on at most
// fitMax training texts of c (0: all), as the Table 2 runner does
// (table2.Run). progress may be nil. (It lived in plots/paperfig, which draws and no longer embeds.)
func PairScores(ctx context.Context, enc Encoder, c *pairs.PairCorpus, pairList []pairs.Pair, fitMax int, progress Progress) (scores []float64, positive []bool, err error) {
	if len(pairList) == 0 {
		return nil, nil, fmt.Errorf("sv: no pairs to score")
	}
	if f, ok := enc.(Fitter); ok {
		if err := f.Fit(ctx, TrainTexts(c, fitMax)); err != nil {
			return nil, nil, fmt.Errorf("sv: fitting %s: %w", enc.Name(), err)
		}
	}
	seen := map[string]bool{}
	var sets []*pairs.UtteranceSet
	for _, p := range pairList {
		for _, id := range []string{p.A, p.B} {
			if seen[id] {
				continue
			}
			s := c.Sets[id]
			if s == nil {
				return nil, nil, fmt.Errorf("sv: pair %s refers to unknown set %q", p.ID, id)
			}
			seen[id] = true
			sets = append(sets, s)
		}
	}
	emb, err := EmbedSets(ctx, enc, sets, progress)
	if err != nil {
		return nil, nil, fmt.Errorf("sv: embedding with %s: %w", enc.Name(), err)
	}
	scores, positive = make([]float64, len(pairList)), make([]bool, len(pairList))
	for i, p := range pairList {
		scores[i] = ScorePair(enc, emb[p.A], emb[p.B])
		positive[i] = p.Label == 1
	}
	return scores, positive, nil
}
