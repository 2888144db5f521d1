package table2

import (
	"context"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv/verifier"
)

// bundleSpeakers are the profiles of the training speakers of c (the
// round's pairs) that a saved verifier keeps so that `verify` names the
// nearest ones (verifier.SpeakerProfiles: at most verifier.MaxSpeakers,
// those with the most training utterances). On failure the bundle is
// written without them, and logf says why.
func bundleSpeakers(ctx context.Context, parts []verifier.SavePart, c *pairs.PairCorpus, logf func(string, ...any)) *verifier.Speakers {
	sp, err := verifier.SpeakerProfiles(ctx, parts, verifier.TrainSpeakerSets(c), 0)
	if err != nil {
		if logf != nil {
			logf("reproduce: the verifier bundle records no training speakers: %v", err)
		}
		return nil
	}
	return sp
}
