package verifier

import (
	"context"
	"fmt"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
)

// DevCosines embeds the dev pairs' sets of c with enc (sv.EmbedSets) and
// returns each dev pair's score (sv.ScorePair: the cosine, or the
// encoder's own score) and label, for Save.
func DevCosines(ctx context.Context, enc sv.Encoder, c *pairs.PairCorpus) ([]float64, []bool, error) {
	if len(c.Dev) == 0 {
		return nil, nil, fmt.Errorf("verifier: the pair corpus has no dev pairs to choose a threshold on")
	}
	var sets []*pairs.UtteranceSet
	for _, p := range c.Dev {
		a, b := c.Set(p.A), c.Set(p.B)
		if a == nil || b == nil {
			return nil, nil, fmt.Errorf("verifier: dev pair %s refers to a set the corpus does not hold", p.ID)
		}
		sets = append(sets, a, b)
	}
	emb, err := sv.EmbedSets(ctx, enc, sets, nil)
	if err != nil {
		return nil, nil, err
	}
	cos := make([]float64, len(c.Dev))
	for i, p := range c.Dev {
		cos[i] = sv.ScorePair(enc, emb[p.A], emb[p.B])
	}
	return cos, sv.PairLabels(c.Dev), nil
}
